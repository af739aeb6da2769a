// ReDoS: a hostile `pattern` must not hang the host (security ref. 7, R11). Schema patterns run on RE2's
// linear-time engine through Ajv's code.regExp; patterns that engine cannot run are refused at registration.
import { describe, expect, it } from 'vitest';
import { checkPattern, linearRegExp } from '../../../electron/core/registry/linear-regex';
import { EXT, RecordingExecutor, makeRegistry, searchDto } from './fakes';

const CATASTROPHIC = '^(a|a)*$';

describe('linear-time schema patterns', () => {
  it.each([
    ['^(a|a)*$', `${'a'.repeat(40)}!`],
    ['^(a+)+$', `${'a'.repeat(100_000)}!`],
    ['^(a|a){1,64}$', `${'a'.repeat(60)}!`],
    ['[a-z]{0,64}!', 'a'.repeat(1_000_000)],
  ])('R11: %s against a hostile input finishes and answers like RegExp would', (pattern, input) => {
    // Each of these blocks V8's backtracking engine for seconds to hours; RE2 answers in one pass.
    expect(linearRegExp(pattern).test(input)).toBe(false);
    expect(linearRegExp(pattern).test(input.replace(/!$/, ''))).toBe(new RegExp(pattern).test(input.replace(/!$/, '')));
  });

  it('is an unanchored search, as JSON Schema says', () => {
    expect(linearRegExp('b+').test('abbbc')).toBe(true);
    expect(linearRegExp('^b+').test('abbbc')).toBe(false);
  });

  it('registers ^(a|a)*$ and rejects 40 a\'s + "!" in-process with INVALID_ARGUMENTS (pattern)', async () => {
    const { registry } = makeRegistry();
    const executor = new RecordingExecutor();
    const registered = registry.register(EXT, searchDto({ name: 'redos', parameters: { type: 'object', properties: { s: { type: 'string', pattern: CATASTROPHIC } } } }), executor);
    expect(registered.ok).toBe(true);
    const outcome = await registry.invoke('kb:redos', { s: `${'a'.repeat(40)}!` }, { timeoutMs: 1000 });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS', path: '/s', message: expect.stringContaining('(pattern)') } });
    expect(executor.requests).toHaveLength(0);
    // A matching value still passes, so the pattern is really enforced, not dropped.
    expect((await registry.invoke('kb:redos', { s: 'a'.repeat(40) }, { timeoutMs: 1000 })).ok).toBe(true);
  });
});

describe('pattern safety at registration', () => {
  it.each([
    ['does not compile', '(unclosed'],
    ['uses a lookahead', '^(?=(a|a)*$)'],
    ['uses a backreference', '^(a|a)*\\1$'],
  ])('refuses a pattern that %s, naming the path and never echoing the pattern', (_label, pattern) => {
    expect(checkPattern(pattern).ok).toBe(false);
    const { registry } = makeRegistry();
    const result = registry.register(EXT, searchDto({ parameters: { type: 'object', properties: { s: { type: 'string', pattern } } } }), new RecordingExecutor());
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toMatchObject({ code: 'INVALID_SCHEMA', path: '/parameters/properties/s/pattern' });
      expect(result.error.message).not.toContain(pattern);
    }
    expect(registry.list()).toHaveLength(0);
  });

  it.each([
    ['catastrophic on a backtracker', CATASTROPHIC],
    ['nested plus', '^(a+)+$'],
    ['date', '^\\d{4}-\\d{2}-\\d{2}$'],
    ['uuid', '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'],
    ['anchored {1,64}', '^[a-z0-9_]{1,64}$'],
    ['large counts unanchored', '[a-z]{0,64}!'],
    ['escaped slash and dash', '^\\/[\\w.\\-]+$'],
    ['escaped brace and class with (?=', '^\\{[(?=]{2}\\}$'],
  ])('accepts a %s pattern', (_label, pattern) => {
    expect(checkPattern(pattern)).toEqual({ ok: true });
  });

  it('checks patternProperties keys too', () => {
    const { registry } = makeRegistry();
    const result = registry.register(EXT, searchDto({ parameters: { type: 'object', patternProperties: { '^(?!x)': { type: 'string' } } } }), new RecordingExecutor());
    expect(!result.ok && result.error.code).toBe('INVALID_SCHEMA');
    expect(!result.ok && result.error.path).toBe('/parameters/patternProperties/^(?!x)');
  });

  it('checks a pattern hidden under a property named "enum" (keyword positions are not trusted)', () => {
    const { registry } = makeRegistry();
    const result = registry.register(EXT, searchDto({ parameters: { type: 'object', properties: { enum: { type: 'string', pattern: '^(?=(a|a)*$)' } } } }), new RecordingExecutor());
    expect(result.ok).toBe(false);
  });
});
