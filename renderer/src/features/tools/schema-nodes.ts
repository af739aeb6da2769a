// A tool's parameters JSON Schema described as a form: which field each schema shape gets. Pure: no React, no DOM.
//
// The form covers the common shapes (strings, enums, numbers, booleans, arrays, nested objects);
// anything else ($ref, several types, tuples, free-form maps) becomes a JSON field, and the whole
// form has a raw-JSON fallback. The host validates the arguments again against the real schema.

/** Deeper nesting than this is edited as JSON: a form that deep is no help, and it bounds recursion. */
export const MAX_FORM_DEPTH = 8;
/** More properties than this on one object are edited as JSON. */
export const MAX_FORM_FIELDS = 100;
/** Strings allowed to be longer than this get a multi-line box. */
const MULTILINE_OVER = 200;

interface NodeInfo {
  title: string | null;
  description: string | null;
  hasDefault: boolean;
  defaultValue: unknown;
}

export interface StringNode extends NodeInfo {
  kind: 'string';
  multiline: boolean;
  minLength: number | null;
  maxLength: number | null;
  format: string | null;
}

export interface NumberNode extends NodeInfo {
  kind: 'number' | 'integer';
  minimum: number | null;
  maximum: number | null;
}

export interface BooleanNode extends NodeInfo {
  kind: 'boolean';
}

export interface EnumNode extends NodeInfo {
  kind: 'enum';
  options: readonly unknown[];
}

export interface ArrayNode extends NodeInfo {
  kind: 'array';
  items: FormNode;
  minItems: number;
  maxItems: number | null;
}

export interface FieldSpec {
  name: string;
  required: boolean;
  node: FormNode;
}

export interface ObjectNode extends NodeInfo {
  kind: 'object';
  fields: readonly FieldSpec[];
}

/** Edited as JSON text; `reason` says why the form could not do better. */
export interface JsonNode extends NodeInfo {
  kind: 'json';
  reason: string;
}

export type FormNode = StringNode | NumberNode | BooleanNode | EnumNode | ArrayNode | ObjectNode | JsonNode;

// ---------- schema → nodes ----------

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOwn(value: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

export function own(value: Record<string, unknown>, key: string): unknown {
  return hasOwn(value, key) ? value[key] : undefined;
}

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function info(schema: Record<string, unknown>): NodeInfo {
  return {
    title: text(own(schema, 'title')),
    description: text(own(schema, 'description')),
    hasDefault: hasOwn(schema, 'default'),
    defaultValue: own(schema, 'default'),
  };
}

function json(schema: Record<string, unknown>, reason: string): JsonNode {
  return { ...info(schema), kind: 'json', reason };
}

function isNullSchema(value: unknown): boolean {
  return isRecord(value) && value.type === 'null' && Object.keys(value).every((k) => k === 'type' || k === 'description' || k === 'title');
}

/** Describes `schema` as a form. Never throws: shapes it cannot render become JSON fields. */
export function schemaToForm(schema: unknown, depth = 0): FormNode {
  if (!isRecord(schema)) {
    return { title: null, description: null, hasDefault: false, defaultValue: undefined, kind: 'json', reason: 'Any JSON value.' };
  }
  if (depth > MAX_FORM_DEPTH) return json(schema, 'Nested too deeply for a form; enter it as JSON.');
  if (hasOwn(schema, '$ref')) return json(schema, 'Defined by a reference ($ref); enter it as JSON.');
  if (hasOwn(schema, 'const')) return { ...info(schema), kind: 'enum', options: [schema.const] };
  const enumValues = own(schema, 'enum');
  if (Array.isArray(enumValues) && enumValues.length > 0) return { ...info(schema), kind: 'enum', options: enumValues };

  // `anyOf: [X, {type: 'null'}]` (how nullable fields are often written) is just X here; leaving it empty sends nothing.
  for (const key of ['anyOf', 'oneOf'] as const) {
    const alternatives = own(schema, key);
    if (!Array.isArray(alternatives)) continue;
    const real = alternatives.filter((alt) => !isNullSchema(alt));
    if (real.length !== 1 || !isRecord(real[0])) return json(schema, 'Accepts one of several shapes; enter it as JSON.');
    const merged: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(schema)) if (k !== key) Object.defineProperty(merged, k, { value: v, enumerable: true, writable: true, configurable: true });
    for (const [k, v] of Object.entries(real[0])) if (!hasOwn(merged, k)) Object.defineProperty(merged, k, { value: v, enumerable: true, writable: true, configurable: true });
    return schemaToForm(merged, depth);
  }
  if (hasOwn(schema, 'allOf')) return json(schema, 'Combines several schemas (allOf); enter it as JSON.');

  const rawType = own(schema, 'type');
  let types = (Array.isArray(rawType) ? rawType : rawType === undefined ? [] : [rawType]).filter((t) => t !== 'null');
  if (types.length === 0 && rawType === undefined) {
    if (isRecord(own(schema, 'properties'))) types = ['object'];
    else if (hasOwn(schema, 'items')) types = ['array'];
  }
  if (types.length === 0) return json(schema, 'Any JSON value.');
  if (types.length > 1) return json(schema, `Accepts several types (${types.map(String).join(', ')}); enter it as JSON.`);

  switch (types[0]) {
    case 'string': {
      const maxLength = finite(own(schema, 'maxLength'));
      return {
        ...info(schema),
        kind: 'string',
        multiline: maxLength === null ? false : maxLength > MULTILINE_OVER,
        minLength: finite(own(schema, 'minLength')),
        maxLength,
        format: text(own(schema, 'format')),
      };
    }
    case 'number':
    case 'integer':
      return {
        ...info(schema),
        kind: types[0],
        minimum: finite(own(schema, 'minimum')),
        maximum: finite(own(schema, 'maximum')),
      };
    case 'boolean':
      return { ...info(schema), kind: 'boolean' };
    case 'array': {
      const items = own(schema, 'items');
      if (Array.isArray(items) || hasOwn(schema, 'prefixItems')) return json(schema, 'A fixed-length list (tuple); enter it as JSON.');
      return {
        ...info(schema),
        kind: 'array',
        items: schemaToForm(items === undefined ? {} : items, depth + 1),
        minItems: Math.max(0, Math.min(50, Math.floor(finite(own(schema, 'minItems')) ?? 0))),
        maxItems: finite(own(schema, 'maxItems')),
      };
    }
    case 'object': {
      const properties = own(schema, 'properties');
      const names = isRecord(properties) ? Object.keys(properties) : [];
      const extra = own(schema, 'additionalProperties');
      if (names.length === 0 && extra !== undefined && extra !== false) return json(schema, 'A free-form object; enter it as JSON.');
      if (names.length > MAX_FORM_FIELDS) return json(schema, `Too many properties (${names.length}) for a form; enter it as JSON.`);
      const requiredList = own(schema, 'required');
      const required = new Set(Array.isArray(requiredList) ? requiredList.filter((r): r is string => typeof r === 'string') : []);
      return {
        ...info(schema),
        kind: 'object',
        fields: names.map((name) => ({ name, required: required.has(name), node: schemaToForm(own(properties as Record<string, unknown>, name), depth + 1) })),
      };
    }
    default:
      return json(schema, `Type "${String(types[0])}" has no form field; enter it as JSON.`);
  }
}
