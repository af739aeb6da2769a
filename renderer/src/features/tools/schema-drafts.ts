// What the person has typed into a schema form (a draft shaped like the form), made from values and edited in place. Pure.
import { isRecord, own, type ArrayNode, type FormNode } from './schema-nodes';

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
