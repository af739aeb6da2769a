// Turns a tool's parameters JSON Schema into a form description, and the form's drafts into arguments. Pure: no React, no DOM.
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

/** What the user has typed or picked, shaped like the node it belongs to. */
export type Draft =
  | { kind: 'text'; text: string }
  | { kind: 'bool'; value: boolean | null }
  | { kind: 'choice'; index: number }
  | { kind: 'list'; items: readonly ListItem[] }
  | { kind: 'fields'; fields: readonly Draft[] };

/** `id` keeps a React key stable while items are added and removed. */
export interface ListItem {
  id: number;
  draft: Draft;
}

export interface FieldError {
  /** Index path of the field in the draft (field index or item index per level), joined by '.'; '' is the root. */
  at: string;
  /** Where it is, for people: `filters.tags[2]`. */
  label: string;
  message: string;
}

// ---------- schema → nodes ----------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOwn(value: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

function own(value: Record<string, unknown>, key: string): unknown {
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

// ---------- values → drafts ----------

/** Same JSON value (for matching an enum option). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

export function enumIndex(options: readonly unknown[], value: unknown): number {
  return value === undefined ? -1 : options.findIndex((option) => sameJson(option, value));
}

/**
 * The draft that shows `value`. With `useDefaults`, a missing value takes the schema's default (at
 * every level), which is how a new form starts; converting the user's own JSON back passes false.
 */
export function draftFrom(node: FormNode, value: unknown, useDefaults: boolean): Draft {
  const v = value === undefined && useDefaults && node.hasDefault ? node.defaultValue : value;
  switch (node.kind) {
    case 'string':
      return { kind: 'text', text: typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '' };
    case 'number':
    case 'integer':
      return { kind: 'text', text: typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' ? v : '' };
    case 'boolean':
      return { kind: 'bool', value: typeof v === 'boolean' ? v : null };
    case 'enum':
      return { kind: 'choice', index: enumIndex(node.options, v) };
    case 'array': {
      const values: unknown[] = Array.isArray(v) ? v : useDefaults ? Array.from({ length: node.minItems }, () => undefined) : [];
      return { kind: 'list', items: values.map((item, id) => ({ id, draft: draftFrom(node.items, item, useDefaults) })) };
    }
    case 'object':
      return {
        kind: 'fields',
        fields: node.fields.map((field) => draftFrom(field.node, isRecord(v) ? own(v, field.name) : undefined, useDefaults)),
      };
    case 'json':
      return { kind: 'text', text: v === undefined ? '' : JSON.stringify(v, null, 2) };
  }
}

/** A fresh form: every default filled in. */
export function initialDraft(node: FormNode): Draft {
  return draftFrom(node, undefined, true);
}

// ---------- drafts → arguments ----------

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function childLabel(parent: string, name: string): string {
  const part = IDENTIFIER.test(name) ? name : JSON.stringify(name);
  if (!parent) return part;
  return IDENTIFIER.test(name) ? `${parent}.${name}` : `${parent}[${part}]`;
}

function childAt(parent: string, index: number): string {
  return parent ? `${parent}.${index}` : String(index);
}

/** undefined means "leave it out". */
function collect(node: FormNode, draft: Draft, required: boolean, at: string, label: string, errors: FieldError[]): unknown {
  const fail = (message: string): undefined => {
    errors.push({ at, label: label || 'arguments', message });
    return undefined;
  };
  switch (node.kind) {
    case 'string': {
      const value = draft.kind === 'text' ? draft.text : '';
      if (value === '') return required ? fail('Required.') : undefined;
      return value;
    }
    case 'number':
    case 'integer': {
      const raw = (draft.kind === 'text' ? draft.text : '').trim();
      if (raw === '') return required ? fail('Required.') : undefined;
      const n = Number(raw);
      if (!Number.isFinite(n)) return fail('Enter a number.');
      if (node.kind === 'integer' && !Number.isInteger(n)) return fail('Enter a whole number.');
      // The range the field states is the range it sends (the host would refuse the rest anyway).
      if (node.minimum !== null && n < node.minimum) return fail(`At least ${node.minimum}.`);
      if (node.maximum !== null && n > node.maximum) return fail(`At most ${node.maximum}.`);
      return n;
    }
    case 'boolean': {
      const value = draft.kind === 'bool' ? draft.value : null;
      // An unchecked box on a required flag means false; on an optional one, not set until touched.
      return value ?? (required ? false : undefined);
    }
    case 'enum': {
      const index = draft.kind === 'choice' ? draft.index : -1;
      if (index < 0 || index >= node.options.length) return required ? fail('Choose a value.') : undefined;
      return node.options[index];
    }
    case 'array': {
      const items = draft.kind === 'list' ? draft.items : [];
      if (items.length === 0 && !required) return undefined;
      return items.map((item, index) => {
        const value = collect(node.items, item.draft, true, childAt(at, index), `${label || 'arguments'}[${index}]`, errors);
        return value === undefined ? null : value;
      });
    }
    case 'object': {
      const drafts = draft.kind === 'fields' ? draft.fields : [];
      const out: Record<string, unknown> = {};
      node.fields.forEach((field, index) => {
        const child = drafts[index] ?? initialDraft(field.node);
        const value = collect(field.node, child, field.required, childAt(at, index), childLabel(label, field.name), errors);
        if (value !== undefined) setOwn(out, field.name, value);
      });
      return Object.keys(out).length === 0 && !required ? undefined : out;
    }
    case 'json': {
      const raw = draft.kind === 'text' ? draft.text.trim() : '';
      if (raw === '') return required ? fail('Required.') : undefined;
      try {
        return JSON.parse(raw) as unknown;
      } catch (err) {
        return fail(`Not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
}

/**
 * The arguments the form describes, and what is wrong with it. Fields with errors are left out of
 * `args`, so `args` is still useful as a starting point for the raw-JSON view.
 */
export function readForm(root: FormNode, draft: Draft): { args: Record<string, unknown>; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const value = collect(root, draft, true, '', '', errors);
  return { args: isRecord(value) ? value : {}, errors };
}

/** Parses the raw-JSON view: it must be one JSON object. */
export function parseArgsJson(source: string): { ok: true; args: Record<string, unknown> } | { ok: false; message: string } {
  if (source.trim() === '') return { ok: true, args: {} };
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (err) {
    return { ok: false, message: `Not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!isRecord(value)) return { ok: false, message: 'The arguments must be one JSON object, like {"query": "muses"}.' };
  return { ok: true, args: value };
}

export function formatArgs(args: Record<string, unknown>): string {
  return JSON.stringify(args, null, 2);
}

// ---------- editing drafts ----------

/** Returns `draft` with the part at `path` (field or item indexes, one per level) replaced by `update(part)`. */
export function updateDraft(draft: Draft, path: readonly number[], update: (part: Draft) => Draft): Draft {
  if (path.length === 0) return update(draft);
  const [head, ...rest] = path as [number, ...number[]];
  if (draft.kind === 'fields') {
    if (head < 0 || head >= draft.fields.length) return draft;
    return { kind: 'fields', fields: draft.fields.map((field, i) => (i === head ? updateDraft(field, rest, update) : field)) };
  }
  if (draft.kind === 'list') {
    if (head < 0 || head >= draft.items.length) return draft;
    return { kind: 'list', items: draft.items.map((item, i) => (i === head ? { id: item.id, draft: updateDraft(item.draft, rest, update) } : item)) };
  }
  return draft;
}

export function addListItem(node: ArrayNode, draft: Draft): Draft {
  const items = draft.kind === 'list' ? draft.items : [];
  if (node.maxItems !== null && items.length >= node.maxItems) return draft;
  const id = items.reduce((max, item) => Math.max(max, item.id), -1) + 1;
  return { kind: 'list', items: [...items, { id, draft: initialDraft(node.items) }] };
}

export function removeListItem(draft: Draft, index: number): Draft {
  if (draft.kind !== 'list') return draft;
  return { kind: 'list', items: draft.items.filter((_, i) => i !== index) };
}

/** How an enum option reads in a select: strings as they are, anything else as JSON. */
export function optionLabel(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The key of a field's errors in FieldError.at. */
export function pathKey(path: readonly number[]): string {
  return path.join('.');
}
