// Lumiverse's own REST API as an extension's frontend reaches for it (the frames' compatibility layer): each route
// answered in Lumiverse's shape within the extension's permissions, others with Lumiverse's error shape, and tus
// uploads kept to the extension that made them, with the protocol's refusals.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addMainConnection, chatRig, newSession, send } from '../chat/helpers';
import { PIXEL, withChunkBeforeEnd } from '../../helpers/png';
import { withPngTextChunks } from '../../../electron/core/imports/png-text';
import { frameFile } from '../../../electron/core/extensions/frontend-files';
import { frameLabel } from '../../../shared/frames/frame-origin';
import { fixture, waitFor } from './harness';
import { frontendRigs, page, type Answer } from './page-rig';
import { MAX_OPEN_BYTES, MAX_OPEN_UPLOADS, MAX_UPLOAD_BYTES } from '../../../electron/core/extensions/spindle-host/extension-uploads';

const { withFrontend, adopt } = frontendRigs();

describe("a frontend's /api/v1 requests", () => {
  it('reads the active chat, chats and characters in Lumiverse shapes with their permissions; refuses without them; anything else is a 404 in its error shape', async () => {
    const r = await withFrontend(['chats', 'characters'], ['chats']);
    const id = await newSession(r);
    expect((await page(r, 'GET', '/api/v1/settings/activeChatId')).json).toMatchObject({ key: 'activeChatId', value: null });
    await r.call('chat.sessions.open', { sessionId: id });
    expect((await page(r, 'GET', '/api/v1/settings/activeChatId')).json).toMatchObject({ key: 'activeChatId', value: id });
    const chats = await page(r, 'GET', '/api/v1/chats?limit=5');
    expect(chats.status).toBe(200);
    expect(chats.json).toMatchObject({ total: 1, limit: 5, offset: 0, data: [{ id }] });
    expect(await page(r, 'GET', `/api/v1/chats/${id}?messages=false`)).toMatchObject({ status: 200, json: { id } });
    expect(await page(r, 'GET', '/api/v1/chats/nope')).toMatchObject({ status: 404, json: { error: 'Not found' } });
    // Its messages need chat_mutation, which it was not granted: the chat comes alone; the messages route refuses.
    expect((await page(r, 'GET', `/api/v1/chats/${id}`)).json?.messages).toBeUndefined();
    expect(await page(r, 'GET', `/api/v1/chats/${id}/messages`)).toMatchObject({ status: 403, json: { code: 'PERMISSION_DENIED' } });
    expect(await page(r, 'GET', '/api/v1/characters')).toMatchObject({ status: 403, json: { code: 'PERMISSION_DENIED', error: expect.stringContaining('characters') } });
    expect(await page(r, 'GET', '/api/v1/personas')).toMatchObject({ status: 403 });
    expect(await page(r, 'GET', '/api/v1/system/info')).toMatchObject({ status: 200, json: { backend: { runtime: 'Council Workbench' }, os: { hostname: '' } } });
    // Speech connections: none here, an empty page as Lumiverse's (Cue's speech card says there are none); one by id is not found.
    expect(await page(r, 'GET', '/api/v1/tts-connections?limit=50')).toMatchObject({ status: 200, json: { data: [], total: 0, limit: 50, offset: 0 } });
    expect(await page(r, 'GET', '/api/v1/tts-connections/providers')).toMatchObject({ status: 200, json: { providers: [] } });
    expect(await page(r, 'GET', '/api/v1/tts-connections/abc')).toMatchObject({ status: 404 });
    expect(await page(r, 'DELETE', '/api/v1/chats/x')).toMatchObject({ status: 404, json: { error: 'Not available in the Council Workbench: DELETE /api/v1/chats/x' } });
    expect(await page(r, 'GET', '/other')).toMatchObject({ status: 404 });
    // Its card lists what it was refused, as for its backend's calls.
    expect(r.host.extensions.get('page_reader').refused).toEqual(expect.arrayContaining([expect.stringMatching(/^characters — /)]));
    // An extension that is not running has no page to answer for.
    await r.host.extensions.disable('page_reader');
    expect(await r.call('extensions.pageRequest', { id: 'page_reader', method: 'GET', path: '/api/v1/system/info', headers: {} })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  }, 60_000);

  it("ctx.chats.updateMessage's route: a message's text changed with chat_mutation and handed back; refused without it, or for a bad body or message", async () => {
    const r = await withFrontend(['chat_mutation'], ['chat_mutation']);
    await addMainConnection(r);
    const id = await newSession(r);
    const { turn } = await send(r, id, 'The lamp is out.');
    const route = `/api/v1/chats/${id}/messages/${turn.assistantMessageId}`;
    const edited = await page(r, 'PUT', route, { 'content-type': 'application/json' }, { text: JSON.stringify({ content: 'The lamp is lit again.' }) });
    expect(edited).toMatchObject({ status: 200, json: { id: turn.assistantMessageId, chat_id: id, content: 'The lamp is lit again.' } });
    expect(((await page(r, 'GET', `/api/v1/chats/${id}/messages`)).json?.data as Array<{ content: string }>).map((m) => m.content)).toEqual(['The lamp is out.', 'The lamp is lit again.']);
    // PATCH is heard as PUT.
    expect(await page(r, 'PATCH', route, {}, { text: '{"content":"The lamp, once more."}' })).toMatchObject({ status: 200, json: { content: 'The lamp, once more.' } });
    expect(await page(r, 'PUT', route, {}, { text: '[1]' })).toMatchObject({ status: 400, json: { code: 'INVALID_INPUT' } });
    expect(await page(r, 'PUT', route, {}, { text: '{"content": 7}' })).toMatchObject({ status: 400 });
    expect(await page(r, 'PUT', route, {}, { text: 'not json' })).toMatchObject({ status: 400 });
    expect(await page(r, 'PUT', `/api/v1/chats/${id}/messages/no-such-message`, {}, { text: '{"content":"x"}' })).toMatchObject({ status: 404, json: { code: 'NOT_FOUND' } });
    await r.host.extensions.revoke('page_reader', ['chat_mutation']);
    expect(await page(r, 'PUT', route, {}, { text: '{"content":"x"}' })).toMatchObject({ status: 403, json: { code: 'PERMISSION_DENIED' } });
  }, 60_000);

  it("a character's picture: its image_id on the character, served at /api/v1/images/<image_id> by the page and the frame's origin, with the characters permission only", async () => {
    const r = await withFrontend(['characters'], ['characters']);
    const picture = withChunkBeforeEnd(PIXEL, 'prVt', Buffer.from('the picture itself'));
    const card = withPngTextChunks(picture, { chara: Buffer.from(JSON.stringify({ spec: 'chara_card_v2', data: { name: 'Mara', description: 'Keeper.' } })).toString('base64') });
    const imported = await r.call('chat.sessions.importData', { data: card.toString('base64') });
    const id = (imported.value as { id: string }).id;
    const plain = await newSession(r);
    expect((await page(r, 'GET', `/api/v1/characters/${plain}`)).json).toMatchObject({ image_id: null });
    const character = (await page(r, 'GET', `/api/v1/characters/${id}`)).json as { image_id: string };
    expect(character.image_id).toBe(`avatar-${id}`);
    const fetched = await page(r, 'GET', `/api/v1/images/${character.image_id}`);
    expect(fetched).toMatchObject({ status: 200, headers: { 'content-type': 'image/png' }, bodyEncoding: 'base64' });
    const served = Buffer.from(fetched.body, 'base64');
    expect(served.subarray(0, 8)).toEqual(PIXEL.subarray(0, 8));
    expect(served.includes(Buffer.from('the picture itself'))).toBe(true);
    // The frame's origin serves the same file to an <img>; another extension's origin, a made-up id or a path, nothing.
    const label = frameLabel('page_reader');
    const at = (l: string, imageId: string) => frameFile(l, `/api/v1/images/${imageId}`, r.dataDir, () => null, () => null, (x, i) => r.host.extensions.frames.avatarFile(x, i));
    expect(fs.readFileSync(at(label, character.image_id)!)).toEqual(served);
    expect(at(frameLabel('someone_else'), character.image_id)).toBeNull();
    expect(at(label, `avatar-${plain}`)).toBeNull();
    expect(at(label, 'avatar-..%2Fchats.db')).toBeNull();
    expect(await page(r, 'GET', `/api/v1/images/avatar-${plain}`)).toMatchObject({ status: 404 });
    // Lumiverse's character route for the same picture (Megumin Suite's hero image), by fetch and by <img>.
    expect(Buffer.from((await page(r, 'GET', `/api/v1/characters/${id}/avatar?size=lg`)).body, 'base64')).toEqual(served);
    const byRoute = (l: string, characterId: string) => frameFile(l, `/api/v1/characters/${characterId}/avatar`, r.dataDir, () => null, () => null, (x, i) => r.host.extensions.frames.avatarFile(x, i));
    expect(fs.readFileSync(byRoute(label, id)!)).toEqual(served);
    expect(byRoute(label, plain)).toBeNull();
    expect(byRoute(frameLabel('someone_else'), id)).toBeNull();
    expect(byRoute(label, '..%2F..%2Fchats.db')).toBeNull();
    expect(await page(r, 'GET', `/api/v1/characters/${plain}/avatar`)).toMatchObject({ status: 404 });
    // Without characters: neither the page nor the origin hands it over.
    await r.host.extensions.revoke('page_reader', ['characters']);
    expect(await page(r, 'GET', `/api/v1/images/${character.image_id}`)).toMatchObject({ status: 404 });
    expect(await page(r, 'GET', `/api/v1/characters/${id}/avatar`)).toMatchObject({ status: 404 });
    expect(at(label, character.image_id)).toBeNull();
    expect(byRoute(label, id)).toBeNull();
    // The app itself shows it where a message names it (an extension wrote ![](/api/v1/images/<image_id>) into a reply).
    expect(await r.call('extensions.image', { imageId: character.image_id })).toEqual({ ok: true, value: { dataUrl: `data:image/png;base64,${served.toString('base64')}` } });
    expect(await r.call('extensions.image', { imageId: `avatar-${plain}` })).toEqual({ ok: true, value: { dataUrl: null } });
  }, 60_000);

  it('tus: creates, resumes and appends its own uploads; refuses a tag for another extension, a bad length, a wrong offset, content type or overflow', async () => {
    const r = await withFrontend([], []);
    const meta = (extension: string) => `filename ${Buffer.from('a.txt').toString('base64')},extension ${Buffer.from(extension).toString('base64')}`;
    expect((await page(r, 'OPTIONS', '/api/v1/spindle-uploads')).headers).toMatchObject({ 'Tus-Resumable': '1.0.0', 'Tus-Extension': 'creation' });
    expect(await page(r, 'POST', '/api/v1/spindle-uploads', { 'Upload-Length': '5', 'Upload-Metadata': meta('someone_else') })).toMatchObject({ status: 403 });
    expect(await page(r, 'POST', '/api/v1/spindle-uploads', { 'Upload-Length': '-1', 'Upload-Metadata': meta('page_reader') })).toMatchObject({ status: 400 });
    expect(await page(r, 'POST', '/api/v1/spindle-uploads', { 'Upload-Length': '5' })).toMatchObject({ status: 400, json: { error: "Upload-Metadata 'extension' is required" } });
    const created = await page(r, 'POST', '/api/v1/spindle-uploads', { 'Upload-Length': '10', 'Upload-Metadata': meta('page_reader') });
    expect(created).toMatchObject({ status: 201, headers: { 'Upload-Offset': '0' } });
    const location = created.headers.Location!;
    const octets = { 'Content-Type': 'application/offset+octet-stream' };
    expect(await page(r, 'PATCH', location, { 'Upload-Offset': '0' }, { bytes: Buffer.from('hello') })).toMatchObject({ status: 415 });
    expect(await page(r, 'PATCH', location, { ...octets, 'Upload-Offset': '0' }, { bytes: Buffer.from('hello') })).toMatchObject({ status: 204, headers: { 'Upload-Offset': '5' } });
    expect(await page(r, 'PATCH', location, { ...octets, 'Upload-Offset': '0' }, { bytes: Buffer.from('again') })).toMatchObject({ status: 409, headers: { 'Upload-Offset': '5' } });
    expect(await page(r, 'HEAD', location)).toMatchObject({ status: 200, headers: { 'Upload-Offset': '5', 'Upload-Length': '10' } });
    expect(await page(r, 'PATCH', location, { ...octets, 'Upload-Offset': '5' }, { bytes: Buffer.from('world and more') })).toMatchObject({ status: 400 });
    expect(await page(r, 'PATCH', location, { ...octets, 'Upload-Offset': '5' }, { bytes: Buffer.from('world') })).toMatchObject({ status: 204, headers: { 'Upload-Offset': '10' } });
    const id = location.split('/').pop()!;
    expect(fs.readFileSync(path.join(r.dataDir, 'extension-data', 'page_reader', 'uploads', id), 'utf8')).toBe('helloworld');
    expect(await page(r, 'HEAD', '/api/v1/spindle-uploads/not-an-upload')).toMatchObject({ status: 404 });
    // A frame cannot fill the disk: a few open uploads at a time, and a cap on what they come to.
    const big = { 'Upload-Length': String(MAX_UPLOAD_BYTES), 'Upload-Metadata': meta('page_reader') };
    const fit = Math.floor((MAX_OPEN_BYTES - 10) / MAX_UPLOAD_BYTES);
    for (let i = 0; i < fit; i++) expect(await page(r, 'POST', '/api/v1/spindle-uploads', big)).toMatchObject({ status: 201 });
    expect(await page(r, 'POST', '/api/v1/spindle-uploads', big)).toMatchObject({ status: 507, json: { code: 'QUOTA_EXCEEDED' } });
    for (let i = fit + 2; i <= MAX_OPEN_UPLOADS; i++) expect(await page(r, 'POST', '/api/v1/spindle-uploads', { 'Upload-Length': '1', 'Upload-Metadata': meta('page_reader') })).toMatchObject({ status: 201 });
    expect(await page(r, 'POST', '/api/v1/spindle-uploads', { 'Upload-Length': '1', 'Upload-Metadata': meta('page_reader') })).toMatchObject({ status: 507 });
  }, 60_000);

  it('a file larger than the worker pipe carries at once reaches the backend whole: spindle.uploads.get reads it in parts', async () => {
    const r = adopt(await chatRig());
    await r.host.extensions.installFromFolder(fixture('lumiverse_page'), { grant: 'requested' }, () => undefined);
    await waitFor(() => r.host.extensions.get('lumiverse_page').status === 'running', 'lumiverse_page to run');
    const size = 9 * 1024 * 1024 + 3;
    // Each byte tells its place: a part put at the wrong offset, or lost, changes the digest.
    const bytes = Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + (i >> 10)) & 0xff));
    bytes.write('Field notes.', 0);
    const ask = async (method: string, where: string, headers: Record<string, string>, body?: Buffer) => {
      const result = await r.call('extensions.pageRequest', { id: 'lumiverse_page', method, path: where, headers, ...(body ? { body: body.toString('base64'), bodyEncoding: 'base64' } : {}) });
      return result.value as Answer;
    };
    const meta = `filename ${Buffer.from('notes.txt').toString('base64')},extension ${Buffer.from('lumiverse_page').toString('base64')}`;
    const location = (await ask('POST', '/api/v1/spindle-uploads', { 'Upload-Length': String(size), 'Upload-Metadata': meta })).headers.Location!;
    // In the parts the frame sends (512 KiB each).
    for (let at = 0; at < size; at += 512 * 1024) {
      const answer = await ask('PATCH', location, { 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': String(at) }, bytes.subarray(at, at + 512 * 1024));
      expect(answer.status).toBe(204);
    }
    await r.call('extensions.sendFrontend', { id: 'lumiverse_page', payload: { type: 'uploaded', uploadId: location.split('/').pop() } });
    // What its backend sent its frontend (the event the window hands the frame).
    const read = await waitFor(() => r.events.find((e) => e.type === 'extension.frontend-message' && (e.payload as { type?: string }).type === 'upload-read'), 'the backend to read the upload', 20_000);
    expect((read as { payload: unknown }).payload).toEqual({ type: 'upload-read', fileName: 'notes.txt', size, head: 'Field notes.', sha256: createHash('sha256').update(bytes).digest('hex'), deleted: true, gone: true });
  }, 60_000);
});
