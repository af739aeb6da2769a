import { describe, expect, it } from 'vitest';
import type { Handlers } from '../../../shared/contract';
import { MAX_INPUT_BYTES } from '../../../shared/limits';
import { createDispatcher } from '../../../electron/core/contract/dispatcher';
import { silentLogger } from '../../../electron/core/ports';
import { HostFailure } from '../../../shared/errors';

/**
 * The dispatcher alone, over a few handlers of its own: what a handler does is not its business (the settings schema,
 * settings.changed: tests/integration/contract/both-doors.test.ts).
 */
function dispatcher() {
  const called: string[] = [];
  const handlers = {
    'host.ping': () => (called.push('host.ping'), { now: 1 }),
    'notices.dismiss': () => (called.push('notices.dismiss'), null),
    'settings.update': () => (called.push('settings.update'), {}),
  } as unknown as Handlers;
  return { api: createDispatcher(handlers, silentLogger), called };
}
const ctx = { origin: 'test' } as const;

describe('contract dispatcher', () => {
  it('answers a known method', async () => {
    const { api } = dispatcher();
    expect(await api.call('host.ping', {}, ctx)).toEqual({ ok: true, value: { now: 1 } });
  });

  it('rejects an unknown method with a code and keeps serving', async () => {
    const { api } = dispatcher();
    expect(await api.call('host.selfDestruct', {}, ctx)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } });
    expect(await api.call('__proto__', {}, ctx)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } });
    expect((await api.call('host.ping', {}, ctx)).ok).toBe(true);
  });

  it('X5: rejects a wrong input type naming the field, before any handler runs', async () => {
    const { api, called } = dispatcher();
    expect(await api.call('notices.dismiss', { id: 42 }, ctx)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/id' } });
    expect(await api.call('notices.dismiss', {}, ctx)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/id' } });
    expect(await api.call('host.status', { sneaky: true }, ctx)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/sneaky' } });
    expect(called).toEqual([]);
  });

  it('rejects an input over 1 MB and keeps serving', async () => {
    const { api, called } = dispatcher();
    const big = { patch: { blob: 'x'.repeat(MAX_INPUT_BYTES + 1) } };
    expect(await api.call('settings.update', big, ctx)).toMatchObject({ ok: false, error: { code: 'INPUT_TOO_LARGE' } });
    expect(called).toEqual([]);
    expect((await api.call('host.ping', {}, ctx)).ok).toBe(true);
  });

  it('counts the input exactly when a cheap bound is not enough', async () => {
    const { api } = dispatcher();
    // Many small values: the bound passes the cap long before the JSON does, and the exact size lets it through.
    const numbers = { patch: { list: Array.from({ length: 60_000 }, () => 1) } };
    expect(await api.call('settings.update', numbers, ctx)).toEqual({ ok: true, value: {} });
    // Escape-heavy text is counted as written, not as the characters it holds.
    const escaped = { patch: { blob: '\u0001'.repeat(10) + '\n'.repeat(MAX_INPUT_BYTES / 2) } };
    expect(await api.call('settings.update', escaped, ctx)).toMatchObject({ ok: false, error: { code: 'INPUT_TOO_LARGE' } });
    const cyclic: Record<string, unknown> = { patch: {} };
    (cyclic.patch as Record<string, unknown>).self = cyclic;
    expect(await api.call('settings.update', cyclic, ctx)).toMatchObject({ ok: false, error: { code: 'INPUT_TOO_LARGE' } });
  });

  it('a handler that throws is INTERNAL, one that fails is its HostFailure, and the dispatcher keeps serving', async () => {
    const handlers = {
      'host.ping': () => {
        throw new Error('broke');
      },
      'notices.dismiss': () => {
        throw new HostFailure({ code: 'NOT_FOUND', message: 'No such notice.' });
      },
    } as unknown as Handlers;
    const api = createDispatcher(handlers, silentLogger);
    expect(await api.call('host.ping', {}, ctx)).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(await api.call('notices.dismiss', { id: 'n1' }, ctx)).toEqual({ ok: false, error: { code: 'NOT_FOUND', message: 'No such notice.' } });
  });
});

describe('answers checked against the contract (tests)', () => {
  const handlers = (value: unknown) => ({ 'host.ping': () => value }) as unknown as Handlers;

  it('answers INTERNAL naming the field when a handler strays from its output schema', async () => {
    const checking = createDispatcher(handlers({ now: 'soon' }), silentLogger, { checkOutputs: true });
    expect(await checking.call('host.ping', {}, { origin: 'test' })).toMatchObject({ ok: false, error: { code: 'INTERNAL', path: '/now' } });
    const good = createDispatcher(handlers({ now: 1 }), silentLogger, { checkOutputs: true });
    expect(await good.call('host.ping', {}, { origin: 'test' })).toEqual({ ok: true, value: { now: 1 } });
  });

  it('passes answers through unchecked when not asked (the app)', async () => {
    const plain = createDispatcher(handlers({ now: 'soon' }), silentLogger);
    expect(await plain.call('host.ping', {}, { origin: 'test' })).toEqual({ ok: true, value: { now: 'soon' } });
  });
});
