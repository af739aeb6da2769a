// The pure schema → form logic: which field each schema shape gets, defaults, and drafts back to arguments.
import { describe, expect, it } from 'vitest';
import {
  addListItem,
  draftFrom,
  initialDraft,
  MAX_FORM_DEPTH,
  parseArgsJson,
  readForm,
  removeListItem,
  schemaToForm,
  updateDraft,
  type ArrayNode,
  type Draft,
  type FormNode,
  type ObjectNode,
} from '../../renderer/src/features/tools/schema-form';

function objectNode(schema: unknown): ObjectNode {
  const node = schemaToForm(schema);
  if (node.kind !== 'object') throw new Error(`expected an object node, got ${node.kind}`);
  return node;
}

function field(node: ObjectNode, name: string): FormNode {
  const found = node.fields.find((f) => f.name === name);
  if (!found) throw new Error(`no field ${name}`);
  return found.node;
}

const text = (t: string): Draft => ({ kind: 'text', text: t });

describe('schemaToForm', () => {
  it('maps each JSON Schema type to its field kind, with required markers', () => {
    const root = objectNode({
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Search query', maxLength: 100 },
        note: { type: 'string', maxLength: 4000 },
        limit: { type: 'number', minimum: 1, maximum: 20 },
        times: { type: 'integer' },
        exact: { type: 'boolean' },
        comparison: { type: 'string', enum: ['at_least', 'at_most', 'exactly'] },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
        filter: { type: 'object', properties: { from: { type: 'string' } }, required: ['from'] },
      },
      required: ['query', 'comparison'],
    });
    expect(root.fields.map((f) => [f.name, f.node.kind, f.required])).toEqual([
      ['query', 'string', true],
      ['note', 'string', false],
      ['limit', 'number', false],
      ['times', 'integer', false],
      ['exact', 'boolean', false],
      ['comparison', 'enum', true],
      ['tags', 'array', false],
      ['filter', 'object', false],
    ]);
    expect(field(root, 'query')).toMatchObject({ description: 'Search query', maxLength: 100, multiline: false });
    expect(field(root, 'note')).toMatchObject({ multiline: true });
    expect(field(root, 'limit')).toMatchObject({ minimum: 1, maximum: 20 });
    expect(field(root, 'comparison')).toMatchObject({ options: ['at_least', 'at_most', 'exactly'] });
    const tags = field(root, 'tags') as ArrayNode;
    expect(tags.items.kind).toBe('string');
    expect(tags.maxItems).toBe(3);
    const filter = field(root, 'filter') as ObjectNode;
    expect(filter.fields).toEqual([expect.objectContaining({ name: 'from', required: true })]);
  });

  it('treats a nullable type or anyOf-with-null as the plain type', () => {
    const root = objectNode({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }], description: 'how many' },
        c: { const: 'fixed' },
      },
    });
    expect(field(root, 'a').kind).toBe('string');
    expect(field(root, 'b')).toMatchObject({ kind: 'integer', minimum: 0, description: 'how many' });
    expect(field(root, 'c')).toMatchObject({ kind: 'enum', options: ['fixed'] });
  });

  it('falls back to a JSON field for shapes a form cannot show, and says why', () => {
    const root = objectNode({
      type: 'object',
      properties: {
        ref: { $ref: '#/definitions/x' },
        either: { oneOf: [{ type: 'string' }, { type: 'number' }] },
        several: { type: ['string', 'number'] },
        tuple: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] },
        map: { type: 'object', additionalProperties: { type: 'string' } },
        anything: {},
      },
    });
    for (const name of ['ref', 'either', 'several', 'tuple', 'map', 'anything']) {
      const node = field(root, name);
      expect(node.kind, name).toBe('json');
      expect(node.kind === 'json' && node.reason.length > 0).toBe(true);
    }
  });

  it('stops nesting at a fixed depth', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < MAX_FORM_DEPTH + 3; i++) schema = { type: 'object', properties: { inner: schema } };
    let node: FormNode = schemaToForm(schema);
    let depth = 0;
    while (node.kind === 'object') {
      node = node.fields[0]!.node;
      depth++;
    }
    expect(node.kind).toBe('json');
    expect(depth).toBeLessThanOrEqual(MAX_FORM_DEPTH + 1);
  });

  it('keeps a property named __proto__ as an ordinary field and argument', () => {
    const root = objectNode(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}'));
    expect(root.fields.map((f) => f.name)).toEqual(['__proto__']);
    const { args, errors } = readForm(root, { kind: 'fields', fields: [text('x')] });
    expect(errors).toEqual([]);
    expect(Object.prototype.hasOwnProperty.call(args, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(JSON.stringify(args)).toBe('{"__proto__":"x"}');
  });
});

describe('drafts', () => {
  const root = objectNode({
    type: 'object',
    properties: {
      query: { type: 'string' },
      limit: { type: 'number', default: 5 },
      comparison: { type: 'string', enum: ['at_least', 'at_most'], default: 'at_most' },
      loud: { type: 'boolean', default: true },
      quiet: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' }, default: ['a', 'b'] },
      filter: { type: 'object', properties: { from: { type: 'integer', default: 1 }, to: { type: 'integer' } } },
    },
    required: ['query'],
  });

  it('prefills defaults at every level', () => {
    expect(initialDraft(root)).toEqual({
      kind: 'fields',
      fields: [
        text(''),
        text('5'),
        { kind: 'choice', index: 1 },
        { kind: 'bool', value: true },
        { kind: 'bool', value: null },
        { kind: 'list', items: [{ id: 0, draft: text('a') }, { id: 1, draft: text('b') }] },
        { kind: 'fields', fields: [text('1'), text('')] },
      ],
    });
  });

  it('reads a filled form as typed arguments and leaves unset optional fields out', () => {
    let draft = initialDraft(root);
    draft = updateDraft(draft, [0], () => text('muses'));
    draft = updateDraft(draft, [6, 1], () => text('9'));
    expect(readForm(root, draft)).toEqual({
      args: { query: 'muses', limit: 5, comparison: 'at_most', loud: true, tags: ['a', 'b'], filter: { from: 1, to: 9 } },
      errors: [],
    });
  });

  it('reports missing required fields and bad numbers with where they are', () => {
    let draft = initialDraft(root);
    draft = updateDraft(draft, [1], () => text('five'));
    draft = updateDraft(draft, [6, 0], () => text('1.5'));
    const { errors, args } = readForm(root, draft);
    expect(errors).toEqual([
      { at: '0', label: 'query', message: 'Required.' },
      { at: '1', label: 'limit', message: 'Enter a number.' },
      { at: '6.0', label: 'filter.from', message: 'Enter a whole number.' },
    ]);
    // Fields with errors are left out; the rest is still there for the raw-JSON view.
    expect(args).toEqual({ comparison: 'at_most', loud: true, tags: ['a', 'b'] });
  });

  it('a number outside the range its field states ("from 1 to 20") is not sent: the field says why', () => {
    const node = objectNode({ type: 'object', properties: { times: { type: 'integer', minimum: 1, maximum: 20, default: 1 } } });
    for (const [typed, message] of [['50', 'At most 20.'], ['0', 'At least 1.']] as const) {
      const { errors, args } = readForm(node, updateDraft(initialDraft(node), [0], () => text(typed)));
      expect(errors).toEqual([{ at: '0', label: 'times', message }]);
      expect(args).toEqual({});
    }
    expect(readForm(node, updateDraft(initialDraft(node), [0], () => text('20')))).toEqual({ args: { times: 20 }, errors: [] });
  });

  it('a required unchecked boolean is false; an optional one is sent only once touched', () => {
    const node = objectNode({ type: 'object', properties: { must: { type: 'boolean' }, may: { type: 'boolean' } }, required: ['must'] });
    const draft = initialDraft(node);
    expect(readForm(node, draft).args).toEqual({ must: false });
    expect(readForm(node, updateDraft(draft, [1], () => ({ kind: 'bool', value: false }))).args).toEqual({ must: false, may: false });
  });

  it('keeps enum values of any JSON type', () => {
    const node = objectNode({ type: 'object', properties: { level: { enum: [1, 'two', null, { x: 3 }] } } });
    const draft = updateDraft(initialDraft(node), [0], () => ({ kind: 'choice', index: 3 }));
    expect(readForm(node, draft).args).toEqual({ level: { x: 3 } });
    expect(readForm(node, updateDraft(draft, [0], () => ({ kind: 'choice', index: 2 }))).args).toEqual({ level: null });
    expect(readForm(node, updateDraft(draft, [0], () => ({ kind: 'choice', index: -1 }))).args).toEqual({});
  });

  it('adds and removes array items (bounded by maxItems) with stable ids', () => {
    const node = objectNode({ type: 'object', properties: { xs: { type: 'array', items: { type: 'integer' }, maxItems: 2 } } });
    const xs = node.fields[0]!.node as ArrayNode;
    let list = draftFrom(xs, undefined, true);
    expect(list).toEqual({ kind: 'list', items: [] });
    list = addListItem(xs, list);
    list = addListItem(xs, list);
    expect(addListItem(xs, list)).toBe(list);
    list = updateDraft(list, [0], () => text('7'));
    list = updateDraft(list, [1], () => text('8'));
    const removed = removeListItem(list, 0);
    expect(removed).toEqual({ kind: 'list', items: [{ id: 1, draft: text('8') }] });
    expect(readForm(node, { kind: 'fields', fields: [removed] }).args).toEqual({ xs: [8] });
    // A new item never reuses a live id.
    const grown = addListItem(xs, removed);
    expect(grown.kind === 'list' && grown.items.map((i) => i.id)).toEqual([1, 2]);
    // An empty item is an error, not a silent null.
    const withEmpty = addListItem(xs, removed);
    expect(readForm(node, { kind: 'fields', fields: [withEmpty] }).errors).toEqual([{ at: '0.1', label: 'xs[1]', message: 'Required.' }]);
  });

  it('handles arrays of objects', () => {
    const node = objectNode({
      type: 'object',
      properties: { people: { type: 'array', minItems: 1, items: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } }, required: ['name'] } } },
    });
    const draft = initialDraft(node);
    expect(draft).toEqual({ kind: 'fields', fields: [{ kind: 'list', items: [{ id: 0, draft: { kind: 'fields', fields: [text(''), text('')] } }] }] });
    const filled = updateDraft(updateDraft(draft, [0, 0, 0], () => text('Ada')), [0, 0, 1], () => text('36'));
    expect(readForm(node, filled).args).toEqual({ people: [{ name: 'Ada', age: 36 }] });
    expect(readForm(node, draft).errors).toEqual([{ at: '0.0.0', label: 'people[0].name', message: 'Required.' }]);
  });

  it('parses JSON fields and reports invalid JSON', () => {
    const node = objectNode({ type: 'object', properties: { meta: { type: 'object', additionalProperties: true } } });
    expect(readForm(node, { kind: 'fields', fields: [text('{"a": [1, 2]}')] }).args).toEqual({ meta: { a: [1, 2] } });
    const bad = readForm(node, { kind: 'fields', fields: [text('{a:')] });
    expect(bad.errors).toHaveLength(1);
    expect(bad.errors[0]!.message).toMatch(/^Not valid JSON/);
  });

  it('round-trips arguments through a draft (raw JSON back to the form)', () => {
    const args = { query: 'odin', limit: 3, comparison: 'at_least', loud: false, tags: ['x'], filter: { from: 2 } };
    const draft = draftFrom(root, args, false);
    expect(readForm(root, draft).args).toEqual(args);
    // Without defaults, what the JSON left out stays out.
    expect(readForm(root, draftFrom(root, { query: 'odin' }, false)).args).toEqual({ query: 'odin' });
  });
});

describe('parseArgsJson', () => {
  it('accepts one JSON object and explains anything else', () => {
    expect(parseArgsJson('{"query": "muses"}')).toEqual({ ok: true, args: { query: 'muses' } });
    expect(parseArgsJson('   ')).toEqual({ ok: true, args: {} });
    const invalid = parseArgsJson('{"query": ');
    expect(invalid.ok).toBe(false);
    expect(!invalid.ok && invalid.message).toMatch(/^Not valid JSON/);
    expect(parseArgsJson('[1, 2]')).toEqual({ ok: false, message: expect.stringContaining('one JSON object') });
    expect(parseArgsJson('"muses"').ok).toBe(false);
  });
});
