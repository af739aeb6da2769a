// Changes to MCP server configs: a patch merged into a config, masked secrets sent back kept as stored, and a
// change to the stored list that names only its own servers (others, added by another process, stay).
import { HostFailure } from '../../../shared/errors';
import { KEPT_SECRET } from '../../../shared/secret-mask';
import type { McpServerConfig } from '../../../shared/types/mcp';

/** The stored list with these configs put in place of their ids (appended when new). */
export function putting(configs: readonly McpServerConfig[]): (stored: McpServerConfig[]) => McpServerConfig[] {
  const byId = new Map(configs.map((config) => [config.id, config]));
  return (stored) => [...stored.map((config) => byId.get(config.id) ?? config), ...configs.filter((config) => !stored.some((s) => s.id === config.id))];
}

/** Fields in `patch` replace the config's; null removes an optional field; a new transport drops the old one's fields. */
export function mergeConfigPatch(config: McpServerConfig, patch: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...config };
  for (const [key, value] of Object.entries(patch)) {
    if (key === 'id') continue;
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = value;
  }
  // Switching transport drops the other transport's fields rather than failing on them.
  if (patch.transport === 'http') for (const key of ['command', 'args', 'env', 'cwd']) if (!(key in patch)) delete merged[key];
  if (patch.transport === 'stdio') for (const key of ['url', 'headers']) if (!(key in patch)) delete merged[key];
  return merged;
}

/**
 * The renderer only ever saw masked header and env values (shared/secret-mask.ts): a value sent back
 * as the mask keeps what is stored under that name; a mask for a name with nothing stored (any, for
 * a new server: `stored` null) is refused, its path under `pathPrefix`.
 */
export function keepStoredSecrets(patch: Record<string, unknown>, stored: McpServerConfig | null, pathPrefix: string): Record<string, unknown> {
  let out = patch;
  for (const field of ['headers', 'env'] as const) {
    const values = patch[field];
    if (typeof values !== 'object' || values === null) continue;
    const kept: Record<string, unknown> = { ...(values as Record<string, unknown>) };
    for (const [name, value] of Object.entries(kept)) {
      if (value !== KEPT_SECRET) continue;
      const previous = stored?.[field]?.[name];
      if (previous === undefined) throw new HostFailure({ code: 'INVALID_INPUT', message: `${name} has no stored value to keep; enter the value.`, path: `${pathPrefix}/${field}/${name}` });
      kept[name] = previous;
    }
    out = { ...out, [field]: kept };
  }
  return out;
}
