// The add/edit form's model: a draft of one server config, its checks (the host's, run as the user types), the add
// input and update patch built from it, and which field a host error's `path` names. Plain functions, no React.
import { checkServerConfig } from '../../../../shared/mcp-config';

export { idFromName } from '../../../../shared/mcp-config';
import type { HostError } from '../../../../shared/errors';
import type { McpServerConfig } from '../../../../shared/types/mcp';
import type { McpAddInput, McpPatch } from '../../stores/mcp/mcp-commands';

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

function filled(list: readonly DraftRow[]): DraftRow[] {
  return list.filter((row) => row.key.trim() !== '' || row.value !== '');
}

/** What only a list of rows can get wrong: a value without a name, a name twice (headers ignore case). */
function checkRows(list: readonly DraftRow[], what: 'variable' | 'header'): string | null {
  const seen = new Set<string>();
  for (const row of filled(list)) {
    const key = row.key.trim();
    if (!key) return `Every ${what} needs a name.`;
    const folded = what === 'header' ? key.toLowerCase() : key;
    if (seen.has(folded)) return `${key} is listed twice.`;
    seen.add(folded);
  }
  return null;
}

/**
 * The host's own rules (shared/mcp-config.ts), run as the person types, plus what only the form can get
 * wrong (an empty argument, a row without a name, a name twice). The host checks again and has the last word.
 */
export function checkDraft(draft: ServerDraft, adding: boolean): FieldErrors {
  const errors: FieldErrors = {};
  const input = adding ? toAddInput(draft) : { ...toAddInput(draft), name: draft.name.trim() };
  for (const problem of checkServerConfig(input).problems) {
    const field = fieldOfPath(problem.path);
    if (field && !(field in errors)) errors[field] = fieldMessage(problem);
  }
  if (draft.transport === 'stdio') {
    draft.args.forEach((arg, index) => {
      if (arg.value === '') errors[`args.${index}`] = `Argument ${index + 1} is empty: type its value or remove it.`;
    });
    const env = checkRows(draft.env, 'variable');
    if (env) errors.env = env;
  } else {
    const headers = checkRows(draft.headers, 'header');
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
