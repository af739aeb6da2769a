// One MCP tool (as listed by a server, untrusted) → the registry's registration DTO and the MCP panel's view.
//
// The registry validates names and schemas (MCP name rule, draft-07, no remote $ref, size and depth
// caps); this file only maps fields and the JSON Schema dialect, and decides the mode from trust.
import type { HostError, Result } from '../../../shared/errors';
import type { McpToolAnnotations, McpToolView } from '../../../shared/types/mcp';
import { MAX_UNIQUE_NONSCALAR_ITEMS, stripUnboundedUniqueItems } from '../registry/unique-items';

export interface MappedTool {
  dto: Record<string, unknown>;
  view: McpToolView;
}

/** What the registry allows for a description (UTF-8 bytes); longer ones are cut, with a note in the log. */
export const MAX_DESCRIPTION_BYTES = 4096;
const MAX_TITLE_CHARS = 128;
/** The view keeps the full description for approval screens, capped so a hostile server cannot bloat memory. */
const MAX_VIEW_DESCRIPTION_CHARS = 32 * 1024;

const DRAFT_2020 = /^https?:\/\/json-schema\.org\/draft\/(2020-12|2019-09)\/schema#?$/;
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
/** Keywords with no draft-07 meaning: a schema using them cannot be validated as draft-07 without changing what it accepts. */
const ONLY_2019_PLUS = ['prefixItems', '$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor', 'unevaluatedProperties', 'unevaluatedItems', 'dependentRequired', 'dependentSchemas', 'minContains', 'maxContains', '$vocabulary'];

/**
 * The registry compiles draft-07. MCP servers often declare 2020-12: when the schema uses none of
 * the newer keywords (the usual case: objects, properties, required, enums, `$defs` + local refs),
 * the declaration is dropped and the schema means the same under draft-07. Otherwise the tool is
 * skipped with a message naming the keyword. Only the root `$schema` is touched.
 */
export function toDraft07(schema: unknown, where: string): Result<unknown> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return { ok: true, value: schema };
  const declared = (schema as Record<string, unknown>).$schema;
  if (declared === undefined || (typeof declared === 'string' && DRAFT_07.test(declared))) return { ok: true, value: schema };
  if (typeof declared !== 'string' || !DRAFT_2020.test(declared)) {
    return { ok: false, error: invalid(`${where}/$schema declares an unsupported dialect`, `${where}/$schema`) };
  }
  const keyword = findKeyword(schema, ONLY_2019_PLUS);
  if (keyword) {
    return { ok: false, error: invalid(`${where} uses "${keyword}", a JSON Schema 2019-09/2020-12 keyword this host does not validate`, where) };
  }
  const { $schema: _dropped, ...rest } = schema as Record<string, unknown>;
  return { ok: true, value: rest };
}

function findKeyword(schema: unknown, keywords: readonly string[]): string | null {
  const stack: unknown[] = [schema];
  let visited = 0;
  while (stack.length > 0 && visited++ < 100_000) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    for (const [key, value] of Object.entries(node)) {
      if (keywords.includes(key)) return key;
      stack.push(value);
    }
  }
  return null;
}

function invalid(message: string, path: string): HostError {
  return { code: 'INVALID_SCHEMA', message, path };
}

/** Cuts at a code point boundary so the UTF-8 encoding fits in `maxBytes` (with room for the ellipsis). */
export function capUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let bytes = 3; // the ellipsis
  let end = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += ch.length;
  }
  return `${text.slice(0, end)}…`;
}

function pickAnnotations(raw: unknown): McpToolAnnotations | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const input = raw as Record<string, unknown>;
  const out: McpToolAnnotations = {};
  if (typeof input.title === 'string') out.title = input.title.slice(0, MAX_TITLE_CHARS);
  for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
    if (typeof input[hint] === 'boolean') out[hint] = input[hint];
  }
  return out;
}

/**
 * Maps a listed tool. Never throws on hostile input: a shape the host cannot use is a view with
 * `error` set and no DTO. The mode is 'read' only when the user trusts the server AND it says
 * `readOnlyHint: true`; untrusted hints never loosen handling (security.md §4, R16).
 */
export function mapMcpTool(raw: unknown, sourceId: string, trusted: boolean): { view: McpToolView; dto: Record<string, unknown> | null } {
  const tool = (typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  const name = typeof tool.name === 'string' ? tool.name.slice(0, 256) : '';
  const annotations = pickAnnotations(tool.annotations);
  const mode: 'read' | 'write' = trusted && annotations?.readOnlyHint === true ? 'read' : 'write';
  const description = typeof tool.description === 'string' ? tool.description : '';
  const titleSource = typeof tool.title === 'string' ? tool.title : annotations?.title;
  const title = typeof titleSource === 'string' && titleSource.trim() !== '' ? titleSource.trim().slice(0, MAX_TITLE_CHARS) : undefined;

  const view: McpToolView = {
    name,
    qualifiedName: `${sourceId}:${name}`,
    description: description.length > MAX_VIEW_DESCRIPTION_CHARS ? `${description.slice(0, MAX_VIEW_DESCRIPTION_CHARS)}…` : description,
    inputSchema: tool.inputSchema ?? null,
    mode,
    registered: false,
  };
  if (title !== undefined) view.title = title;
  if (tool.outputSchema !== undefined) view.outputSchema = tool.outputSchema;
  if (annotations) view.annotations = annotations;

  if (typeof tool.name !== 'string') {
    view.error = { code: 'INVALID_TOOL_NAME', message: 'The server listed a tool without a string name', path: '/name' };
    return { view, dto: null };
  }
  if (tool.description !== undefined && typeof tool.description !== 'string') {
    view.error = { code: 'INVALID_INPUT', message: 'description must be a string', path: '/description' };
    return { view, dto: null };
  }
  const parameters = toDraft07(tool.inputSchema, '/inputSchema');
  if (!parameters.ok) {
    view.error = parameters.error;
    return { view, dto: null };
  }
  // The registry refuses uniqueItems that would compare unbounded objects pairwise; a server's tool keeps working without it.
  const unique = stripUnboundedUniqueItems(parameters.value, '/inputSchema');
  if (unique.stripped.length) view.notes = unique.stripped.map((path) => `${path} was removed: uniqueItems over objects or arrays without maxItems ≤ ${MAX_UNIQUE_NONSCALAR_ITEMS} would compare every pair on the host.`);
  const dto: Record<string, unknown> = {
    name: tool.name,
    description: capUtf8(description, MAX_DESCRIPTION_BYTES),
    parameters: unique.schema,
    mode,
    // Tools from a server the user added are for models: members and the chat may use them.
    council_eligible: true,
    inline_available: true,
  };
  // A title the registry would refuse (control characters) is not worth losing the tool over.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (title !== undefined && !/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(title)) dto.display_name = title;
  if (tool.outputSchema !== undefined) {
    const output = toDraft07(tool.outputSchema, '/outputSchema');
    if (!output.ok) {
      view.error = output.error;
      return { view, dto: null };
    }
    dto.output_schema = output.value;
  }
  return { view, dto };
}

/** Registry paths are DTO fields; say them in MCP terms in the server's log and the view. */
export function mcpPath(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  return path.replace(/^\/parameters/, '/inputSchema').replace(/^\/output_schema/, '/outputSchema');
}

export function describeSkip(error: HostError): HostError {
  const path = mcpPath(error.path);
  return {
    ...error,
    message: error.message.replace(/^\/parameters/, '/inputSchema').replace(/^\/output_schema/, '/outputSchema'),
    ...(path !== undefined ? { path } : {}),
  };
}
