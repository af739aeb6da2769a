// MCP server configs: validation that names the offending field, and import of the desktop hosts' `mcpServers` JSON.
import { MCP_SERVER_ID_PATTERN } from '../../../shared/contract/mcp';
import type { HostError, Result } from '../../../shared/errors';
import type { McpServerConfig } from '../../../shared/types/mcp';
import { escapePointer } from '../util/json-budget';

const ID = new RegExp(MCP_SERVER_ID_PATTERN);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,255}$/;
// RFC 7230 token: what a header name may be.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
const MAX_SERVERS = 100;

const STDIO_ONLY = ['command', 'args', 'env', 'cwd'] as const;
const HTTP_ONLY = ['url', 'headers'] as const;

const fieldError = (path: string, message: string, hint?: string): { ok: false; error: HostError } => ({
  ok: false,
  error: { code: 'INVALID_INPUT', message: `${path}: ${message}`, path, ...(hint ? { hint } : {}) },
});

/**
 * Checks one config (from mcp.add, mcp.update or an import) and returns a clean copy. `base` prefixes
 * paths, e.g. `/mcpServers/github`. Unknown fields are rejected so a typo is not silently ignored.
 */
export function validateServerConfig(input: unknown, base = ''): Result<McpServerConfig> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return fieldError(base || '/', 'must be an object');
  const raw = input as Record<string, unknown>;
  const known = new Set(['id', 'name', 'transport', ...STDIO_ONLY, ...HTTP_ONLY, 'trusted', 'enabled']);
  for (const key of Object.keys(raw)) {
    if (!known.has(key)) return fieldError(`${base}/${key}`, 'is not a known field', `Known fields: ${[...known].join(', ')}.`);
  }
  if (typeof raw.id !== 'string' || !ID.test(raw.id)) {
    return fieldError(`${base}/id`, 'must be 1–60 lowercase letters, digits, "_" or "-", starting with a letter or digit');
  }
  const name = raw.name ?? raw.id;
  if (typeof name !== 'string' || name.trim() === '' || name.length > 100) return fieldError(`${base}/name`, 'must be a non-empty string of at most 100 characters');
  if (raw.transport !== 'stdio' && raw.transport !== 'http') return fieldError(`${base}/transport`, 'must be "stdio" or "http"');
  for (const flag of ['trusted', 'enabled'] as const) {
    if (raw[flag] !== undefined && typeof raw[flag] !== 'boolean') return fieldError(`${base}/${flag}`, 'must be true or false');
  }
  const config: McpServerConfig = {
    id: raw.id,
    name: name.trim(),
    transport: raw.transport,
    trusted: raw.trusted === true,
    enabled: raw.enabled !== false,
  };

  if (raw.transport === 'stdio') {
    for (const key of HTTP_ONLY) if (raw[key] !== undefined) return fieldError(`${base}/${key}`, 'is only for transport "http"');
    if (typeof raw.command !== 'string' || raw.command.trim() === '' || raw.command.length > 4096) {
      return fieldError(`${base}/command`, 'must be the program to run, e.g. "npx" or "/usr/local/bin/server"');
    }
    if (hasControl(raw.command)) return fieldError(`${base}/command`, 'must not contain control characters');
    config.command = raw.command;
    if (raw.args !== undefined) {
      if (!Array.isArray(raw.args) || raw.args.length > 256) return fieldError(`${base}/args`, 'must be a list of at most 256 strings');
      for (let i = 0; i < raw.args.length; i++) {
        const arg: unknown = raw.args[i];
        if (typeof arg !== 'string' || arg.length > 8192 || arg.includes('\0')) return fieldError(`${base}/args/${i}`, 'must be a string without NUL characters');
      }
      config.args = [...(raw.args as string[])];
    }
    if (raw.env !== undefined) {
      const env = checkMap(raw.env, `${base}/env`, ENV_NAME, 'an environment variable name like API_KEY');
      if (!env.ok) return env;
      config.env = env.value;
    }
    if (raw.cwd !== undefined) {
      if (typeof raw.cwd !== 'string' || raw.cwd === '' || raw.cwd.length > 4096 || hasControl(raw.cwd)) return fieldError(`${base}/cwd`, 'must be a folder path');
      config.cwd = raw.cwd;
    }
  } else {
    for (const key of STDIO_ONLY) if (raw[key] !== undefined) return fieldError(`${base}/${key}`, 'is only for transport "stdio"');
    const url = checkUrl(raw.url, `${base}/url`);
    if (!url.ok) return url;
    config.url = url.value;
    if (raw.headers !== undefined) {
      const headers = checkMap(raw.headers, `${base}/headers`, HEADER_NAME, 'an HTTP header name');
      if (!headers.ok) return headers;
      for (const [key, value] of Object.entries(headers.value)) {
        if (/[\r\n\0]/.test(value)) return fieldError(`${base}/headers/${key}`, 'must not contain line breaks');
      }
      config.headers = headers.value;
    }
  }
  return { ok: true, value: config };
}

/** Only http(s); credentials in the URL are refused (they would be logged and shown). */
function checkUrl(value: unknown, path: string): Result<string> {
  if (typeof value !== 'string' || value.length > 2048) return fieldError(path, 'must be the server URL, e.g. "http://127.0.0.1:3000/mcp"');
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return fieldError(path, 'is not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return fieldError(path, `must use http or https, not ${parsed.protocol.replace(':', '')}`);
  if (parsed.username || parsed.password) return fieldError(path, 'must not contain a user name or password', 'Put credentials in headers instead.');
  return { ok: true, value: parsed.toString() };
}

function checkMap(value: unknown, path: string, keyPattern: RegExp, what: string): Result<Record<string, string>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fieldError(path, 'must be an object of name → string');
  const out: Record<string, string> = {};
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > 200) return fieldError(path, 'has more than 200 entries');
  for (const [key, item] of entries) {
    if (!keyPattern.test(key)) return fieldError(`${path}/${key}`, `is not ${what}`);
    if (typeof item !== 'string' || item.length > 8192 || item.includes('\0')) return fieldError(`${path}/${key}`, 'must be a string without NUL characters');
    out[key] = item;
  }
  return { ok: true, value: out };
}

function hasControl(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return /[\u0000-\u001f\u007f]/.test(text);
}

/** A server name from an import → an id: lowercase, invalid runs become "-", unique among `taken`. */
export function idFromName(name: string, taken: Set<string>): string {
  let base = name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+/, '')
    .slice(0, 52)
    .replace(/[-_]+$/, '');
  if (!base) base = 'server';
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

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
