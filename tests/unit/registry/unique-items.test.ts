// uniqueItems cannot make validation quadratic on the host: refused at registration over unbounded non-scalar
// items, stripped (with a note) from MCP tools, and linear for scalar items (issue 18, item 2).
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { mapMcpTool } from '../../../electron/core/mcp/map-tool';
import { SchemaCompiler } from '../../../electron/core/registry/compile-schema';
import { MAX_UNIQUE_NONSCALAR_ITEMS } from '../../../electron/core/registry/unique-items';
import { EXT, RecordingExecutor, makeRegistry, searchDto } from './fakes';

const listOf = (items: unknown, extra: Record<string, unknown> = {}) => ({ type: 'object', properties: { list: { type: 'array', items, uniqueItems: true, ...extra } } });

describe('uniqueItems at registration', () => {
  it.each([
    ['objects', { type: 'object' }],
    ['arrays', { type: 'array' }],
    ['anything (no items schema)', undefined],
    ['a type list with object', { type: ['string', 'object'] }],
  ])('refuses uniqueItems over %s without a small maxItems, naming the path', (_label, items) => {
    const { registry } = makeRegistry();
    const result = registry.register(EXT, searchDto({ parameters: listOf(items) }), new RecordingExecutor());
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_SCHEMA', path: '/parameters/properties/list/uniqueItems', hint: expect.stringContaining('maxItems') } });
  });

  it('accepts it over objects with maxItems ≤ the cap, and over scalar items of any length', () => {
    const { registry } = makeRegistry();
    expect(registry.register(EXT, searchDto({ name: 'bounded', parameters: listOf({ type: 'object' }, { maxItems: MAX_UNIQUE_NONSCALAR_ITEMS }) }), new RecordingExecutor()).ok).toBe(true);
    expect(registry.register(EXT, searchDto({ name: 'scalars', parameters: listOf({ type: 'string' }) }), new RecordingExecutor()).ok).toBe(true);
    expect(registry.register(EXT, searchDto({ name: 'choices', parameters: listOf({ enum: ['a', 'b', 1] }) }), new RecordingExecutor()).ok).toBe(true);
  });

  it('still enforces uniqueness over 50,000 scalar items (one pass) and over bounded objects', async () => {
    const { registry } = makeRegistry();
    registry.register(EXT, searchDto({ name: 'scalars', parameters: listOf({ type: 'integer' }) }), new RecordingExecutor());
    const many = Array.from({ length: 50_000 }, (_, i) => i);
    expect((await registry.invoke('kb:scalars', { list: many }, { timeoutMs: 5000 })).ok).toBe(true);
    expect(await registry.invoke('kb:scalars', { list: [...many, 7] }, { timeoutMs: 5000 })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    registry.register(EXT, searchDto({ name: 'objects', parameters: listOf({ type: 'object' }, { maxItems: 10 }) }), new RecordingExecutor());
    expect(await registry.invoke('kb:objects', { list: [{ a: 1 }, { a: 1 }] }, { timeoutMs: 5000 })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
  });
});

describe('uniqueItems in MCP tools', () => {
  it('is removed with a note where it would be unbounded; the tool registers', () => {
    const raw = { name: 'tag_items', inputSchema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'object' }, uniqueItems: true }, ids: { type: 'array', items: { type: 'string' }, uniqueItems: true } } } };
    const mapped = mapMcpTool(raw, 'mcp-x', false);
    const params = mapped.dto!.parameters as { properties: Record<string, Record<string, unknown>> };
    expect(params.properties.tags!.uniqueItems).toBeUndefined();
    expect(params.properties.ids!.uniqueItems).toBe(true);
    expect(mapped.view.notes).toEqual([expect.stringContaining('/inputSchema/properties/tags/uniqueItems was removed')]);
    const { registry } = makeRegistry();
    expect(registry.register({ ...EXT, sourceId: 'mcp-x' } as typeof EXT, mapped.dto as never, new RecordingExecutor()).ok).toBe(true);
  });
});

/** Wraps an array so every element read is counted; Ajv reads items by index. */
function counted<T>(items: T[]): { array: T[]; reads: () => number } {
  let reads = 0;
  const array = new Proxy(items, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { array, reads: () => reads };
}

describe('uniqueItems validation cost (element reads counted, never timed)', () => {
  const compile = (schema: unknown) => {
    const result = new SchemaCompiler().compile(schema, { where: '/parameters', requireObjectRoot: true });
    if (!result.ok) throw new Error(result.error.message);
    return result.value.validate;
  };

  it('the counter sees pairwise work: plain Ajv over 1,000 unbounded objects reads each item many times', () => {
    const validate = new Ajv({ strict: false }).compile(listOf({ type: 'object' }));
    const list = counted(Array.from({ length: 1000 }, (_, i) => ({ i })));
    expect(validate({ list: list.array })).toBe(true);
    expect(list.reads()).toBeGreaterThan(1000 * 100);
  });

  it('50,000 scalar items: a constant number of reads per item', () => {
    const validate = compile(listOf({ type: 'integer' }));
    const list = counted(Array.from({ length: 50_000 }, (_, i) => i));
    expect(validate({ list: list.array })).toBe(true);
    expect(list.reads()).toBeLessThanOrEqual(50_000 * 4);
  });

  it('50,000 objects against a bounded non-scalar uniqueItems: refused by maxItems before any pair is compared', () => {
    const validate = compile(listOf({ type: 'object' }, { maxItems: MAX_UNIQUE_NONSCALAR_ITEMS }));
    const list = counted(Array.from({ length: 50_000 }, (_, i) => ({ i })));
    expect(validate({ list: list.array })).toBe(false);
    expect(list.reads()).toBeLessThanOrEqual(50_000 * 4);
  });
});
