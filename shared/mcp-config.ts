// One MCP server config's rules, in one place: the core applies them to mcp.add, mcp.update and imports, and the
// add/edit form runs the same rules as the person types. Every problem names its field.
import { MCP_SERVER_ID_PATTERN } from './contract/mcp';
import type { HostError, Result } from './errors';
import type { McpServerConfig } from './types/mcp';

const ID = new RegExp(MCP_SERVER_ID_PATTERN);
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,255}$/;
// RFC 7230 token: what a header name may be.
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
const MAX_MAP_ENTRIES = 200;
const MAX_ARGS = 256;

export const STDIO_ONLY = ['command', 'args', 'env', 'cwd'] as const;
export const HTTP_ONLY = ['url', 'headers'] as const;
const KNOWN = new Set(['id', 'name', 'transport', ...STDIO_ONLY, ...HTTP_ONLY, 'trusted', 'enabled']);

/** A field problem; the message starts with the path, as every host error about a field does. */
function problem(path: string, message: string, hint?: string): HostError {
  return { code: 'INVALID_INPUT', message: `${path}: ${message}`, path, ...(hint ? { hint } : {}) };
}

/**
 * Checks one config and builds its clean copy; `base` prefixes paths (e.g. `/mcpServers/github`). Unknown
 * fields are refused so a typo is not silently ignored. Every problem is listed, the form shows them all.
 */
export function checkServerConfig(input: unknown, base = ''): { config: McpServerConfig; problems: HostError[] } {
  const problems: HostError[] = [];
  const raw = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : null;
  const config: McpServerConfig = { id: '', name: '', transport: 'stdio', trusted: false, enabled: true };
  if (!raw) return { config, problems: [problem(base || '/', 'must be an object')] };
  const at = (field: string) => `${base}/${field}`;
  for (const key of Object.keys(raw)) {
    if (!KNOWN.has(key)) problems.push(problem(at(key), 'is not a known field', `Known fields: ${[...KNOWN].join(', ')}.`));
  }
  if (raw.id === '' || raw.id === undefined) problems.push(problem(at('id'), 'give the server an id'));
  else if (typeof raw.id !== 'string' || !ID.test(raw.id)) problems.push(problem(at('id'), 'must be 1–60 lowercase letters, digits, "_" or "-", starting with a letter or digit'));
  else config.id = raw.id;
  // Without a name the id serves as one.
  if (raw.name === undefined) config.name = config.id;
  else if (typeof raw.name !== 'string' || raw.name.trim() === '') problems.push(problem(at('name'), 'give the server a name'));
  else if (raw.name.trim().length > 100) problems.push(problem(at('name'), 'must be at most 100 characters'));
  else config.name = raw.name.trim();
  if (raw.transport !== 'stdio' && raw.transport !== 'http') problems.push(problem(at('transport'), 'must be "stdio" or "http"'));
  else config.transport = raw.transport;
  for (const flag of ['trusted', 'enabled'] as const) {
    if (raw[flag] !== undefined && typeof raw[flag] !== 'boolean') problems.push(problem(at(flag), 'must be true or false'));
  }
  config.trusted = raw.trusted === true;
  config.enabled = raw.enabled !== false;

  if (raw.transport === 'stdio') {
    for (const key of HTTP_ONLY) if (raw[key] !== undefined) problems.push(problem(at(key), 'is only for transport "http"'));
    checkStdio(raw, config, at, problems);
  } else if (raw.transport === 'http') {
    for (const key of STDIO_ONLY) if (raw[key] !== undefined) problems.push(problem(at(key), 'is only for transport "stdio"'));
    const url = checkUrl(raw.url, at('url'));
    if (typeof url === 'string') config.url = url;
    else problems.push(url);
    if (raw.headers !== undefined) {
      const headers = checkMap(raw.headers, at('headers'), HEADER_NAME, 'an HTTP header name', problems);
      for (const [key, value] of Object.entries(headers)) {
        if (/[\r\n]/.test(value)) problems.push(problem(`${at('headers')}/${key}`, 'must not contain line breaks'));
      }
      config.headers = headers;
    }
  }
  return { config, problems };
}

/** A clean copy of a valid config, or its first problem. */
export function validateServerConfig(input: unknown, base = ''): Result<McpServerConfig> {
  const { config, problems } = checkServerConfig(input, base);
  return problems[0] ? { ok: false, error: problems[0] } : { ok: true, value: config };
}

function checkStdio(raw: Record<string, unknown>, config: McpServerConfig, at: (field: string) => string, problems: HostError[]): void {
  if (typeof raw.command !== 'string' || raw.command.trim() === '') {
    problems.push(problem(at('command'), 'enter the program to run, e.g. "npx", "uvx" or "/usr/local/bin/my-server"'));
  } else if (raw.command.length > 4096) problems.push(problem(at('command'), 'must be at most 4096 characters'));
  else if (CONTROL.test(raw.command)) problems.push(problem(at('command'), 'must not contain control characters or line breaks'));
  else config.command = raw.command;
  if (raw.args !== undefined) {
    if (!Array.isArray(raw.args) || raw.args.length > MAX_ARGS) problems.push(problem(at('args'), `must be a list of at most ${MAX_ARGS} strings`));
    else {
      raw.args.forEach((arg: unknown, i) => {
        const wrong = stringProblem(arg);
        if (wrong) problems.push(problem(`${at('args')}/${i}`, wrong));
      });
      config.args = [...(raw.args as string[])];
    }
  }
  if (raw.env !== undefined) config.env = checkMap(raw.env, at('env'), ENV_NAME, 'an environment variable name like API_KEY', problems);
  if (raw.cwd !== undefined) {
    if (typeof raw.cwd !== 'string' || raw.cwd === '' || raw.cwd.length > 4096 || CONTROL.test(raw.cwd)) {
      problems.push(problem(at('cwd'), 'must be a folder path without control characters'));
    } else config.cwd = raw.cwd;
  }
}

/** Only http(s); credentials in the URL are refused (they would be logged and shown). */
function checkUrl(value: unknown, path: string): string | HostError {
  if (value === undefined || value === '') return problem(path, 'enter the server’s URL, e.g. "http://127.0.0.1:3000/mcp"');
  if (typeof value !== 'string' || value.length > 2048) return problem(path, 'must be the server URL, at most 2048 characters');
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return problem(path, 'is not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return problem(path, `must be an http:// or https:// URL, not ${parsed.protocol.replace(':', '')}`);
  if (parsed.username || parsed.password) return problem(path, 'must not contain a user name or password', 'Put credentials in a header instead.');
  return parsed.toString();
}

function checkMap(value: unknown, path: string, keyPattern: RegExp, what: string, problems: HostError[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(problem(path, 'must be an object of name → string'));
    return out;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_MAP_ENTRIES) problems.push(problem(path, `has more than ${MAX_MAP_ENTRIES} entries`));
  for (const [key, item] of entries) {
    if (!keyPattern.test(key)) problems.push(problem(`${path}/${key}`, `is not ${what}`));
    else {
      const wrong = stringProblem(item);
      if (wrong) problems.push(problem(`${path}/${key}`, wrong));
      else Object.defineProperty(out, key, { value: item, writable: true, enumerable: true, configurable: true });
    }
  }
  return out;
}

/** What is wrong with an argument or a value, if anything. */
function stringProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length > 8192) return 'must be at most 8192 characters';
  if (value.includes('\0')) return 'must not contain NUL characters';
  return null;
}

/** A server name → an id: lowercase, other runs become "-"; unique among `taken` when given (imports). */
export function idFromName(name: string, taken?: ReadonlySet<string>): string {
  const base = name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+/, '')
    .slice(0, taken ? 52 : 60)
    .replace(/[-_]+$/, '');
  if (!taken) return base;
  let id = base || 'server';
  for (let n = 2; taken.has(id); n++) id = `${base || 'server'}-${n}`;
  return id;
}
