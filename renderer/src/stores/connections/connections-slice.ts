// Connections slice: LLM connection profiles as key-free views (hasKey + keyHint, never a key), where keys are kept, and listed models.
import type { MethodOutput } from '../../../../shared/contract';
import type { HostError } from '../../../../shared/errors';
import type { ConnectionProfileView } from '../../../../shared/types/llm';
import type { Slice } from '../app/slice';

export type SecretsInfo = MethodOutput<'connections.secretsInfo'>;

export interface ConnectionsSlice {
  connections: {
    /** Host truth as last reported by connections.list, in the host's order. */
    items: readonly ConnectionProfileView[];
    /** False until the first connections.list answer. */
    loaded: boolean;
    /** Why the list could not be read (shown in the panel, not as a global notice). */
    loadError: HostError | null;
    /** connections.secretsInfo: where keys are kept and the warning to show where keys are typed. */
    secrets: SecretsInfo | null;
    /** Models each saved profile offered when last asked (connections.models / connections.test), by profile id. */
    models: Readonly<Record<string, readonly string[]>>;
  };
  connectionsReplaced(items: readonly ConnectionProfileView[]): void;
  connectionsLoadFailed(error: HostError): void;
  connectionSaved(profile: ConnectionProfileView): void;
  connectionRemoved(id: string): void;
  connectionSecretsLoaded(info: SecretsInfo): void;
  connectionModelsLoaded(id: string, models: readonly string[]): void;
}

function withOwn<T>(record: Readonly<Record<string, T>>, key: string, value: T | undefined): Record<string, T> {
  const next: Record<string, T> = {};
  for (const [k, v] of Object.entries(record)) if (k !== key) Object.defineProperty(next, k, { value: v, writable: true, enumerable: true, configurable: true });
  if (value !== undefined) Object.defineProperty(next, key, { value, writable: true, enumerable: true, configurable: true });
  return next;
}

export const createConnectionsSlice: Slice<ConnectionsSlice> = (set) => ({
  connections: { items: [], loaded: false, loadError: null, secrets: null, models: {} },
  connectionsReplaced: (items) =>
    set((s) => {
      const ids = new Set(items.map((p) => p.id));
      let models = s.connections.models;
      for (const id of Object.keys(models)) if (!ids.has(id)) models = withOwn(models, id, undefined);
      return { connections: { ...s.connections, items: [...items], loaded: true, loadError: null, models } };
    }),
  connectionsLoadFailed: (error) => set((s) => ({ connections: { ...s.connections, loadError: error } })),
  connectionSaved: (profile) =>
    set((s) => {
      const items = s.connections.items;
      const next = items.some((p) => p.id === profile.id) ? items.map((p) => (p.id === profile.id ? profile : p)) : [...items, profile];
      return { connections: { ...s.connections, items: next } };
    }),
  connectionRemoved: (id) =>
    set((s) => ({
      connections: { ...s.connections, items: s.connections.items.filter((p) => p.id !== id), models: withOwn(s.connections.models, id, undefined) },
    })),
  connectionSecretsLoaded: (info) => set((s) => ({ connections: { ...s.connections, secrets: info } })),
  connectionModelsLoaded: (id, models) =>
    set((s) => ({ connections: { ...s.connections, models: withOwn(s.connections.models, id, [...models]) } })),
});
