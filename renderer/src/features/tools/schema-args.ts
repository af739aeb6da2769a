// A schema form's draft read back as the tool's arguments, with what is wrong with it; and the raw-JSON view's text. Pure.
import { initialDraft, type Draft } from './schema-drafts';
import { isRecord, type FormNode } from './schema-nodes';

export interface FieldError {
  /** Index path of the field in the draft (field index or item index per level), joined by '.'; '' is the root. */
  at: string;
  /** Where it is, for people: `filters.tags[2]`. */
  label: string;
  message: string;
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
