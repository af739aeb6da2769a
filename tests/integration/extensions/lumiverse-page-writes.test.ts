// What an extension's frontend writes through Lumiverse's REST API: settings rows of its own (Vishrun's scripts), a
// character's update (its read-modify-write of extensions), a chat's branch (Tapestry's "branch from here"), and the
// preset the chats use. Adversarial: a key Lumiverse refuses, the Workbench's own settings written,
// a body that is no object, a branch without chat_mutation or of a message that is not there, a character's update
// without characters.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatSession } from '../../../shared/types/chat';
import { addMainConnection, newSession, send } from '../chat/helpers';
import { frontendRigs, page } from './page-rig';

const { withFrontend } = frontendRigs();
const body = (value: unknown) => ({ text: JSON.stringify(value) });
const JSON_TYPE = { 'content-type': 'application/json' };

describe("a frontend's settings rows", () => {
  it('keeps what it puts and hands it back in Lumiverse’s row shape; lists, bulk-puts and deletes; kept in its data folder', async () => {
    const r = await withFrontend([], []);
    const key = encodeURIComponent('vishrun_chibijokes.scripts.global');
    expect(await page(r, 'GET', `/api/v1/settings/${key}`)).toMatchObject({ status: 404, json: { error: 'Not found' } });
    const scripts = { scripts: [{ id: 's1', name: 'Clock', enabled: true, content: 'console.log(1)' }] };
    const put = await page(r, 'PUT', `/api/v1/settings/${key}`, JSON_TYPE, body({ value: scripts }));
    expect(put).toMatchObject({ status: 200, json: { key: 'vishrun_chibijokes.scripts.global', value: scripts, updated_at: expect.any(Number) } });
    expect((await page(r, 'GET', `/api/v1/settings/${key}`)).json).toEqual(put.json);
    expect((await page(r, 'PUT', '/api/v1/settings', JSON_TYPE, body({ 'a.b': 1, 'c:d': null }))).json).toEqual([
      { key: 'a.b', value: 1, updated_at: expect.any(Number) },
      { key: 'c:d', value: null, updated_at: expect.any(Number) },
    ]);
    const listed = (await page(r, 'GET', '/api/v1/settings')).json as unknown as Array<{ key: string }>;
    expect(listed.map((row) => row.key)).toEqual(['activeChatId', 'activeLoomPresetId', 'vishrun_chibijokes.scripts.global', 'a.b', 'c:d']);
    expect(await page(r, 'DELETE', '/api/v1/settings/a.b')).toMatchObject({ status: 200, json: { success: true } });
    expect(await page(r, 'DELETE', '/api/v1/settings/a.b')).toMatchObject({ status: 404 });
    // Kept on the host, in the extension's data folder.
    const saved = JSON.parse(fs.readFileSync(path.join(r.dataDir, 'extension-data', 'page_reader', 'page-settings.json'), 'utf8')) as { rows: Record<string, { value: unknown }> };
    expect(Object.keys(saved.rows)).toEqual(['vishrun_chibijokes.scripts.global', 'c:d']);
    expect(saved.rows['vishrun_chibijokes.scripts.global']!.value).toEqual(scripts);
  }, 60_000);

  it('refuses what Lumiverse refuses and the Workbench’s own settings, keeping nothing of a refused bulk put', async () => {
    const r = await withFrontend([], []);
    expect(await page(r, 'PUT', '/api/v1/settings/has%20space', JSON_TYPE, body({ value: 1 }))).toMatchObject({ status: 400, json: { code: 'INVALID_INPUT' } });
    expect(await page(r, 'PUT', `/api/v1/settings/${'k'.repeat(201)}`, JSON_TYPE, body({ value: 1 }))).toMatchObject({ status: 400 });
    expect(await page(r, 'PUT', '/api/v1/settings/fine', JSON_TYPE, { text: '[1]' })).toMatchObject({ status: 400 });
    expect(await page(r, 'PUT', '/api/v1/settings', JSON_TYPE, body({ ok: 1, 'bad key': 2 }))).toMatchObject({ status: 400 });
    expect(await page(r, 'GET', '/api/v1/settings/ok')).toMatchObject({ status: 404 });
    for (const own of ['activeChatId', 'activeLoomPresetId']) {
      expect(await page(r, 'PUT', `/api/v1/settings/${own}`, JSON_TYPE, body({ value: 'x' }))).toMatchObject({ status: 403, json: { code: 'PERMISSION_DENIED' } });
      expect(await page(r, 'DELETE', `/api/v1/settings/${own}`)).toMatchObject({ status: 403 });
    }
    expect(await page(r, 'PUT', '/api/v1/settings', JSON_TYPE, body({ ok: 1, activeChatId: 'x' }))).toMatchObject({ status: 403 });
    expect(await page(r, 'GET', '/api/v1/settings/ok')).toMatchObject({ status: 404 });
    expect((await page(r, 'GET', '/api/v1/settings/activeLoomPresetId')).json).toMatchObject({ key: 'activeLoomPresetId', value: null });
  }, 60_000);
});

describe("a character's update and a chat's branch", () => {
  it("PUT characters/<id> changes its fields as Lumiverse's route does (extensions replaced whole), with characters only", async () => {
    const r = await withFrontend(['characters'], ['characters']);
    const id = await newSession(r, { character: { name: 'Mira', description: 'Keeper.', personality: '', scenario: '' } });
    const current = (await page(r, 'GET', `/api/v1/characters/${id}`)).json as { extensions: Record<string, unknown> };
    const extensions = { ...current.extensions, tavern_helper: { scripts: [{ id: 's1' }] }, regex_scripts: [] };
    const updated = await page(r, 'PUT', `/api/v1/characters/${id}`, JSON_TYPE, body({ extensions, description: 'Lamp keeper.', avatar_path: '/ignored.png', fav: true }));
    expect(updated).toMatchObject({ status: 200, json: { id, name: 'Mira', description: 'Lamp keeper.', extensions } });
    expect(((await page(r, 'GET', `/api/v1/characters/${id}`)).json as { extensions: unknown }).extensions).toEqual(extensions);
    expect(await page(r, 'PUT', `/api/v1/characters/${id}`, JSON_TYPE, { text: 'nope' })).toMatchObject({ status: 400 });
    // PATCH is heard as PUT (AI Character Rewriter's save).
    expect(await page(r, 'PATCH', `/api/v1/characters/${id}`, JSON_TYPE, body({ personality: 'Patient.' }))).toMatchObject({ status: 200, json: { id, personality: 'Patient.', description: 'Lamp keeper.' } });
    expect(await page(r, 'PUT', `/api/v1/characters/${id}`, JSON_TYPE, body({ name: '' }))).toMatchObject({ status: 400, json: { code: 'INVALID_INPUT' } });
    expect(await page(r, 'PUT', '/api/v1/characters/no-such-character', JSON_TYPE, body({ description: 'x' }))).toMatchObject({ status: 404 });
    await r.host.extensions.revoke('page_reader', ['characters']);
    expect(await page(r, 'PUT', `/api/v1/characters/${id}`, JSON_TYPE, body({ description: 'x' }))).toMatchObject({ status: 403, json: { code: 'PERMISSION_DENIED' } });
  }, 60_000);

  it('POST chats/<id>/branch makes the branch the person’s Branch makes, 201 with its row (its character the origin’s), with chat_mutation only', async () => {
    const r = await withFrontend(['chats', 'chat_mutation'], ['chats', 'chat_mutation']);
    await addMainConnection(r);
    const id = await newSession(r);
    r.server.enqueue({ text: 'one' }, { text: 'two' });
    await send(r, id, 'A');
    await send(r, id, 'B');
    const original = (await r.call('chat.sessions.get', { sessionId: id })).value as ChatSession;
    const at = original.messages[1]!.id;
    const made = await page(r, 'POST', `/api/v1/chats/${id}/branch`, JSON_TYPE, body({ message_id: at, name: 'The other road' }));
    expect(made).toMatchObject({ status: 201, json: { character_id: id, name: 'The other road', metadata: { branched_from: id, branch_at_message: at } } });
    const branch = (await r.call('chat.sessions.get', { sessionId: made.json!.id as string })).value as ChatSession;
    expect(branch.messages).toEqual(original.messages.slice(0, 2));
    expect(((await page(r, 'GET', `/api/v1/chats?characterId=${id}`)).json!.data as Array<{ id: string }>).map((c) => c.id).sort()).toEqual([id, branch.id].sort());
    expect(await page(r, 'POST', `/api/v1/chats/${id}/branch`, JSON_TYPE, body({}))).toMatchObject({ status: 400, json: { code: 'INVALID_INPUT' } });
    expect(await page(r, 'POST', `/api/v1/chats/${id}/branch`, JSON_TYPE, body({ message_id: at, name: 7 }))).toMatchObject({ status: 400 });
    expect(await page(r, 'POST', `/api/v1/chats/${id}/branch`, JSON_TYPE, body({ message_id: 'no-such-message' }))).toMatchObject({ status: 404, json: { code: 'NOT_FOUND' } });
    expect(await page(r, 'POST', '/api/v1/chats/no-such-chat/branch', JSON_TYPE, body({ message_id: at }))).toMatchObject({ status: 404 });
    await r.host.extensions.revoke('page_reader', ['chat_mutation']);
    const before = ((await r.call('chat.sessions.list', {})).value as unknown[]).length;
    expect(await page(r, 'POST', `/api/v1/chats/${id}/branch`, JSON_TYPE, body({ message_id: at }))).toMatchObject({ status: 403, json: { code: 'PERMISSION_DENIED' } });
    expect(((await r.call('chat.sessions.list', {})).value as unknown[]).length).toBe(before);
  }, 60_000);
});
