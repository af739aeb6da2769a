// Importing from the window: the file's bytes as base64 over the contract (a PNG card of several MB passes the
// import cap that other calls do not get), a preview to choose the greeting from, the card's picture kept beside the
// session and written back into a PNG card, lorebooks into an existing session; bad files create nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../../electron/core/host';
import { parseCardFile } from '../../../electron/core/imports/character-card';
import { pngTextChunks, withPngTextChunks } from '../../../electron/core/imports/png-text';
import { MAX_IMPORT_INPUT_BYTES, MAX_INPUT_BYTES } from '../../../shared/limits';
import { testHost } from '../../helpers/node-host';
import { addMainConnection, chatRig, finished, type ChatRig } from '../chat/helpers';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { PIXEL, withChunkBeforeEnd } from '../../helpers/png';

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.dispose()));
  cleanupTempDirs();
});

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64');

/** A PNG whose image data is padded by a private chunk of `padBytes` (a large avatar), with the card in `chara`. */
function cardPng(card: unknown, padBytes: number): { png: Buffer; picture: Buffer } {
  const picture = withChunkBeforeEnd(PIXEL, 'prVt', Buffer.alloc(padBytes, 7));
  return { png: withPngTextChunks(picture, { chara: b64(card) }), picture };
}

const MARA = {
  spec: 'chara_card_v2',
  data: {
    name: 'Mara',
    description: 'Keeper of the lamp.',
    first_mes: 'You made it.',
    alternate_greetings: ['Late again.', 'Storm tonight.'],
    extensions: { 'someone/tool': { keep: 1 } },
    character_book: { entries: [{ keys: ['lamp'], content: 'The lamp burns whale oil.' }] },
  },
};

async function host() {
  const dataDir = tempDir();
  const h = await testHost(dataDir);
  hosts.push(h);
  const call = (method: string, input: unknown) => h.api.call(method, input, { origin: 'ws' }) as Promise<{ ok: boolean; value?: never; error?: { code: string; path?: string } }>;
  return { dataDir, call };
}

describe('importing a file from the window', () => {
  it('a 6 MB PNG card: previewed with its greetings, imported with the chosen one, its picture kept and written back into a PNG card', async () => {
    const { dataDir, call } = await host();
    const { png, picture } = cardPng(MARA, 6 * 1024 * 1024);
    expect(png.length * (4 / 3)).toBeGreaterThan(MAX_INPUT_BYTES); // over the cap of an ordinary call

    const preview = await call('chat.sessions.inspectData', { data: png.toString('base64') });
    expect(preview).toMatchObject({ ok: true, value: { kind: 'card', characterName: 'Mara', greetings: 3, greetingTexts: ['You made it.', 'Late again.', 'Storm tonight.'], worldInfoEntries: 1, avatar: true } });
    expect((await call('chat.sessions.list', {})).value).toEqual([]); // a preview creates nothing

    const imported = await call('chat.sessions.importData', { data: png.toString('base64'), greeting: 2 });
    expect(imported).toMatchObject({ ok: true, value: { kind: 'card', characterName: 'Mara', greetings: 3, worldInfoEntries: 1, messages: 1, avatar: true } });
    const id = (imported.value as unknown as { id: string }).id;
    const session = (await call('chat.sessions.get', { sessionId: id })).value as unknown as { messages: Array<{ content: string }>; avatar: { bytes: number }; metadata?: Record<string, unknown> };
    expect(session.messages.map((m) => m.content)).toEqual(['Storm tonight.']);
    // Which greeting opened it, where Lumiverse's greeting picker keeps it (an extension reads it as the chat's metadata).
    expect(session.metadata).toEqual({ activeGreetingIndex: 2 });
    expect(session.avatar.bytes).toBe(picture.length);
    // The picture is the card's image without the card text in it.
    const avatar = (await call('chat.sessions.avatar', { sessionId: id })).value as unknown as { dataUrl: string };
    expect(Buffer.from(avatar.dataUrl.replace('data:image/png;base64,', ''), 'base64').equals(picture)).toBe(true);

    const exported = (await call('chat.sessions.exportAs', { sessionId: id, format: 'card-v3-png' })).value as unknown as { fileName: string; content: string; encoding: string };
    expect(exported).toMatchObject({ fileName: 'Mara.card-v3.png', encoding: 'base64' });
    const back = Buffer.from(exported.content, 'base64');
    const chunks = pngTextChunks(back);
    expect(JSON.parse(Buffer.from(chunks.get('ccv3')!, 'base64').toString())).toMatchObject({ spec: 'chara_card_v3', data: { name: 'Mara', extensions: { 'someone/tool': { keep: 1 } } } });
    expect(JSON.parse(Buffer.from(chunks.get('chara')!, 'base64').toString())).toMatchObject({ spec: 'chara_card_v2' });
    expect(withPngTextChunks(back, {}, ['chara', 'ccv3']).equals(picture)).toBe(true);
    // Round trip: the exported PNG imports as the same card.
    const again = parseCardFile(back);
    expect(again).toMatchObject({ spec: 'chara_card_v3', name: 'Mara', greetings: ['You made it.', 'Late again.', 'Storm tonight.'] });
    expect(again.book?.entries.map((e) => e.content)).toEqual(['The lamp burns whale oil.']);

    // Deleting the session takes its picture along.
    expect(fs.readdirSync(path.join(dataDir, 'sessions')).filter((f) => f.endsWith('.avatar.png'))).toHaveLength(1);
    await call('chat.sessions.delete', { sessionId: id });
    expect(fs.readdirSync(path.join(dataDir, 'sessions'))).toEqual([]);
  }, 60_000);

  it('a session without a picture exports a PNG card on a plain square; a V2 PNG has only chara', async () => {
    const { call } = await host();
    const imported = await call('chat.sessions.importData', { data: b64(MARA) });
    expect(imported).toMatchObject({ ok: true, value: { avatar: false } });
    const id = (imported.value as unknown as { id: string }).id;
    expect((await call('chat.sessions.avatar', { sessionId: id })).value).toEqual({ dataUrl: null });
    const exported = (await call('chat.sessions.exportAs', { sessionId: id, format: 'card-v2-png' })).value as unknown as { content: string };
    const chunks = pngTextChunks(Buffer.from(exported.content, 'base64'));
    expect([...chunks.keys()]).toEqual(['chara']);
    expect(parseCardFile(Buffer.from(exported.content, 'base64')).name).toBe('Mara');
  });

  it('a SillyTavern chat and an exported session come in through the same door', async () => {
    const { call } = await host();
    const chat = ['{"user_name":"Tom","character_name":"Mara"}', '{"name":"Mara","is_user":false,"mes":"Hello."}', '{"name":"Tom","is_user":true,"mes":"Hi."}'].join('\n');
    const fromChat = await call('chat.sessions.importData', { data: b64(chat) });
    expect(fromChat).toMatchObject({ ok: true, value: { kind: 'st-chat', characterName: 'Mara', messages: 2 } });
    const exported = (await call('chat.sessions.exportAs', { sessionId: (fromChat.value as unknown as { id: string }).id, format: 'workbench' })).value as unknown as { content: string };
    expect(await call('chat.sessions.inspectData', { data: b64(exported.content) })).toMatchObject({ ok: true, value: { kind: 'session', characterName: 'Mara', messages: 2 } });
    expect(await call('chat.sessions.importData', { data: b64(exported.content) })).toMatchObject({ ok: true, value: { kind: 'session', messages: 2 } });
    expect((await call('chat.sessions.list', {})).value).toHaveLength(2);
  });

  it('a lorebook joins an existing session; fields it keeps but does not act on are listed', async () => {
    const { call } = await host();
    const id = ((await call('chat.sessions.importData', { data: b64(MARA) })).value as unknown as { id: string }).id;
    const book = { entries: { 0: { key: ['harbor'], content: 'Chains.', position: 2, probability: 50 }, 1: { key: ['cliff'], content: 'Steep.' } } };
    expect(await call('chat.sessions.addLorebook', { sessionId: id, content: JSON.stringify(book) })).toEqual({ ok: true, value: { added: 2, duplicates: 0, worldInfoEntries: 3, ignored: ['position', 'probability'] } });
  });

  it.each([
    ['text that is not base64', { data: 'not base64!' }, 'INVALID_INPUT', '/data'],
    ['a PNG without a card chunk', { data: withPngTextChunks(PIXEL, { Comment: 'just a picture' }).toString('base64') }, 'INVALID_INPUT', '/png'],
    ['bad base64 inside the chara chunk', { data: withPngTextChunks(PIXEL, { chara: '%%%' }).toString('base64') }, 'INVALID_INPUT', '/png/chara'],
    ['JSON that is not a card', { data: b64({ hello: 'world' }) }, 'INVALID_INPUT', '/spec'],
    ['a greeting out of range', { data: b64(MARA), greeting: 3 }, 'INVALID_INPUT', '/greeting'],
    ['a lorebook of 10,000 entries', { data: b64(MARA), lorebooks: [b64({ entries: Array.from({ length: 10_000 }, () => ({ key: ['a'], content: 'b' })) })] }, 'INPUT_TOO_LARGE', '/lorebooks/0/entries'],
    ['a bad lorebook', { data: b64(MARA), lorebooks: [b64('{"entries": 5}')] }, 'INVALID_INPUT', '/lorebooks/0/entries'],
  ])('%s: refused with a code naming the field, and nothing is created', async (_label, input, code, at) => {
    const { call } = await host();
    expect(await call('chat.sessions.importData', input)).toMatchObject({ ok: false, error: { code, path: at } });
    expect((await call('chat.sessions.list', {})).value).toEqual([]);
  });

  it('the import cap is for imports only: an ordinary call over 1 MiB is still refused, and an import over the import cap is refused unread', async () => {
    const { call } = await host();
    expect(await call('chat.sessions.rename', { sessionId: 'x', title: 'y'.repeat(MAX_INPUT_BYTES) })).toMatchObject({ ok: false, error: { code: 'INPUT_TOO_LARGE' } });
    expect(await call('chat.sessions.importData', { data: 'A'.repeat(MAX_IMPORT_INPUT_BYTES) })).toMatchObject({ ok: false, error: { code: 'INPUT_TOO_LARGE' } });
  });
});

describe("a card's own prompt texts", () => {
  const rigs: ChatRig[] = [];
  afterEach(async () => {
    await Promise.all(rigs.splice(0).map((r) => r.close()));
  });

  it('system_prompt replaces the opening line ({{original}} keeps it), mes_example shows as example dialogue, post-history instructions close the system prompt; macros resolve in each', async () => {
    const rig = await chatRig();
    rigs.push(rig);
    const call = rig.call.bind(rig);
    await addMainConnection(rig);
    const card = {
      spec: 'chara_card_v2',
      data: {
        name: 'Mara',
        description: 'Keeper.',
        first_mes: 'Hi.',
        system_prompt: 'Write as {{char}} in second person. {{original}}',
        mes_example: '<START>\n{{user}}: Is it lit?\n{{char}}: Since dusk.',
        post_history_instructions: 'Keep replies under 80 words. {{original}}',
      },
    };
    const id = ((await call('chat.sessions.importData', { data: b64(card) })).value as unknown as { id: string }).id;
    const sent = await call('chat.send', { sessionId: id, text: 'Hello there', dryRun: true });
    const done = await finished(rig, (sent.value as { turnId: string }).turnId);
    const system = (done as { prompt: Array<{ role: string; content: string }> }).prompt[0]!;
    expect(system.role).toBe('system');
    expect(system.content.startsWith('Write as Mara in second person. You are Mara. Stay in character and reply to User.')).toBe(true);
    expect(system.content).toContain('## Example dialogue\n<START>\nUser: Is it lit?\nMara: Since dusk.');
    expect(system.content.endsWith('## Instructions\nKeep replies under 80 words.')).toBe(true);
  });
});
