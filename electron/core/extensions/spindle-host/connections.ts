// spindle.connections: the user's connection profiles in Lumiverse's shape, never a key (permission `generation`, as in Lumiverse: requests.ts).
import type { HandlersOf } from './handlers';

/** What the host knows of one profile. */
export interface ConnectionSummary {
  id: string;
  name: string;
  provider: string;
  baseUrl: string;
  defaultModel: string;
  hasKey: boolean;
}

export interface ConnectionReads {
  list(): ConnectionSummary[];
  /** The chat's main connection, Lumiverse's "default". */
  mainId(): string | null;
}

function toDto(profile: ConnectionSummary, mainId: string | null) {
  return {
    id: profile.id,
    name: profile.name,
    provider: profile.provider,
    api_url: profile.baseUrl,
    model: profile.defaultModel,
    preset_id: null,
    is_default: profile.id === mainId,
    has_api_key: profile.hasKey,
    metadata: {},
    reasoning_bindings: null,
  };
}

export function connectionHandlers(reads: () => ConnectionReads | null): HandlersOf<'connections'> {
  const all = () => {
    const source = reads();
    return { profiles: source?.list() ?? [], mainId: source?.mainId() ?? null };
  };
  return {
    'connections.list': () => {
      const { profiles, mainId } = all();
      return profiles.map((p) => toDto(p, mainId));
    },
    'connections.get': ({ connectionId }) => {
      const { profiles, mainId } = all();
      const found = profiles.find((p) => p.id === connectionId);
      return found ? toDto(found, mainId) : null;
    },
    'connections.resolveDispatch': () => null,
  };
}
