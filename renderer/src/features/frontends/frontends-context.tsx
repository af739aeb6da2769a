// React access to the frontends store and the running brokers, provided once by the shell.
import { createContext, useContext, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { FrameBroker } from './frame-broker';
import { createFrontendsStore, type FrontendsState, type FrontendsStore } from './frontends-store';

interface Frontends {
  store: FrontendsStore;
  /** The broker of each extension whose frontend runs, by extension id. */
  brokers: Map<string, FrameBroker>;
}

/** Outside a provider (a component rendered alone in a test): nothing placed, nothing running. */
const NONE: Frontends = { store: createFrontendsStore(), brokers: new Map() };
const FrontendsContext = createContext<Frontends>(NONE);

/** `value`: a store and brokers made elsewhere (a test that places surfaces itself); by default its own. */
export function FrontendsProvider(props: { children: ReactNode; value?: Frontends }) {
  const [value] = useState<Frontends>(() => props.value ?? { store: createFrontendsStore(), brokers: new Map() });
  return <FrontendsContext.Provider value={value}>{props.children}</FrontendsContext.Provider>;
}

export function useFrontends(): Frontends {
  return useContext(FrontendsContext);
}

export function useFrontendsStore<T>(selector: (state: FrontendsState) => T): T {
  return useStore(useFrontends().store, selector);
}
