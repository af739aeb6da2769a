// Lumiverse's frontend extensibility v2 as the host answers a frame (extensions.frontendCall): the domain members are
// the spindle methods its backend could call, with the same permissions and refusals on its card; its settings are
// its own, kept on disk across a restart, with clear refusals for bad keys and values; its route's move to a chat.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { chatRig, newSession, type ChatRig } from '../chat/helpers';
import { waitFor } from './harness';
import { MAX_SETTING_BYTES, MAX_SETTING_KEY } from '../../../electron/core/extensions/spindle-host/frontend-settings';

let rig: ChatRig | null = null;

afterEach(async () => {
  await rig?.close();
  rig = null;
  cleanupTempDirs();
});

const ID = 'folder_tabs';

/** A frontend-only extension asking for `permissions`, installed with `granted`, in `dataDir` when given. */
async function withFrontend(permissions: string[], granted: string[], dataDir?: string): Promise<ChatRig> {
  rig = await chatRig(dataDir ? { dataDir } : {});
  if (!rig.host.extensions.list().some((e) => e.id === ID)) {
    const dir = path.join(tempDir('cw-v2-'), ID);
    fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'spindle.json'), JSON.stringify({ identifier: ID, name: 'Folder Tabs', version: '1.0.0', author: 'A', permissions, entry_frontend: 'dist/frontend.js' }));
    fs.writeFileSync(path.join(dir, 'dist', 'frontend.js'), 'export function setup() {}\n');
    await rig.host.extensions.installFromFolder(dir, { grant: granted as never }, () => undefined);
  }
  await waitFor(() => rig!.host.extensions.get(ID).status === 'running', `${ID} to run`);
  return rig;
}

const frontendCall = (r: ChatRig, method: string, args: unknown[] = []) => r.call('extensions.frontendCall', { id: ID, method, args } as never);

describe("a frontend's v2 members on the host", () => {
  it('world books, tokens and chats are its backend’s calls: answered with the permission, refused without it and listed on its card', async () => {
    const r = await withFrontend(['world_books', 'chats'], ['chats']);
    const id = await newSession(r);
    expect(await frontendCall(r, 'chats.list', [{ limit: 5 }])).toMatchObject({ ok: true, value: { value: { total: 1, data: [{ id }] } } });
    expect(await frontendCall(r, 'chats.get', ['nope'])).toMatchObject({ ok: true, value: { value: null } });
    expect(await frontendCall(r, 'tokens.countText', ['three small words', {}])).toMatchObject({ ok: true, value: { value: { total_tokens: expect.any(Number) } } });
    expect(await frontendCall(r, 'world_books.list', [{}])).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED', message: expect.stringContaining('world_books') } });
    expect(await frontendCall(r, 'connections.list')).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
    expect(r.host.extensions.get(ID).refused).toEqual(expect.arrayContaining([expect.stringMatching(/^world_books — /), expect.stringMatching(/^generation — /)]));
    // Granted, the same call answers.
    await r.host.extensions.grant(ID, ['world_books']);
    const created = await frontendCall(r, 'world_books.create', [{ name: 'Atlas' }]);
    expect(created).toMatchObject({ ok: true, value: { value: { name: 'Atlas' } } });
    const bookId = (created as { value: { value: { id: string } } }).value.value.id;
    expect(await frontendCall(r, 'world_books.entries.create', [bookId, { key: ['harbor'], content: 'The harbor freezes in winter.' }])).toMatchObject({ ok: true });
    expect(await frontendCall(r, 'world_books.entries.list', [bookId, {}])).toMatchObject({ ok: true, value: { value: { total: 1, data: [{ content: 'The harbor freezes in winter.' }] } } });
    // Its arguments are checked as its backend's are: the offending one named.
    expect(await frontendCall(r, 'world_books.entries.list', [42, {}])).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  }, 60_000);

  it("the character editor's save is characters.update: the card's whole extensions replaced with characters, refused without it", async () => {
    const r = await withFrontend(['characters'], []);
    const id = await newSession(r);
    const save = () => frontendCall(r, 'characters.update', [id, { extensions: { lumiscript: { scripts: [{ name: 'greet' }] } } }]);
    expect(await save()).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
    await r.host.extensions.grant(ID, ['characters']);
    expect(await save()).toMatchObject({ ok: true });
    const session = (await r.call('chat.sessions.get', { sessionId: id })) as { ok: true; value: { card?: { data: Record<string, unknown> } } };
    expect(session.value.card?.data.extensions).toEqual({ lumiscript: { scripts: [{ name: 'greet' }] } });
    // The editor saves the whole object: a key left out is gone.
    expect(await frontendCall(r, 'characters.update', [id, { extensions: { mind: { seed: 1 } } }])).toMatchObject({ ok: true });
    const again = (await r.call('chat.sessions.get', { sessionId: id })) as typeof session;
    expect(again.value.card?.data.extensions).toEqual({ mind: { seed: 1 } });
  }, 60_000);

  it("its route's move to a chat opens that chat in the window, counted with its other moves; a chat that is no session is refused", async () => {
    const r = await withFrontend([], []);
    const id = await newSession(r);
    expect(await frontendCall(r, 'route.openChat', [id])).toMatchObject({ ok: true });
    expect(r.events.filter((e) => e.type === 'extension.ui')).toEqual([{ type: 'extension.ui', id: ID, action: 'openChat', chatId: id }]);
    expect(await frontendCall(r, 'route.openChat', ['no-such-chat'])).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: '/chatId' } });
    expect(await frontendCall(r, 'route.openChat', [42])).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/args/0' } });
    for (let i = 0; i < 4; i++) expect(await frontendCall(r, 'route.openChat', [id])).toMatchObject({ ok: true });
    expect(await frontendCall(r, 'route.openChat', [id])).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED' } });
    expect(await frontendCall(r, 'ui.openDrawerTab', ['connections'])).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED' } });
    expect(r.events.filter((e) => e.type === 'extension.ui')).toHaveLength(5);
  });

  it('a frontend runs while its backend is down, as in Lumiverse: a backend that dies at load leaves its frontend answered', async () => {
    rig = await chatRig();
    const dir = path.join(tempDir('cw-v2-'), ID);
    fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'spindle.json'), JSON.stringify({ identifier: ID, name: 'Folder Tabs', version: '1.0.0', author: 'A', permissions: [] }));
    // An older build importing a module that is not there (Creator Notes' backend at 4817eab).
    fs.writeFileSync(path.join(dir, 'dist', 'backend.js'), 'import { rpc } from "@lumiverse/spindle";\nrpc();\n');
    fs.writeFileSync(path.join(dir, 'dist', 'frontend.js'), 'export function setup() {}\n');
    await rig.host.extensions.installFromFolder(dir, {}, () => undefined);
    await waitFor(() => ['crashed', 'failed'].includes(rig!.host.extensions.get(ID).status), `${ID}'s backend to die`);
    expect(rig.host.extensions.get(ID)).toMatchObject({ frontend: { entry: 'dist/frontend.js', runs: true }, lastCrash: expect.any(String) });
    expect(await frontendCall(rig, 'frontendSettings.write', ['shown', true])).toMatchObject({ ok: true });
    expect(await frontendCall(rig, 'frontendSettings.read')).toMatchObject({ ok: true, value: { value: { shown: true } } });
    // Its backend hears nothing: the message is not delivered.
    expect(await rig.call('extensions.sendFrontend', { id: ID, payload: { type: 'ping' } })).toMatchObject({ ok: true, value: { delivered: false } });
    await rig.host.extensions.disable(ID);
    expect(await frontendCall(rig, 'frontendSettings.read')).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  }, 60_000);

  it('only the members the frames have are callable; a stopped extension has no frontend to answer', async () => {
    const r = await withFrontend([], []);
    expect(await frontendCall(r, 'storage.write', ['x', 'y'])).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await frontendCall(r, 'chats.delete', ['x'])).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    await r.host.extensions.disable(ID);
    expect(await frontendCall(r, 'frontendSettings.read')).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: '/id' } });
  }, 60_000);

  it('its settings are its own, kept across a restart; a bad key or an oversized value is refused, naming it, and nothing is lost', async () => {
    const dataDir = tempDir('cw-v2-data-');
    let r = await withFrontend([], [], dataDir);
    expect(await frontendCall(r, 'frontendSettings.read')).toMatchObject({ ok: true, value: { value: {} } });
    expect(await frontendCall(r, 'frontendSettings.write', ['connectionFolders', ['Work', 'Play']])).toMatchObject({ ok: true });
    expect(await frontendCall(r, 'frontendSettings.write', ['__proto__', { polluted: true }])).toMatchObject({ ok: true });
    expect(await frontendCall(r, 'frontendSettings.write', ['gone', 1])).toMatchObject({ ok: true });
    expect(await frontendCall(r, 'frontendSettings.write', ['gone'])).toMatchObject({ ok: true });
    expect(await frontendCall(r, 'frontendSettings.write', ['x'.repeat(MAX_SETTING_KEY + 1), 1])).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/args/0' } });
    expect(await frontendCall(r, 'frontendSettings.write', ['', 1])).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/args/0' } });
    expect(await frontendCall(r, 'frontendSettings.write', ['big', 'y'.repeat(MAX_SETTING_BYTES)])).toMatchObject({ ok: false, error: { code: 'INPUT_TOO_LARGE', path: '/args/1' } });
    // Together its settings have a cap too: the write that would pass it changes nothing.
    for (let i = 0; i < 4; i++) expect(await frontendCall(r, 'frontendSettings.write', [`part${i}`, 'z'.repeat(MAX_SETTING_BYTES - 100)])).toMatchObject({ ok: true });
    expect(await frontendCall(r, 'frontendSettings.write', ['part4', 'z'.repeat(MAX_SETTING_BYTES - 100)])).toMatchObject({ ok: false, error: { code: 'QUOTA_EXCEEDED' } });
    // Eight calls of its frontends at a time: more at once are refused (its frame queues them), none lost.
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => frontendCall(r, 'frontendSettings.write', [`burst${i}`, i])));
    expect(burst.filter((a) => a.ok)).toHaveLength(8);
    expect(burst.filter((a) => !a.ok)).toEqual(Array.from({ length: 4 }, () => expect.objectContaining({ error: expect.objectContaining({ code: 'RATE_LIMITED' }) })));
    for (let i = 0; i < 12; i++) await frontendCall(r, 'frontendSettings.write', [`burst${i}`]);
    // Its backend's storage, opened for the first time after, leaves the settings file where it is (the host's own).
    const origin = { extensionId: ID, allowed: () => true, denyPermission: () => undefined };
    const call = { signal: new AbortController().signal, emit: () => undefined };
    expect(await r.host.extensions.spindleHost.answer(origin, 'storage.list', {}, call)).toEqual({ ok: true, value: [] });
    await r.close();
    rig = null;
    r = await withFrontend([], [], dataDir);
    const read = (await frontendCall(r, 'frontendSettings.read')) as { ok: true; value: { value: Record<string, unknown> } };
    expect(Object.keys(read.value.value).sort()).toEqual(['__proto__', 'connectionFolders', 'part0', 'part1', 'part2', 'part3']);
    expect(read.value.value.connectionFolders).toEqual(['Work', 'Play']);
    expect(Object.getOwnPropertyDescriptor(read.value.value, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 90_000);
});
