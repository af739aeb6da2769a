// Argument sanitizing in isolation: JSON parsing, reserved keys, size and depth caps.
import { describe, expect, it } from 'vitest';
import { parseArgumentsJson, sanitizeArguments } from '../../../electron/core/registry/sanitize-args';

describe('parseArgumentsJson', () => {
  it.each([
    ['truncated', '{"query": "x'],
    ['not JSON', 'query=x'],
    ['single quotes', "{'query': 'x'}"],
  ])('returns INVALID_ARGUMENTS_JSON for %s text', (_label, text) => {
    const result = parseArgumentsJson(text);
    expect(!result.ok && result.error.code).toBe('INVALID_ARGUMENTS_JSON');
    expect(!result.ok && result.error.hint).toBeTruthy();
  });

  it('treats an empty string as no arguments', () => {
    expect(parseArgumentsJson('  ')).toEqual({ ok: true, value: {} });
  });

  it('refuses text over the cap by length, before parsing', () => {
    const result = parseArgumentsJson(`{"a":"${'x'.repeat(2_000_000)}"}`);
    expect(!result.ok && result.error.code).toBe('INVALID_ARGUMENTS');
  });

  it('keeps __proto__ as plain data and pollutes nothing', () => {
    const result = parseArgumentsJson('{"__proto__":{"polluted":true}}');
    expect(result.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('sanitizeArguments', () => {
  it('strips reserved top-level keys and prototype keys at any depth, reporting paths only', () => {
    const raw = JSON.parse(
      '{"q":1,"userId":"u","_meta":{},"context":"c","__deadlineMs":5,"a":{"userId":"kept","__proto__":{},"list":[{"constructor":1,"ok":2}]}}',
    );
    const result = sanitizeArguments(raw);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.args).toEqual({ q: 1, a: { userId: 'kept', list: [{ ok: 2 }] } });
    expect(result.value.stripped.sort()).toEqual(
      ['/userId', '/_meta', '/context', '/__deadlineMs', '/a/__proto__', '/a/list/0/constructor'].sort(),
    );
  });

  it('does not mutate the caller object', () => {
    const raw = { q: 1, userId: 'u' };
    sanitizeArguments(raw);
    expect(raw).toEqual({ q: 1, userId: 'u' });
  });

  it('treats undefined as {} and refuses non-objects', () => {
    expect(sanitizeArguments(undefined)).toEqual({ ok: true, value: { args: {}, stripped: [] } });
    for (const raw of [null, 3, 'true', [1]]) {
      const result = sanitizeArguments(raw);
      expect(!result.ok && result.error.code).toBe('INVALID_ARGUMENTS');
    }
  });

  it('refuses args nested deeper than 64 and cyclic args', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 70; i++) deep = { d: deep };
    expect(sanitizeArguments(deep).ok).toBe(false);
    const cyclic: Record<string, unknown> = { q: 1 };
    cyclic.self = cyclic;
    const result = sanitizeArguments(cyclic);
    expect(!result.ok && result.error.code).toBe('INVALID_ARGUMENTS');
  });

  it('refuses values that are not JSON (functions, NaN, class instances)', () => {
    for (const bad of [{ f: () => 1 }, { n: Number.NaN }, { d: new Date() }, { m: new Map() }]) {
      const result = sanitizeArguments(bad);
      expect(!result.ok && result.error.code).toBe('INVALID_ARGUMENTS');
    }
  });

  it('counts UTF-8 bytes: 600 000 three-byte characters exceed 1 MB', () => {
    const result = sanitizeArguments(JSON.stringify({ q: '漢'.repeat(600_000) }));
    expect(!result.ok && result.error.code).toBe('INVALID_ARGUMENTS');
  });
});
