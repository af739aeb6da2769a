// spindle.connections: the user's connection profiles in Lumiverse's shape, never a key (permission `generation`, as in Lumiverse).
import type { ExtensionPermission } from '../../../../shared/types/spindle';
import { text, unknownMethod, type NamespaceHandler } from './namespace';

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

export function connectionsNamespace(reads: () => ConnectionReads | null): NamespaceHandler {
  return {
    permission: (): ExtensionPermission => 'generation',
    handle(_caller, method, args) {
      const source = reads();
      const all = source?.list() ?? [];
      const mainId = source?.mainId() ?? null;
      if (method === 'list') return all.map((p) => toDto(p, mainId));
      if (method === 'get') {
        const id = text(args[0], 'connectionId', 64);
        const found = all.find((p) => p.id === id);
        return found ? toDto(found, mainId) : null;
      }
      if (method === 'resolveDispatch') return null;
      return unknownMethod('connections', method);
    },
  };
}
