// The slice-creator type every domain slice uses, so slices can be combined into one store.
import type { StateCreator } from 'zustand/vanilla';
import type { AppState } from './app-store';

export type Slice<T> = StateCreator<AppState, [], [], T>;

/** Injected into slices that stamp times, so tests control the clock. */
export interface StoreDeps {
  now(): number;
}
