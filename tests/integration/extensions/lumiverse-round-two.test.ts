// Lumiverse extensions, round two: what published extensions met that Lumiverse accepts — written the way
// their authors write (a TypeScript entry_backend, an empty tsconfig, a seed to ".", a four-part version,
// Bun's APIs, a Bun-built bundle with import.meta.require, CHAT_SWITCHED state, macros.resolve, the
// Lumia catalog, state saved at GENERATION_ENDED as the host stops).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { addMainConnection, chatRig, newSession, send, type ChatRig } from '../chat/helpers';
import { fixture, waitFor } from './harness';

const ID = 'lumiverse_roundtwo';
let rig: ChatRig | null = null;

afterEach(async () => {
  await rig?.close();
  rig = null;
  cleanupTempDirs();
});

async function host(): Promise<ChatRig> {
  rig = await chatRig();
  return rig;
}

async function install(r: ChatRig, name = ID): Promise<string[]> {
  const progress: string[] = [];
  await r.host.extensions.installFromFolder(fixture(name), { grant: 'requested', trust: true }, (line) => progress.push(line));
  await waitFor(() => r.host.extensions.get(name).status === 'running' && r.host.registry.list().some((t) => t.qualifiedName.startsWith(`${name}:`)), `${name} to run`);
  return progress;
}

async function invoke<T>(r: ChatRig, tool: string, extension = ID): Promise<T> {
  const outcome = await r.host.registry.invoke(`${extension}:${tool}`, {}, { timeoutMs: 20_000 });
  if (!outcome.ok) throw new Error(`${tool}: ${JSON.stringify(outcome.error)}`);
  return JSON.parse(outcome.content) as T;
}

const storage = (r: ChatRig, file: string) => path.join(r.dataDir, 'extension-data', ID, 'storage', file);
const readJson = (file: string) => (fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : null);

describe('installing what Lumiverse accepts', () => {
  it('a four-part version, a TypeScript entry_backend built beside it, an empty tsconfig ignored with a line, storage seeded into its root', async () => {
    const r = await host();
    const progress = await install(r);
    expect(progress).toEqual(
      expect.arrayContaining(['Building src/backend.ts → src/backend.workbench.mjs…', 'tsconfig.json is empty; built without it, as Bun does.', 'Built src/backend.workbench.mjs.', 'Seeded storage with seed.']),
    );
    expect(r.host.extensions.get(ID)).toMatchObject({ version: '6.7.6.7', status: 'running' });
    expect(fs.readFileSync(storage(r, 'greeting.txt'), 'utf8')).toBe('Hello from the seeded storage root.\n');
    expect(fs.readFileSync(storage(r, 'notes/first.md'), 'utf8')).toBe('# First note\n');
  });

  it('a Bun-built bundle with import.meta.require runs; a newer minimum_lumiverse_version installs with a warning; inert permissions are listed', async () => {
    const r = await host();
    const progress = await install(r, 'lumiverse_bunbundle');
    expect(progress).toContain("dist/backend.js uses Bun's import.meta.require; the installed copy uses Node's createRequire in its place.");
    const outcome = await r.host.registry.invoke('lumiverse_bunbundle:digest', { text: 'council' }, { timeoutMs: 20_000 });
    expect(outcome).toMatchObject({ ok: true, content: `${createHash('sha1').update('council').digest('hex')} on ${process.platform}` });
    // The published file itself is untouched.
    expect(fs.readFileSync(path.join(fixture('lumiverse_bunbundle'), 'dist', 'backend.js'), 'utf8')).toContain('var __require = import.meta.require;');
    const info = r.host.extensions.get('lumiverse_bunbundle');
    expect(info.warnings).toEqual([expect.stringContaining('asks for Lumiverse 9.0.0 or newer; the Workbench matches Lumiverse 1.1.0')]);
    const inspected = await r.call('extensions.inspect', { folder: fixture('lumiverse_bunbundle') });
    // ui_panels and regex_scripts are requested too, both real now (frontends run; regex scripts are kept and applied).
    expect(inspected).toMatchObject({ ok: true, value: { notAvailable: [], answeredEmpty: ['databanks'] } });
  });
});

describe('Bun, as published bundles use it', () => {
  it('hashes, compresses, sleeps and reads and writes files within the extension’s rules (fetch of its own file: URLs too); the rest is UNSUPPORTED_HERE, logged once', async () => {
    const r = await host();
    await install(r);
    const tour = await invoke<Record<string, unknown>>(r, 'bun');
    expect(tour).toEqual({
      md5: createHash('md5').update('council').digest('hex'),
      sha: createHash('sha256').update('council').digest('hex'),
      unzipped: 'raw deflate, as in a zip entry',
      gz: 'gzip round trip',
      greeting: 'Hello from the seeded storage root.',
      wrote: 'bytes from Bun.write'.length,
      readBack: 'bytes from Bun.write',
      own: true,
      outside: 'PATH_NOT_ALLOWED',
      fetched: { text: 'Hello from the seeded storage root.', type: 'text/plain; charset=utf-8', outside: 'PATH_NOT_ALLOWED', missing: 'TypeError' },
      serve: 'UNSUPPORTED_HERE',
      hash: expect.stringMatching(/^\d+$/),
      version: 'string',
      envKeys: true,
    });
    expect(fs.readFileSync(storage(r, 'written-by-bun.txt'), 'utf8')).toBe('bytes from Bun.write');
    await invoke(r, 'bun');
    expect(r.host.extensions.getLogLines(ID).filter((l) => l.includes('Bun.serve is not available')).length).toBe(1);
  });
});

describe('chats, macros and the catalog', () => {
  const MARA = { character: { name: 'Mara', description: 'Keeper of the lamp.', personality: '', scenario: '' }, persona: { name: 'Tom', description: '' } };

  it('CHAT_SWITCHED ({ chatId }) and SETTINGS_UPDATED (activeChatId; the chat’s own activePersonaId only with personas, which it lacks) reach it when a session is opened, and a worker that starts with one open hears them too', async () => {
    const r = await host();
    const first = await newSession(r, MARA);
    expect(await r.call('chat.sessions.open', { sessionId: first })).toEqual({ ok: true, value: { active: first } });
    await install(r);
    await waitFor(() => readJson(storage(r, 'active.json'))?.chatId === first, 'the state seeded at start');
    await waitFor(() => readJson(storage(r, 'setting.json'))?.activeChatId === first, 'the setting told at start');
    const second = await newSession(r, MARA);
    await r.call('chat.sessions.open', { sessionId: second });
    await waitFor(() => readJson(storage(r, 'active.json'))?.chatId === second, 'the state seeded on the switch');
    expect(readJson(storage(r, 'active.json'))).toEqual({ chatId: second, turns: 0, seededBy: 'CHAT_SWITCHED' });
    await waitFor(() => readJson(storage(r, 'setting.json'))?.activeChatId === second, 'the setting told on the switch');
    expect(readJson(storage(r, 'setting.json'))).toEqual({ activeChatId: second });
    expect(await r.call('chat.sessions.open', { sessionId: 'no-such-session' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('CHARACTER_CREATED, CHARACTER_EDITED, PERSONA_CHANGED, CHAT_DELETED and CHARACTER_DELETED reach it as the person makes, edits and deletes, without the fields it may not read (no characters or personas permission)', async () => {
    const r = await host();
    await install(r);
    const id = await newSession(r, MARA);
    // A branch is no new character (CHAT_FORKED tells it).
    await addMainConnection(r);
    r.server.enqueue({ text: 'The lamp is lit.' });
    await send(r, id, 'Is the lamp lit?');
    const [asked] = ((await r.call('chat.sessions.get', { sessionId: id })) as { value: { messages: Array<{ id: string }> } }).value.messages;
    expect(await r.call('chat.sessions.branch', { sessionId: id, messageId: asked!.id })).toMatchObject({ ok: true });
    await r.call('chat.sessions.update', { sessionId: id, patch: { character: { ...MARA.character, description: 'Keeper of two lamps.' } } });
    await r.call('chat.sessions.update', { sessionId: id, patch: { persona: { name: 'Tom', description: 'A sailor.' } } });
    await r.call('chat.sessions.update', { sessionId: id, patch: { title: 'Only a title' } });
    // The editor saves every part at once: unchanged ones are not told.
    await r.call('chat.sessions.update', { sessionId: id, patch: { character: { ...MARA.character, description: 'Keeper of two lamps.' }, persona: { name: 'Tom', description: 'A sailor.' }, worldInfo: [] } });
    await r.call('chat.sessions.delete', { sessionId: id });
    await waitFor(() => (readJson(storage(r, 'records.json')) as unknown as unknown[] | null)?.length === 5, 'the five events');
    expect(readJson(storage(r, 'records.json'))).toEqual([
      { event: 'CHARACTER_CREATED', payload: { id } },
      { event: 'CHARACTER_EDITED', payload: { id } },
      { event: 'PERSONA_CHANGED', payload: { id: `persona-${id}` } },
      { event: 'CHAT_DELETED', payload: { id } },
      { event: 'CHARACTER_DELETED', payload: { id } },
    ]);
  });

  it('macros.resolve runs the turn’s macro engine on the active session, extension macros too; unknown macros stay as written', async () => {
    const r = await host();
    const id = await newSession(r, MARA);
    await r.call('chat.sessions.open', { sessionId: id });
    await install(r);
    expect(await invoke(r, 'refine')).toEqual({ text: 'Refine the reply of Mara (Keeper of the lamp.) for Tom; the lamp is lit (turn 0); keep {{unknownMacro}} as written.', diagnostics: [] });
  });

  it("spindle.push (Character Nudges): available while the app runs; each notification reaches the window with its chat; five a minute; push_notification needed", async () => {
    const r = await host();
    await install(r);
    // The install lists push_notification as a permission that does something here.
    expect(await r.call('extensions.inspect', { folder: fixture(ID) })).toMatchObject({ ok: true, value: { notAvailable: [] } });
    const answer = await invoke<{ status: unknown; sent: unknown[] }>(r, 'nudge');
    expect(answer.status).toEqual({ available: true, subscriptionCount: 1 });
    expect(answer.sent).toEqual([...Array.from({ length: 5 }, () => ({ sent: 1 })), { error: 'RATE_LIMITED' }]);
    const pushes = r.events.filter((e): e is Extract<typeof e, { type: 'extension.toast' }> => e.type === 'extension.toast' && e.toast.push !== undefined);
    expect(pushes).toHaveLength(5);
    expect(pushes[0]).toEqual({ type: 'extension.toast', id: ID, toast: { level: 'info', title: 'Mara misses you', message: 'It has been a while (1).', durationMs: 8_000, push: { chatId: 'chat-7', tag: 'nudge-chat-7' } } });
    expect(r.host.extensions.getLogLines(ID).some((l) => l.includes('notification: Mara misses you — It has been a while (1).'))).toBe(true);
    await r.host.extensions.revoke(ID, ['push_notification']);
    await expect(invoke(r, 'nudge')).rejects.toThrow(/PERMISSION_DENIED/);
  });

  it('F8: spindle.toast.* reaches the window as an event with its level, title and a capped time, and its log; a flood is cut at five', async () => {
    const r = await host();
    await install(r);
    expect(await invoke(r, 'toast')).toEqual({ called: 7 });
    const toasts = () => r.events.filter((e): e is Extract<typeof e, { type: 'extension.toast' }> => e.type === 'extension.toast');
    await waitFor(() => r.host.extensions.getLogLines(ID).filter((l) => l.includes('spindle.toast.info: RATE_LIMITED')).length === 2, 'the two refused toasts in its log');
    expect(toasts().map((e) => [e.id, e.toast.level, e.toast.message])).toEqual([
      [ID, 'success', 'Summary saved for this chat.'],
      [ID, 'info', 'Step 1'],
      [ID, 'info', 'Step 2'],
      [ID, 'info', 'Step 3'],
      [ID, 'info', 'Step 4'],
    ]);
    expect(toasts()[0]!.toast).toEqual({ level: 'success', message: 'Summary saved for this chat.', title: 'Summary+', durationMs: 30_000 });
    expect(r.host.extensions.getLogLines(ID).some((l) => l.includes('toast: Summary+ — Summary saved for this chat.'))).toBe(true);
  });

  it("dlc.getCatalog() answers the installed Lumia packs and their items in Lumiverse's catalog (XTimeline's Lumia actors)", async () => {
    const r = await host();
    await install(r);
    const packs = (await r.call('packs.list', {})).value as Array<{ id: string; name: string; source: string; items: Array<{ id: string }> }>;
    expect(packs.length).toBeGreaterThan(0);
    expect(await invoke(r, 'catalog')).toEqual({
      lumia: packs.reduce((sum, p) => sum + p.items.length, 0),
      packs: packs.map((p) => ({ id: p.id, name: p.name, is_custom: p.source === 'user' })),
      items: packs.flatMap((p) => p.items.map((i) => `${p.id}/${i.id}`)),
      loom: 0,
    });
  });

  it.each(['the host stops', 'the extension is disabled'])('state saved at GENERATION_ENDED is on disk when %s right after the turn', async (how) => {
    const r = await host();
    await addMainConnection(r);
    const id = await newSession(r, MARA);
    await install(r);
    r.server.enqueue({ text: 'The lamp is lit.' });
    await send(r, id, 'Light the lamp.');
    if (how === 'the host stops') {
      // At once, as a CLI `chat` command does when its turn is done (and the app on quit).
      await r.close();
      rig = null;
    } else {
      await r.host.extensions.disable(ID);
    }
    expect(readJson(storage(r, `chats/${id}.json`))).toMatchObject({ chatId: id, turns: 1 });
  });
});
