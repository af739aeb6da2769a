// Lumiverse's managed-value grammar for backend processes: what crosses, what is refused and where, and the budgets.
import { describe, expect, it } from 'vitest';
import { freshBudget, managedValueProblem, MANAGED_VALUE_LIMITS, spawnValuesProblem } from '../../../shared/spindle/managed-values';

const problem = (value: unknown) => managedValueProblem(value, 'payload');

describe('managed values', () => {
  it('lets JSON data through: null, booleans, finite numbers, strings, dense arrays, plain and null-prototype objects', () => {
    expect(problem({ a: [1, -2.5, true, null, 'x'], b: { c: {} } })).toBeNull();
    expect(problem(Object.assign(Object.create(null) as object, { ok: 1 }))).toBeNull();
    // A value referred to twice is no cycle; it is counted each time, as the JSON that carries it writes it out each time.
    const shared = { same: 'value' };
    expect(problem({ one: shared, two: shared, list: [shared, shared] })).toBeNull();
    const half = { text: 'x'.repeat(100 * 1024) };
    expect(problem({ a: half })).toBeNull();
    expect(problem({ a: half, b: half, c: half })).toBe('payload.c.text: the strings and keys pass 262144 bytes of UTF-8.');
  });

  it('refuses what structured clone would carry but JSON would change, naming where', () => {
    expect(problem({ at: new Date(0) })).toBe('payload.at is a Date; only plain objects cross.');
    expect(problem({ m: new Map() })).toBe('payload.m is a Map; only plain objects cross.');
    expect(problem([new Uint8Array(2)])).toBe('payload[0] is a Uint8Array; only plain objects cross.');
    expect(problem({ n: Infinity })).toBe('payload.n is Infinity; only finite numbers cross.');
    expect(problem({ big: 1n })).toBe('payload.big is a bigint; only null, booleans, numbers, strings, arrays and plain objects cross.');
    expect(problem({ f: () => 1 })).toMatch(/^payload\.f is a function/);
    expect(problem({ u: undefined })).toBe('payload.u is undefined.');
    // eslint-disable-next-line no-sparse-arrays
    expect(problem([1, , 3])).toBe('payload is a sparse array.');
    expect(problem(Object.assign([1], { extra: true }))).toBe('payload is an array with an extra property "extra".');
    expect(problem(Object.defineProperty({}, 'hidden', { value: 1, enumerable: false }))).toBe('payload.hidden is not enumerable.');
    expect(problem(Object.defineProperty({}, 'got', { get: () => 1, enumerable: true }))).toBe('payload.got is an accessor.');
    expect(problem({ [Symbol('s')]: 1 })).toBe('payload has symbol keys.');
    const cycle: Record<string, unknown> = { list: [] };
    (cycle.list as unknown[]).push(cycle);
    expect(problem(cycle)).toBe('payload.list[0] refers back to itself (a cycle).');
  });

  it('holds the depth, entry, value and byte limits', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < MANAGED_VALUE_LIMITS.depth; i++) deep = [deep];
    expect(problem(deep)).toBeNull();
    expect(problem([deep])).toMatch(/is nested deeper than 32 levels\.$/);
    expect(problem(Array.from({ length: 1000 }, () => 0))).toBeNull();
    expect(problem(Array.from({ length: 1001 }, () => 0))).toBe('payload has 1001 entries; the limit is 1000.');
    const many = Array.from({ length: 11 }, () => Array.from({ length: 1000 }, () => ({})));
    expect(problem(many)).toMatch(/more than 10000 values in all\.$/);
    expect(problem('é'.repeat(128 * 1024))).toBeNull();
    expect(problem('é'.repeat(128 * 1024) + 'x')).toBe('payload: the strings and keys pass 262144 bytes of UTF-8.');
    expect(problem({ ['k'.repeat(262_145)]: 1 })).toMatch(/pass 262144 bytes/);
  });

  it('shares one budget between a spawn payload and its metadata; metadata is a plain object when given', () => {
    const half = 'x'.repeat(131_072);
    expect(spawnValuesProblem({ payload: half, metadata: { m: half.slice(1) } }, { payload: true, metadata: true })).toBeNull();
    expect(spawnValuesProblem({ payload: half, metadata: { m: `${half}y` } }, { payload: true, metadata: true })).toBe('metadata.m: the strings and keys pass 262144 bytes of UTF-8.');
    expect(spawnValuesProblem({ metadata: [] }, { payload: false, metadata: true })).toBe('metadata must be a plain object.');
    expect(spawnValuesProblem({ payload: null }, { payload: true, metadata: false })).toBeNull();
    expect(spawnValuesProblem({}, { payload: false, metadata: false })).toBeNull();
    // A message's budget is its own.
    const budget = freshBudget();
    expect(managedValueProblem(half, 'payload', budget)).toBeNull();
    expect(budget.bytes).toBe(131_072);
  });
});
