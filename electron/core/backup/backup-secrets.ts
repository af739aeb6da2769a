// What a backup leaves out, and what a restore puts back from this folder: stored API keys, connection headers kept
// in the secret store, and MCP servers' secret values (every header, environment values with credential-like names).
import type { Settings } from '../../../shared/settings';
import { isSecretValue, STORED_SECRET } from '../../../shared/secret-mask';

type Profile = NonNullable<Settings['connections']>[number];
type McpServer = NonNullable<Settings['mcpServers']>[number];

/** The settings as a backup holds them; each value left out is named in `withheld`. */
export function withoutSecrets(settings: Settings, withheld: string[]): Settings {
  const connections = (settings.connections ?? []).map((p): Profile => {
    const headers = Object.fromEntries(Object.entries(p.headers).filter(([name, value]) => (value === STORED_SECRET ? (withheld.push(`connections/${p.id}: header ${name}`), false) : true)));
    if (p.keyRef?.kind === 'stored') withheld.push(`connections/${p.id}: API key`);
    const { keyRef, ...rest } = p;
    return { ...rest, headers, ...(keyRef && keyRef.kind !== 'stored' ? { keyRef } : {}) };
  });
  const blank = (server: string, field: 'env' | 'headers', map: Record<string, string> | undefined) =>
    map && Object.fromEntries(Object.entries(map).map(([name, value]) => (isSecretValue(field, name) && value ? (withheld.push(`mcpServers/${server}: ${field === 'env' ? 'env' : 'header'} ${name}`), [name, '']) : [name, value])));
  const mcpServers = settings.mcpServers?.map((s): McpServer => {
    const env = blank(s.id, 'env', s.env);
    const headers = blank(s.id, 'headers', s.headers);
    return { ...s, ...(env ? { env } : {}), ...(headers ? { headers } : {}) };
  });
  return { ...settings, connections, ...(mcpServers ? { mcpServers } : {}) };
}

/**
 * The backup's settings with this folder's secrets put back where the backup left a value out and this folder has
 * one for the same connection or server, when `allowed` names it (`connections/<id>`, `mcpServers/<id>`: one whose
 * address or program is unchanged); `needed` names those that still lack one.
 */
export function withLocalSecrets(incoming: Settings, current: Settings, withheld: readonly string[], needed: string[], allowed: ReadonlySet<string>): Settings {
  const left = new Set(withheld);
  const connections = (incoming.connections ?? []).map((p): Profile => {
    const here = allowed.has(`connections/${p.id}`) ? current.connections?.find((c) => c.id === p.id) : undefined;
    let missing = false;
    const headers = { ...p.headers };
    for (const item of left) {
      const header = item.startsWith(`connections/${p.id}: header `) ? item.slice(`connections/${p.id}: header `.length) : null;
      if (header === null) continue;
      if (here?.headers[header] === STORED_SECRET) headers[header] = STORED_SECRET;
      else missing = true;
    }
    let keyRef = p.keyRef;
    if (!keyRef && left.has(`connections/${p.id}: API key`)) {
      if (here?.keyRef?.kind === 'stored') keyRef = here.keyRef;
      else missing = true;
    }
    if (missing) needed.push(p.name);
    return { ...p, headers, ...(keyRef ? { keyRef } : {}) };
  });
  const mcpServers = incoming.mcpServers?.map((s): McpServer => {
    const here = allowed.has(`mcpServers/${s.id}`) ? current.mcpServers?.find((c) => c.id === s.id) : undefined;
    let missing = false;
    const restore = (field: 'env' | 'headers', label: string) => {
      const values = s[field] ? { ...s[field] } : undefined;
      for (const name of Object.keys(values ?? {})) {
        if (!left.has(`mcpServers/${s.id}: ${label} ${name}`)) continue;
        const mine = here?.[field]?.[name];
        if (mine) values![name] = mine;
        else missing = true;
      }
      return values;
    };
    const env = restore('env', 'env');
    const headers = restore('headers', 'header');
    if (missing) needed.push(s.name);
    return { ...s, ...(env ? { env } : {}), ...(headers ? { headers } : {}) };
  });
  return { ...incoming, connections, ...(mcpServers ? { mcpServers } : {}) };
}
