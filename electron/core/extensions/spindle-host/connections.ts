// spindle.connections: the user's connection profiles in Lumiverse's shape, never a key (permission `generation`, as in Lumiverse: requests.ts).
import { connectionDto, type ConnectionFields } from '../../../../shared/spindle/connection-dto';
import type { HandlersOf } from './handlers';

/** What the host knows of one profile. */
export type ConnectionSummary = ConnectionFields;

export interface ConnectionReads {
  list(): ConnectionSummary[];
  /** The chat's main connection, Lumiverse's "default". */
  mainId(): string | null;
}

export function connectionHandlers(reads: () => ConnectionReads | null): HandlersOf<'connections'> {
  const all = () => {
    const source = reads();
    return { profiles: source?.list() ?? [], mainId: source?.mainId() ?? null };
  };
  return {
    'connections.list': () => {
      const { profiles, mainId } = all();
      return profiles.map((p) => connectionDto(p, mainId));
    },
    'connections.get': ({ connectionId }) => {
      const { profiles, mainId } = all();
      const found = profiles.find((p) => p.id === connectionId);
      return found ? connectionDto(found, mainId) : null;
    },
    'connections.resolveDispatch': () => null,
  };
}
