// ReDoS: a hostile `pattern` must not hang the host (security ref. 7, R11), and unsafe patterns are refused.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkPattern } from '../../../electron/core/registry/pattern-safety';
import { enableLinearRegexFallback, linearEngineAccepts } from '../../../electron/core/registry/safe-regex-engine';
import { EXT, RecordingExecutor, makeRegistry, searchDto } from './fakes';

const CATASTROPHIC = '^(a|a)*$';
const INPUT = `${'a'.repeat(40)}!`;

/**
 * Runs the invocation in a child process first (once): if the fallback regressed, the child is killed
 * on its timeout and the test fails, where running it in-process would block this thread and with it
 * vitest's own timeout.
 */
let probeResult: ReturnType<typeof spawnSync> | undefined;
function runProbe() {
  const probe = fileURLToPath(new URL('./fixtures/redos-probe.ts', import.meta.url));
  probeResult ??= spawnSync(process.execPath, ['--import', 'tsx', probe], { encoding: 'utf8', timeout: 20_000 });
  return probeResult;
}

describe('linear regex fallback', () => {
  it('is idempotent and makes the linear-engine probe available', () => {
    expect(enableLinearRegexFallback()).toBe(true);
    expect(enableLinearRegexFallback()).toBe(true);
    expect(linearEngineAccepts(CATASTROPHIC)).toBe(true);
    expect(linearEngineAccepts('^(a|a)*\\1$')).toBe(false);
  });

  it('validates 40 a\'s + "!" against ^(a|a)*$ in a child process without hanging', () => {
    const child = runProbe();
    // A hang shows up here as a killed child (signal set, no output), not as a frozen runner.
    expect(child.signal).toBeNull();
    expect(child.status, String(child.stderr)).toBe(0);
    const report = JSON.parse(String(child.stdout)) as { outcome: { ok: boolean; error?: { code: string; path?: string } }; calls: number };
    expect(report.outcome.ok).toBe(false);
    expect(report.outcome.error?.code).toBe('INVALID_ARGUMENTS');
    expect(report.calls).toBe(0);
  }, 30_000);

  it('registers ^(a|a)*$ and rejects 40 a\'s + "!" in-process with INVALID_ARGUMENTS (pattern)', async () => {
    const child = runProbe();
    if (child.signal !== null || child.status !== 0) throw new Error('the child probe hung or failed; not risking a frozen runner');
    const { registry } = makeRegistry();
    const executor = new RecordingExecutor();
    const registered = registry.register(
      EXT,
      searchDto({ name: 'redos', parameters: { type: 'object', properties: { s: { type: 'string', pattern: CATASTROPHIC } } } }),
      executor,
    );
    expect(registered.ok).toBe(true);
    const outcome = await registry.invoke('kb:redos', { s: INPUT }, { timeoutMs: 1000 });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.code).toBe('INVALID_ARGUMENTS');
      expect(outcome.error.path).toBe('/s');
      expect(outcome.error.message).toContain('(pattern)');
    }
    expect(executor.requests).toHaveLength(0);
    // A matching value still passes, so the pattern is really enforced, not dropped.
    const good = await registry.invoke('kb:redos', { s: 'a'.repeat(40) }, { timeoutMs: 1000 });
    expect(good.ok).toBe(true);
  }, 10_000);
});

describe('pattern safety at registration', () => {
  it.each([
    ['does not compile', '(unclosed'],
    ['lookahead around a catastrophic group', '^(?=(a|a)*$)'],
    ['backreference', '^(a|a)*\\1$'],
    ['counted repetition of an ambiguous group', '^(a|a){1,64}$'],
    ['large counts unanchored', '[a-z]{0,64}!'],
    ['large counts with top-level alternation', '^[a-z]{1,64}|b'],
    ['large counts mixed with +', '^[a-z]{1,64}\\.[a-z]+$'],
    ['too many backtracking paths', '^[a-z]{1,64}[0-9]{1,64}[a-z]{1,64}$'],
  ])('refuses a pattern that %s', (_label, pattern) => {
    expect(checkPattern(pattern).ok).toBe(false);
    const { registry } = makeRegistry();
    const result = registry.register(
      EXT,
      searchDto({ parameters: { type: 'object', properties: { s: { type: 'string', pattern } } } }),
      new RecordingExecutor(),
    );
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toMatchObject({ code: 'INVALID_SCHEMA', path: '/parameters/properties/s/pattern' });
      // The message never echoes the (possibly huge or hostile) pattern.
      expect(result.error.message).not.toContain(pattern);
    }
    expect(registry.list()).toHaveLength(0);
  });

  it.each([
    ['catastrophic but linear-engine runnable', CATASTROPHIC],
    ['nested plus', '^(a+)+$'],
    ['date', '^\\d{4}-\\d{2}-\\d{2}$'],
    ['uuid', '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'],
    ['anchored {1,64}', '^[a-z0-9_]{1,64}$'],
    ['our own bare-name rule', '^[a-zA-Z][a-zA-Z0-9_]{0,63}$'],
    ['sha256 hex', '^[0-9a-f]{64}$'],
    ['escaped brace and class with (?=', '^\\{[(?=]{2}\\}$'],
  ])('accepts a %s pattern', (_label, pattern) => {
    expect(checkPattern(pattern)).toEqual({ ok: true });
  });

  it('checks patternProperties keys too', () => {
    const { registry } = makeRegistry();
    const result = registry.register(
      EXT,
      searchDto({ parameters: { type: 'object', patternProperties: { '^(a|a){1,64}$': { type: 'string' } } } }),
      new RecordingExecutor(),
    );
    expect(!result.ok && result.error.code).toBe('INVALID_SCHEMA');
    expect(!result.ok && result.error.path).toBe('/parameters/patternProperties/^(a|a){1,64}$');
  });

  it('checks a pattern hidden under a property named "enum" (keyword positions are not trusted)', () => {
    const { registry } = makeRegistry();
    const result = registry.register(
      EXT,
      searchDto({ parameters: { type: 'object', properties: { enum: { type: 'string', pattern: '^(?=(a|a)*$)' } } } }),
      new RecordingExecutor(),
    );
    expect(result.ok).toBe(false);
  });
});
