import { afterEach, describe, expect, it } from 'vitest';
import type { Handlers } from '../../../shared/contract';
import { MAX_INPUT_BYTES } from '../../../shared/limits';
import { createDispatcher } from '../../../electron/core/contract/dispatcher';
import { silentLogger } from '../../../electron/core/ports';
import { testHost } from '../../helpers/node-host';
import { cleanupTempDirs } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

describe('contract dispatcher', () => {
  it('answers a known method', async () => {
    const host = await testHost();
    const result = await host.api.call('host.ping', {}, { origin: 'test' });
    expect(result).toMatchObject({ ok: true, value: { now: expect.any(Number) } });
  });

  it('rejects an unknown method with a code and keeps serving', async () => {
    const host = await testHost();
    expect(await host.api.call('host.selfDestruct', {}, { origin: 'test' })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } });
    expect(await host.api.call('__proto__', {}, { origin: 'test' })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } });
    expect((await host.api.call('host.ping', {}, { origin: 'test' })).ok).toBe(true);
  });

  it('X5: rejects a wrong input type naming the field', async () => {
    const host = await testHost();
    const result = await host.api.call('notices.dismiss', { id: 42 }, { origin: 'test' });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/id' } });
    const missing = await host.api.call('notices.dismiss', {}, { origin: 'test' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/id' } });
    const extra = await host.api.call('host.status', { sneaky: true }, { origin: 'test' });
    expect(extra).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/sneaky' } });
  });

  it('rejects an input over 1 MB and keeps serving', async () => {
    const host = await testHost();
    const big = { patch: { blob: 'x'.repeat(MAX_INPUT_BYTES + 1) } };
    expect(await host.api.call('settings.update', big, { origin: 'test' })).toMatchObject({ ok: false, error: { code: 'INPUT_TOO_LARGE' } });
    expect((await host.api.call('settings.get', {}, { origin: 'test' })).ok).toBe(true);
  });

  it('counts the input exactly when a cheap bound is not enough', async () => {
    const host = await testHost();
    // Many small values: the bound passes the cap long before the JSON does, and the exact size lets it through.
    const numbers = { patch: { list: Array.from({ length: 60_000 }, () => 1) } };
    expect(await host.api.call('settings.update', numbers, { origin: 'test' })).not.toMatchObject({ error: { code: 'INPUT_TOO_LARGE' } });
    // Escape-heavy text is counted as written, not as the characters it holds.
    const escaped = { patch: { blob: '\u0001'.repeat(10) + '\n'.repeat(MAX_INPUT_BYTES / 2) } };
    expect(await host.api.call('settings.update', escaped, { origin: 'test' })).toMatchObject({ ok: false, error: { code: 'INPUT_TOO_LARGE' } });
    const cyclic: Record<string, unknown> = { patch: {} };
    (cyclic.patch as Record<string, unknown>).self = cyclic;
    expect(await host.api.call('settings.update', cyclic, { origin: 'test' })).toMatchObject({ ok: false, error: { code: 'INPUT_TOO_LARGE' } });
  });

  it('validates settings updates against the settings schema', async () => {
    const host = await testHost();
    const bad = await host.api.call('settings.update', { patch: { ui: { theme: 'neon' } } }, { origin: 'test' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'SETTINGS_INVALID', path: '/ui/theme' } });
    const good = await host.api.call('settings.update', { patch: { ui: { theme: 'dark' } } }, { origin: 'test' });
    expect(good).toMatchObject({ ok: true, value: { ui: { theme: 'dark' } } });
  });

  it('emits settings.changed to listeners', async () => {
    const host = await testHost();
    const seen: string[] = [];
    host.onEvent((e) => seen.push(e.type));
    await host.api.call('settings.update', { patch: { ui: { theme: 'light' } } }, { origin: 'test' });
    expect(seen).toContain('settings.changed');
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
