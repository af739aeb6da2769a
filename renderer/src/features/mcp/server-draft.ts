// The add/edit form's model: a draft of one server config, its checks (the host's, run as the user types), the add
// input and update patch built from it, and which field a host error's `path` names. Plain functions, no React.
import { MCP_SERVER_ID_PATTERN } from '../../../../shared/contract/mcp';
import type { HostError } from '../../../../shared/errors';
import type { McpServerConfig } from '../../../../shared/types/mcp';
import type { McpAddInput, McpPatch } from '../../stores/mcp-commands';

export type { KeyValueRow as DraftRow } from '../../components/KeyValueRows';
import type { KeyValueRow as DraftRow } from '../../components/KeyValueRows';

export interface DraftArg {
  rowId: number;
  value: string;
}

export interface ServerDraft {
  id: string;
  name: string;
  transport: 'stdio' | 'http';
  command: string;
  /** One entry per argument, passed to the program as is: never split, joined or given to a shell. */
  args: DraftArg[];
  env: DraftRow[];
  cwd: string;
  url: string;
  headers: DraftRow[];
  trusted: boolean;
  enabled: boolean;
}

/** `id`, `name`, `command`, `args` (the list), `args.<index>` (one argument), `env`, `cwd`, `url`, `headers`, `transport`. */
export type FieldKey = string;
export type FieldErrors = Record<FieldKey, string>;

const ID = new RegExp(MCP_SERVER_ID_PATTERN);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,255}$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

let rowSeq = 0;
export function nextRowId(): number {
  return ++rowSeq;
}

function rows(record: Record<string, string> | undefined): DraftRow[] {
  return Object.entries(record ?? {}).map(([key, value]) => ({ rowId: nextRowId(), key, value }));
}

export function draftFromConfig(config?: McpServerConfig): ServerDraft {
  return {
    id: config?.id ?? '',
    name: config?.name ?? '',
    transport: config?.transport ?? 'stdio',
    command: config?.command ?? '',
    args: (config?.args ?? []).map((value) => ({ rowId: nextRowId(), value })),
    env: rows(config?.env),
    cwd: config?.cwd ?? '',
    url: config?.url ?? '',
    headers: rows(config?.headers),
    trusted: config?.trusted ?? false,
    enabled: config?.enabled ?? true,
  };
}

/** An id from a name, the way the host derives one on import: lowercase, other runs become "-". */
export function idFromName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+/, '')
    .slice(0, 60)
    .replace(/[-_]+$/, '');
}

function filled(list: readonly DraftRow[]): DraftRow[] {
  return list.filter((row) => row.key.trim() !== '' || row.value !== '');
}

function checkRows(list: readonly DraftRow[], pattern: RegExp, what: string, caseInsensitive: boolean): string | null {
  const seen = new Set<string>();
  for (const row of filled(list)) {
    const key = row.key.trim();
    if (!key) return `Every ${what} needs a name.`;
    if (!pattern.test(key)) return what === 'variable' ? `${key} is not a variable name: use letters, digits and _, not starting with a digit.` : `${key} is not a valid header name.`;
    const folded = caseInsensitive ? key.toLowerCase() : key;
    if (seen.has(folded)) return `${key} is listed twice.`;
    seen.add(folded);
    if (row.value.includes('\0')) return `The value of ${key} contains a NUL character.`;
    if (what === 'header' && /[\r\n]/.test(row.value)) return `The value of ${key} must not contain line breaks.`;
  }
  return null;
}

/** The host's own checks, so most mistakes show as they are made; the host checks again and has the last word. */
export function checkDraft(draft: ServerDraft, adding: boolean): FieldErrors {
  const errors: FieldErrors = {};
  if (adding && !ID.test(draft.id.trim())) {
    errors.id = draft.id.trim() === '' ? 'Give the server an id.' : 'Use 1–60 lowercase letters, digits, "-" or "_", starting with a letter or digit.';
  }
  if (draft.name.trim().length > 100) errors.name = 'Keep the name to 100 characters.';
  if (!adding && draft.name.trim() === '') errors.name = 'Give the server a name.';
  if (draft.transport === 'stdio') {
    const command = draft.command.trim();
    if (!command) errors.command = 'Enter the program to run, e.g. npx, uvx or /usr/local/bin/my-server.';
    else if (CONTROL.test(command)) errors.command = 'The program path must not contain control characters or line breaks.';
    if (draft.args.length > 256) errors.args = 'At most 256 arguments.';
    draft.args.forEach((arg, index) => {
      if (arg.value === '') errors[`args.${index}`] = `Argument ${index + 1} is empty: type its value or remove it.`;
      else if (arg.value.includes('\0')) errors[`args.${index}`] = `Argument ${index + 1} contains a NUL character.`;
    });
    const env = checkRows(draft.env, ENV_NAME, 'variable', false);
    if (env) errors.env = env;
    if (CONTROL.test(draft.cwd)) errors.cwd = 'The folder path must not contain control characters.';
  } else {
    const url = draft.url.trim();
    if (!url) errors.url = 'Enter the server’s URL, e.g. http://127.0.0.1:3000/mcp.';
    else {
      let parsed: URL | null = null;
      try {
        parsed = new URL(url);
      } catch {
        errors.url = 'This is not a valid URL.';
      }
      if (parsed && parsed.protocol !== 'http:' && parsed.protocol !== 'https:') errors.url = 'Use an http:// or https:// URL.';
      else if (parsed && (parsed.username || parsed.password)) errors.url = 'Put credentials in a header, not in the URL.';
    }
    const headers = checkRows(draft.headers, HEADER_NAME, 'header', true);
    if (headers) errors.headers = headers;
  }
  return errors;
}

function record(list: readonly DraftRow[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const row of filled(list)) Object.defineProperty(out, row.key.trim(), { value: row.value, writable: true, enumerable: true, configurable: true });
  return out;
}

export function toAddInput(draft: ServerDraft): McpAddInput {
  const base = { id: draft.id.trim(), ...(draft.name.trim() ? { name: draft.name.trim() } : {}), trusted: draft.trusted, enabled: draft.enabled };
  if (draft.transport === 'http') {
    const headers = record(draft.headers);
    return { ...base, transport: 'http', url: draft.url.trim(), ...(Object.keys(headers).length ? { headers } : {}) };
  }
  const env = record(draft.env);
  return {
    ...base,
    transport: 'stdio',
    command: draft.command.trim(),
    ...(draft.args.length ? { args: draft.args.map((a) => a.value) } : {}),
    ...(Object.keys(env).length ? { env } : {}),
    ...(draft.cwd.trim() ? { cwd: draft.cwd.trim() } : {}),
  };
}

/** The whole config as a patch: fields of the other transport and emptied optional fields are removed (null). */
export function toPatch(draft: ServerDraft): McpPatch {
  const common = { name: draft.name.trim(), trusted: draft.trusted, enabled: draft.enabled };
  if (draft.transport === 'http') {
    const headers = record(draft.headers);
    return { ...common, transport: 'http', url: draft.url.trim(), headers: Object.keys(headers).length ? headers : null, command: null, args: null, env: null, cwd: null };
  }
  const env = record(draft.env);
  return {
    ...common,
    transport: 'stdio',
    command: draft.command.trim(),
    args: draft.args.length ? draft.args.map((a) => a.value) : null,
    env: Object.keys(env).length ? env : null,
    cwd: draft.cwd.trim() ? draft.cwd.trim() : null,
    url: null,
    headers: null,
  };
}

/** Which form field a host error names (`/command`, `/patch/args/2`, `/env/API_KEY`…), or null for the whole form. */
export function fieldOfPath(path: string | undefined): FieldKey | null {
  const parts = (path ?? '').replace(/^\/patch(?=\/|$)/, '').split('/').filter(Boolean);
  const [head, index] = parts;
  if (!head) return null;
  if (head === 'args') return index !== undefined && /^\d+$/.test(index) ? `args.${index}` : 'args';
  if (['id', 'name', 'transport', 'command', 'env', 'cwd', 'url', 'headers'].includes(head)) return head;
  return null;
}

/** The host's message without the `/path: ` prefix it starts with (the field already says where), plus its hint. */
export function fieldMessage(error: HostError): string {
  const message = error.path && error.message.startsWith(`${error.path}: `) ? error.message.slice(error.path.length + 2) : error.message;
  const capital = message.charAt(0).toUpperCase() + message.slice(1);
  const sentence = /[.!?)]$/.test(capital) ? capital : `${capital}.`;
  return error.hint ? `${sentence} ${error.hint}` : sentence;
}
