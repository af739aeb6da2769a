// Import of the desktop hosts' `mcpServers` JSON into server configs (their rules: shared/mcp-config.ts).
import type { HostError } from '../../../shared/errors';
import { HTTP_ONLY, STDIO_ONLY, idFromName, validateServerConfig } from '../../../shared/mcp-config';
import type { McpServerConfig } from '../../../shared/types/mcp';
import { escapePointer } from '../../../shared/json-budget';

const MAX_SERVERS = 100;

export interface ImportOutcome {
  configs: McpServerConfig[];
  errors: HostError[];
}

/**
 * Reads `{ "mcpServers": { "<name>": { command, args?, env?, cwd? } | { url, headers?, type? } } }`
 * (Claude Desktop, Cursor, Cherry Studio and others write this). A bare `{ "<name>": {...} }` map
 * is accepted too. Entries come in disabled and untrusted unless `enable` is set; trust is
 * always the user's decision, never the file's.
 */
export function parseMcpServersJson(json: string, existingIds: Iterable<string>, options: { enable?: boolean } = {}): ImportOutcome {
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch (error) {
    return { configs: [], errors: [{ code: 'INVALID_INPUT', message: `/: not valid JSON (${(error as Error).message})`, path: '/' }] };
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    return { configs: [], errors: [{ code: 'INVALID_INPUT', message: '/: must be an object with "mcpServers"', path: '/' }] };
  }
  const hasKey = Object.prototype.hasOwnProperty.call(doc, 'mcpServers');
  const servers = hasKey ? (doc as { mcpServers: unknown }).mcpServers : doc;
  const root = hasKey ? '/mcpServers' : '';
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    return { configs: [], errors: [{ code: 'INVALID_INPUT', message: `${root || '/'}: must be an object of server name → config`, path: root || '/' }] };
  }
  const taken = new Set(existingIds);
  const configs: McpServerConfig[] = [];
  const errors: HostError[] = [];
  const entries = Object.entries(servers as Record<string, unknown>);
  if (taken.size + entries.length > MAX_SERVERS) {
    return { configs: [], errors: [{ code: 'INVALID_INPUT', message: `${root || '/'}: at most ${MAX_SERVERS} servers in total`, path: root || '/' }] };
  }
  for (const [name, entry] of entries) {
    // A JSON Pointer (RFC 6901): a name with '/' or '~' stays one segment, so the page can name the entry.
    const base = `${root}/${escapePointer(name)}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      errors.push({ code: 'INVALID_INPUT', message: `${base}: must be an object with "command" or "url"`, path: base });
      continue;
    }
    // Hosts add their own fields (autoApprove, timeout, description, …): take only what a server config is.
    const { type, transport, disabled } = entry as Record<string, unknown>;
    const rest: Record<string, unknown> = {};
    for (const key of [...STDIO_ONLY, ...HTTP_ONLY]) {
      const value = (entry as Record<string, unknown>)[key];
      if (value !== undefined) rest[key] = value;
    }
    const declared = typeof type === 'string' ? type : typeof transport === 'string' ? transport : undefined;
    if (declared === 'sse') {
      errors.push({ code: 'INVALID_INPUT', message: `${base}/type: the legacy SSE transport is not supported; use the server's Streamable HTTP URL`, path: `${base}/type` });
      continue;
    }
    const isHttp = rest.url !== undefined || declared === 'http' || declared === 'streamable-http' || declared === 'streamableHttp';
    const candidate: Record<string, unknown> = {
      ...rest,
      id: idFromName(name, taken),
      name: name.slice(0, 100) || 'server',
      transport: isHttp ? 'http' : 'stdio',
      trusted: false,
      enabled: options.enable === true && disabled !== true,
    };
    const checked = validateServerConfig(candidate, base);
    if (!checked.ok) {
      errors.push(checked.error);
      continue;
    }
    taken.add(checked.value.id);
    configs.push(checked.value);
  }
  return { configs, errors };
}
