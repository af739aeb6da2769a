// An extension's generations past its share wait their turn, as Lumiverse (no cap) would run them: a tracker that
// backfills a long chat one generation per turn gets every one, in order, a little later. Adversarial: more waiting
// than the queue holds, a wait past the timeout, a cancel before its turn, a revoke before its turn, a stop with some
// waiting. On fake time; the generator is the gate's port, answering when the test says.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HostError } from '../../../shared/errors';
import { GenerationGate, MAX_WAITING, type ExtensionGenerator, type GenerationReplyTarget } from '../../../electron/core/extensions/spindle-host/generation-gate';

beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] }));
afterEach(() => void vi.useRealTimers());

function setup(limits: { maxConcurrent?: number; maxPerMinute?: number; timeoutMs?: number }) {
  const started: string[] = [];
  const release = new Map<string, (text: string) => void>();
  const generator: ExtensionGenerator = {
    quiet: (input) => {
      started.push(input.prompt);
      return new Promise((resolve) => release.set(input.prompt, resolve));
    },
    raw: () => Promise.reject(new Error('unused')),
    lumiverse: () => Promise.reject(new Error('unused')),
    stream: () => Promise.reject(new Error('unused')),
  };
  const answers = new Map<string, { ok: true; value: unknown } | { ok: false; error: HostError }>();
  const denied: string[] = [];
  const target: GenerationReplyTarget = { respond: (id, result) => void answers.set(id, result), denyPermission: (p, op) => void denied.push(`${p} ${op}`) };
  const log: string[] = [];
  const gate = new GenerationGate({ generator, limits, log: (_id, level, text) => void log.push(`${level}: ${text}`) });
  let allowed = true;
  const ask = (id: string) => gate.request('tracker', target, { requestId: id, kind: 'quiet', input: { prompt: id } }, () => allowed);
  const settle = () => vi.advanceTimersByTimeAsync(0);
  return { gate, started, release, answers, denied, log, ask, settle, target, revoke: () => void (allowed = false) };
}

describe('generations past an extension’s share', () => {
  it('wait their turn past the minute’s share and run in order when it frees', async () => {
    const t = setup({ maxPerMinute: 2 });
    for (const id of ['turn1', 'turn2', 'turn3', 'turn4']) t.ask(id);
    await t.settle();
    expect(t.started).toEqual(['turn1', 'turn2']);
    t.release.get('turn1')!('one');
    t.release.get('turn2')!('two');
    await t.settle();
    expect([...t.answers.keys()]).toEqual(['turn1', 'turn2']);
    // Finished, but the minute's two starts are used: the rest wait for it.
    expect(t.started).toEqual(['turn1', 'turn2']);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(t.started).toEqual(['turn1', 'turn2']);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.started).toEqual(['turn1', 'turn2', 'turn3', 'turn4']);
    t.release.get('turn3')!('three');
    t.release.get('turn4')!('four');
    await t.settle();
    expect(t.answers.get('turn4')).toEqual({ ok: true, value: 'four' });
    expect(t.log.filter((l) => l.includes('waits for its turn'))).toHaveLength(1);
  });

  it('are served first come, first served: a new one waits behind those already waiting', async () => {
    const t = setup({ maxPerMinute: 1 });
    t.ask('first');
    t.release.get('first')!('one');
    t.ask('second');
    await t.settle();
    expect(t.started).toEqual(['first']);
    // The minute's share frees a moment before the gate's timer looks again: one asking now still waits its turn.
    vi.setSystemTime(Date.now() + 60_000);
    t.ask('third');
    await t.settle();
    expect(t.started).toEqual(['first']);
    // The gate's timer: the one that waited longest goes first, the newer one a minute later.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.started).toEqual(['first', 'second']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.started).toEqual(['first', 'second', 'third']);
  });

  it('wait past the running share and start as one finishes', async () => {
    const t = setup({ maxConcurrent: 1 });
    t.ask('a');
    t.ask('b');
    await t.settle();
    expect(t.started).toEqual(['a']);
    t.release.get('a')!('A');
    await t.settle();
    expect(t.answers.get('a')).toEqual({ ok: true, value: 'A' });
    expect(t.started).toEqual(['a', 'b']);
  });

  it('are refused past the queue, and a wait past the timeout is refused', async () => {
    const t = setup({ maxConcurrent: 1, timeoutMs: 5_000 });
    for (let i = 0; i <= MAX_WAITING + 1; i++) t.ask(`g${i}`);
    await t.settle();
    expect(t.answers.get(`g${MAX_WAITING + 1}`)).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED' } });
    expect(t.answers.size).toBe(1);
    // The running one times out at 5 s and the next takes its place; the others, having waited as long, are refused.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(t.answers.get('g0')).toMatchObject({ ok: false, error: { code: 'LLM_TIMEOUT' } });
    expect(t.started).toEqual(['g0', 'g1']);
    expect(t.answers.has('g1')).toBe(false);
    expect(t.answers.get('g2')).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED', message: expect.stringContaining('waited') } });
    expect(t.answers.size).toBe(MAX_WAITING + 1);
  });

  it('a cancel before its turn drops it unanswered; a revoke before its turn refuses it then; a stop answers all that wait', async () => {
    const t = setup({ maxConcurrent: 1 });
    t.ask('first');
    t.ask('cancelled');
    t.ask('revoked');
    await t.settle();
    t.gate.cancel('tracker', t.target, 'cancelled');
    t.revoke();
    t.release.get('first')!('done');
    await t.settle();
    expect(t.started).toEqual(['first']);
    expect(t.answers.has('cancelled')).toBe(false);
    expect(t.answers.get('revoked')).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
    expect(t.denied).toEqual(['generation generate.quiet']);

    const s = setup({ maxConcurrent: 1 });
    s.ask('running');
    s.ask('waiting');
    await s.settle();
    s.gate.abortAll('tracker', { code: 'CANCELLED', message: 'Stopped.' });
    await s.settle();
    expect(s.answers.get('waiting')).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(s.answers.get('running')).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(s.started).toEqual(['running']);
  });
});
