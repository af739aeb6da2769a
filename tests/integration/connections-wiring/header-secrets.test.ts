// Issue 18, finding 7: a credential typed into a connection's extra header (one the deny list does not name)
// is kept in the secret store: never in settings.json, a view or a log; requests still carry it.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KEPT_SECRET, STORED_SECRET } from '../../../shared/secret-mask';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { chatRig, newSession, send, type ChatRig } from '../chat/helpers';

const HELICONE = 'Bearer sk-helicone-0123456789abcdef';
const OPAQUE = 'a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6';

let rig: ChatRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
  cleanupTempDirs();
});

const profile = (rig: ChatRig, headers: Record<string, string>) => ({ id: 'relay', name: 'Relay', provider: 'openai-compatible', baseUrl: `${rig.server.origin}/v1`, defaultModel: 'test-model', headers });
const storedHeaders = (rig: ChatRig) => (JSON.parse(fs.readFileSync(path.join(rig.dataDir, 'settings.json'), 'utf8')) as { connections: Array<{ headers: Record<string, string> }> }).connections[0]!.headers;

describe('S7: credentials in extra connection headers', () => {
  it('S7: Helicone-Auth: Bearer sk-… goes to the secret store; settings, views and logs never hold it; every request carries it', async () => {
    rig = await chatRig();
    const saved = await rig.call('connections.save', { profile: profile(rig, { 'Helicone-Auth': HELICONE, 'X-Relay': OPAQUE, 'X-Title': 'Council Workbench' }) });
    expect(saved.ok).toBe(true);
    // settings.json keeps a reference, the client a mask; an ordinary header stays as typed.
    expect(storedHeaders(rig)).toEqual({ 'Helicone-Auth': STORED_SECRET, 'X-Relay': STORED_SECRET, 'X-Title': 'Council Workbench' });
    expect((saved.value as { profile: { headers: Record<string, string> } }).profile.headers).toEqual({ 'Helicone-Auth': KEPT_SECRET, 'X-Relay': KEPT_SECRET, 'X-Title': 'Council Workbench' });

    // The model list and a chat turn send the stored values.
    expect((await rig.call('connections.models', { id: 'relay' })).ok).toBe(true);
    await rig.host.settings.update({ chat: { mainConnectionId: 'relay', model: '', inlineMaxRounds: 3, dryRun: false } });
    rig.server.enqueue({ text: 'hello' });
    await send(rig, await newSession(rig), 'hi');
    expect(rig.server.requests.length).toBeGreaterThanOrEqual(2);
    for (const request of rig.server.requests) expect(request.headers).toMatchObject({ 'helicone-auth': HELICONE, 'x-relay': OPAQUE, 'x-title': 'Council Workbench' });

    // Saving the form back as the client sees it (masks and all) keeps the stored values.
    const view = ((await rig.call('connections.list', {})).value as Array<Record<string, unknown>>)[0]!;
    const { hasKey: _h, keyHint: _k, ...edited } = view;
    expect((await rig.call('connections.save', { profile: { ...edited, name: 'Relay (renamed)' } })).ok).toBe(true);
    rig.server.reset();
    expect((await rig.call('connections.test', { id: 'relay' })).value).toMatchObject({ ok: true });
    expect(rig.server.requests[0]!.headers).toMatchObject({ 'helicone-auth': HELICONE, 'x-relay': OPAQUE });

    const everything = [fs.readFileSync(path.join(rig.dataDir, 'settings.json'), 'utf8'), ...rig.results, ...rig.log.lines, JSON.stringify(rig.events)].join('\n');
    expect(everything).not.toContain('sk-helicone');
    expect(everything).not.toContain(OPAQUE);
  });

  it('S7: a mask with nothing stored behind it is refused at the header, and removing a connection forgets its header values', async () => {
    rig = await chatRig();
    const masked = await rig.call('connections.save', { profile: profile(rig, { 'Helicone-Auth': KEPT_SECRET }) });
    expect(masked.error).toMatchObject({ code: 'INVALID_INPUT', path: '/headers/Helicone-Auth' });
    expect((await rig.call('connections.save', { profile: profile(rig, { 'Helicone-Auth': HELICONE }) })).ok).toBe(true);
    expect((await rig.call('connections.remove', { id: 'relay' })).value).toEqual({ removed: true });
    // The same id again cannot reach the old value through the mask.
    expect((await rig.call('connections.save', { profile: profile(rig, { 'Helicone-Auth': KEPT_SECRET }) })).error).toMatchObject({ code: 'INVALID_INPUT' });
    // Dropping the header from a saved profile forgets its value too.
    expect((await rig.call('connections.save', { profile: profile(rig, { 'Helicone-Auth': HELICONE }) })).ok).toBe(true);
    expect((await rig.call('connections.save', { profile: profile(rig, {}) })).ok).toBe(true);
    expect((await rig.call('connections.save', { profile: profile(rig, { 'Helicone-Auth': KEPT_SECRET }) })).error).toMatchObject({ code: 'INVALID_INPUT' });
  });
});
