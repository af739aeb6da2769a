// Copies a ToolInfo into the tool shapes providers expect: OpenAI function (plain or strict), Anthropic, MCP.
//
// The provider-facing name is always the alias (`[A-Za-z0-9_-]{1,64}`): qualified names contain `:`,
// which OpenAI and MCP reject. Map a model's call back with ToolRegistry.resolve/resolveAlias.
import type { JsonSchema } from '../../../shared/types/spindle';
import type { ToolInfo } from '../../../shared/types/tools';

export interface OpenAIFunctionTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema; strict?: boolean };
}

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  annotations: { readOnlyHint: boolean };
}

/**
 * Chat Completions function tool. `strict: true` rewrites the schema as OpenAI structured outputs
 * demand: every object closed (`additionalProperties: false`), every property listed in `required`,
 * and originally optional properties made nullable. The model then sends `null` for "omitted";
 * pass its arguments through fromStrictArguments() before invoking, or the original schema refuses
 * them. OpenAI also rejects some keywords in strict mode; if it refuses a tool, export it non-strict.
 */
export function toOpenAITool(info: ToolInfo, options: { strict?: boolean } = {}): OpenAIFunctionTool {
  if (!options.strict) {
    return { type: 'function', function: { name: info.alias, description: info.description, parameters: clone(info.parameters) } };
  }
  return {
    type: 'function',
    function: {
      name: info.alias,
      description: info.description,
      parameters: strictify(clone(info.parameters)) as JsonSchema,
      strict: true,
    },
  };
}

export function toAnthropicTool(info: ToolInfo): AnthropicTool {
  return { name: info.alias, description: info.description, input_schema: clone(info.parameters) };
}

/** readOnlyHint follows the registered mode; the host, not the hint, decides approval (MCP § Annotations). */
export function toMcpTool(info: ToolInfo): McpTool {
  return {
    name: info.alias,
    title: info.displayName,
    description: info.description,
    inputSchema: clone(info.parameters),
    annotations: { readOnlyHint: info.mode === 'read' },
  };
}

export type SpecFormat = 'openai' | 'openai-strict' | 'anthropic' | 'mcp';

/** One entry point for the "copy as" menu and tools.exportSpec. */
export function exportToolSpec(info: ToolInfo, format: SpecFormat): OpenAIFunctionTool | AnthropicTool | McpTool {
  switch (format) {
    case 'openai':
      return toOpenAITool(info);
    case 'openai-strict':
      return toOpenAITool(info, { strict: true });
    case 'anthropic':
      return toAnthropicTool(info);
    case 'mcp':
      return toMcpTool(info);
  }
}

/**
 * Undoes the strict-mode nulls: drops `null` members the original schema made optional and does not
 * itself allow to be null, at every object level the schema describes through `properties`/`items`.
 */
export function fromStrictArguments(parameters: JsonSchema, args: Record<string, unknown>): Record<string, unknown> {
  return dropNulls(parameters, args) as Record<string, unknown>;
}

const SCHEMA_MAPS = ['properties', 'definitions', '$defs', 'patternProperties'] as const;
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SCHEMA_SINGLE = ['items', 'not', 'additionalItems', 'contains', 'if', 'then', 'else'] as const;

function strictify(node: unknown): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const schema = node as Record<string, unknown>;
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (isRecord(map)) for (const name of Object.keys(map)) setOwn(map, name, strictify(map[name]));
  }
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) schema[key] = list.map(strictify);
  }
  for (const key of SCHEMA_SINGLE) {
    if (key in schema) setOwn(schema, key, strictify(schema[key]));
  }
  const isObject = schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object')) || isRecord(schema.properties);
  if (isObject) {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
    for (const name of Object.keys(properties)) {
      if (!required.has(name)) setOwn(properties, name, nullable(properties[name]));
    }
    schema.properties = properties;
    schema.required = Object.keys(properties);
    // Strict mode has no open maps; a map-shaped parameter becomes an empty object. Prefer non-strict for such tools.
    schema.additionalProperties = false;
  }
  return schema;
}

function nullable(node: unknown): unknown {
  if (!isRecord(node)) return { anyOf: [node, { type: 'null' }] };
  const type = node.type;
  if (typeof type === 'string' || Array.isArray(type)) {
    const types = Array.isArray(type) ? [...type] : [type];
    if (!types.includes('null')) types.push('null');
    node.type = types.length === 1 ? types[0] : types;
    if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...node.enum, null];
    return node;
  }
  if (Array.isArray(node.anyOf)) {
    if (!node.anyOf.some((s) => isRecord(s) && s.type === 'null')) node.anyOf = [...node.anyOf, { type: 'null' }];
    return node;
  }
  return { anyOf: [node, { type: 'null' }] };
}

function dropNulls(schema: unknown, value: unknown): unknown {
  if (!isRecord(schema)) return value;
  if (Array.isArray(value)) return isRecord(schema.items) ? value.map((item) => dropNulls(schema.items, item)) : value;
  if (!isRecord(value) || !isRecord(schema.properties)) return value;
  const properties = schema.properties;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const propSchema = Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : undefined;
    if (value[key] === null && propSchema !== undefined && !required.has(key) && !allowsNull(propSchema)) continue;
    setOwn(out, key, propSchema === undefined ? value[key] : dropNulls(propSchema, value[key]));
  }
  return out;
}

function allowsNull(schema: unknown): boolean {
  if (!isRecord(schema)) return schema === true;
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Array.isArray(schema.anyOf)) return schema.anyOf.some(allowsNull);
  return false;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Defines rather than assigns, so a member named `__proto__` stays data and never swaps a prototype. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** JSON round trip: the registry's schemas are frozen, and JSON.parse keeps `__proto__` as data. */
function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
