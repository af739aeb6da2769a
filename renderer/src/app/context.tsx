// React access to the host connection and the store, provided once at the root (tests provide fakes).
import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { HostConnection } from '../api/connection';
import type { AppState, AppStore } from '../stores/app/app-store';

const HostContext = createContext<HostConnection | null>(null);
const StoreContext = createContext<AppStore | null>(null);

export function AppProviders(props: { host: HostConnection; store: AppStore; children: ReactNode }) {
  return (
    <HostContext.Provider value={props.host}>
      <StoreContext.Provider value={props.store}>{props.children}</StoreContext.Provider>
    </HostContext.Provider>
  );
}

export function useHost(): HostConnection {
  const host = useContext(HostContext);
  if (!host) throw new Error('useHost outside AppProviders');
  return host;
}

export function useAppStoreApi(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useAppStore outside AppProviders');
  return store;
}

/** Subscribe to a slice of the store. Wrap selectors that build objects or arrays in useShallow. */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  return useStore(useAppStoreApi(), selector);
}
