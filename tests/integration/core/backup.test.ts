// Backup round trip: everything made in one data folder (sessions with a picture and swipes, a pack of one's own, the
// council, connections with a stored key and a secret header, sampling defaults, an MCP server with a token, an
// installed extension switched off with fewer grants) exported, restored into a fresh folder, exported again: equal,
// and no key in any file. Importing twice changes nothing. Adversarial: not JSON, not a backup, a broken session or pack
// inside (nothing written), a pack with a bundled id, a newer settings version.
import { PERSON } from '../../../electron/core/regex/regex-store';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Backup } from '../../../shared/types/backup';
import { runCli } from '../../../electron/headless/cli/run-cli';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { CANARY, type ChatRig } from '../chat/helpers';
import { ok, rigSet } from './rigs';
import { SessionStore } from '../../../electron/core/chat/session-store';

/** The sessions folder as the host keeps it (the test arranges what the window cannot make: a picture, swipes). */
const store = (r: ChatRig) => new SessionStore({ dataDir: r.dataDir });

const FIXTURE = path.resolve('tests/fixtures/extensions/seed-example');
const rigs = rigSet();
afterEach(async () => {
  await rigs.closeAll();
  cleanupTempDirs();
});

const { rig } = rigs;

const PACK = { id: 'harbor-folk', name: 'Harbor Folk', author: 'Ada', version: '1.0.0', description: 'Harbor hands.', tools: [], items: [{ id: 'pilot', name: 'Pilot', definition: 'Knows the shoals.', personality: 'Calm.', behavior: 'Speaks briefly.', genderIdentity: 0 }] };

async function furnish(r: ChatRig): Promise<void> {
  await ok(r, 'connections.save', { profile: { id: 'cloud', name: 'Cloud', provider: 'openai-compatible', baseUrl: `${r.server.origin}/v1`, defaultModel: 'm1', headers: { 'X-Team-Token': 'team-secret-1' } }, key: CANARY });
  await ok(r, 'settings.update', { patch: { chat: { mainConnectionId: 'cloud', model: '', inlineMaxRounds: 3, dryRun: false, connectionSampling: { cloud: { temperature: 0.6, contextSize: 8192 } } }, ui: { theme: 'dark' } } });
  await ok(r, 'mcp.add', { id: 'notes', name: 'notes', transport: 'stdio', command: 'node', args: ['server.js'], env: { API_TOKEN: 'mcp-secret-2', LEVEL: 'debug' }, enabled: false });
  await ok(r, 'packs.import', { content: JSON.stringify(PACK) });
  await ok(r, 'council.addMember', { packId: 'harbor-folk', itemId: 'pilot', role: 'Navigator' });
  // A council run on a chat: kept in the backup too (it was missing, issue 49's walk).
  await ok(r, 'council.run', { chat: { chatId: 'harbor-chat', messages: [{ role: 'user', content: 'Where to?' }] }, seed: 7 });
  await r.host.council.runs.flush();
  const session = await ok<{ id: string }>(r, 'chat.sessions.create', { title: 'Harbor', character: { name: 'Mira', description: 'Captain.', personality: '', scenario: '' } });
  await store(r).setAvatar(session.id, Buffer.from('89504e470d0a1a0a-not-really-a-png'));
  store(r).mutate(session.id, (s) => {
    s.messages.push({ id: 'u1', role: 'user', content: 'Hi', createdAt: 5 });
    s.messages.push({ id: 'a1', role: 'assistant', content: 'Two', createdAt: 6, swipes: [{ content: 'One', createdAt: 6 }, { content: 'Two', createdAt: 7 }], swipeId: 1 });
  });
  await ok(r, 'extensions.install', { folder: FIXTURE, grant: ['tools'], trust: false });
  await r.host.extensions.whenSettled();
  await ok(r, 'extensions.disable', { id: 'seed-example' });
  // The person's regex script (one an extension wrote is the extension's, and not in a backup).
  r.host.regex.store.create({ name: 'Hide cues', find_regex: '\\[cue\\]', replace_string: '', target: ['display'] }, PERSON);
  r.host.regex.store.create({ name: 'Theirs', find_regex: 'x', target: ['display'] }, { owner: 'some_extension', unrestricted: false });
  // An imported Lumiverse preset the chat's prompt is built from.
  const preset = await ok<{ id: string }>(r, 'chat.presets.import', { json: JSON.stringify({ name: 'Harbor Loom', blocks: [{ id: 'main', name: 'Main', content: 'Sail on.' }, { id: 'h', name: 'History', marker: 'chat_history' }] }) });
  await ok(r, 'settings.update', { patch: { chat: { ...r.host.settings.get().chat, presetId: preset.id } } });
}

const comparable = (b: Backup) => ({ ...b, createdAt: 0, withheld: [] });

describe('backup', () => {
  it('exports everything without a key, restores it into a fresh folder equal to the original, and again changes nothing', async () => {
    const a = await rig();
    await furnish(a);
    const exported = await ok<{ fileName: string; backup: Backup }>(a, 'backup.export', {});
    expect(exported.fileName).toMatch(/^council-workbench-backup-\d{4}-\d\d-\d\d\.json$/);
    const text = JSON.stringify(exported.backup);
    for (const secret of [CANARY, 'team-secret-1', 'mcp-secret-2']) expect(text).not.toContain(secret);
    expect(exported.backup.withheld).toEqual(['connections/cloud: header X-Team-Token', 'connections/cloud: API key', 'mcpServers/notes: env API_TOKEN']);
    expect(exported.backup.sessions).toHaveLength(1);
    expect(exported.backup.packs.map((p) => p.id)).toEqual(['harbor-folk']);
    expect(exported.backup.runs).toEqual([expect.objectContaining({ chatId: 'harbor-chat', seed: 7 })]);
    expect(exported.backup.extensions).toEqual([expect.objectContaining({ id: 'seed-example', enabled: false, granted: ['tools'], source: 'user' })]);
    expect(exported.backup.regexScripts).toEqual([expect.objectContaining({ name: 'Hide cues', find_regex: '\\[cue\\]', owner: '' })]);
    expect(exported.backup.presets).toEqual([expect.objectContaining({ name: 'Harbor Loom', prompt_order: [expect.objectContaining({ id: 'main' }), expect.objectContaining({ marker: 'chat_history' })] })]);

    // A fresh folder: the person installs the extension again, then restores.
    const b = await rig();
    await ok(b, 'extensions.install', { folder: FIXTURE, grant: 'requested', trust: true });
    await b.host.extensions.whenSettled();
    // What reaches a network or runs a command comes back only as accepted (see backup-restore-safety.test.ts).
    const restored = await ok<Record<string, unknown>>(b, 'backup.import', { json: text, accept: ['connection:*', 'mcp:*'] });
    expect(restored).toEqual({
      sessions: 1,
      packs: 1,
      runs: 1,
      presets: 1,
      regexScripts: 1,
      extensions: 1,
      missingExtensions: [],
      keysNeeded: ['Cloud', 'notes'],
      problems: [],
      held: [],
      accepted: [
        { key: 'connection:cloud', kind: 'connection', id: 'cloud', name: 'Cloud', reason: `new: it sends to ${a.server.origin}/v1` },
        { key: 'mcp:notes', kind: 'mcp', id: 'notes', name: 'notes', reason: 'new: it runs node server.js' },
      ],
    });
    const again = await ok<{ backup: Backup }>(b, 'backup.export', {});
    expect(comparable(again.backup)).toEqual(comparable(exported.backup));
    // The preset came back under its own id, so the chat's choice still names it.
    expect((await ok<{ presets: Array<{ id: string }> }>(b, 'chat.presets.list', {})).presets.map((p) => p.id)).toEqual([b.host.settings.get().chat?.presetId]);
    expect((await store(b).avatar(exported.backup.sessions[0]!.id as string))?.toString()).toBe('89504e470d0a1a0a-not-really-a-png');
    expect(b.events.some((e) => e.type === 'chat.sessions.changed')).toBe(true);

    // Idempotent: the same import twice leaves the same folder.
    await ok(b, 'backup.import', { json: text });
    const twice = await ok<{ backup: Backup }>(b, 'backup.export', {});
    expect(comparable(twice.backup)).toEqual(comparable(again.backup));
    for (const file of fs.readdirSync(b.dataDir, { recursive: true }) as string[]) {
      const full = path.join(b.dataDir, file);
      if (fs.statSync(full).isFile()) expect(fs.readFileSync(full, 'utf8')).not.toContain(CANARY);
    }
  }, 60_000);

  it('restored over the same folder keeps its keys, and lists extensions that are not installed', async () => {
    const a = await rig();
    await furnish(a);
    const { backup } = await ok<{ backup: Backup }>(a, 'backup.export', {});
    const before = await ok<{ connections: unknown; mcpServers: unknown }>(a, 'settings.get', {});
    const summary = await ok<Record<string, unknown>>(a, 'backup.import', { json: JSON.stringify(backup) });
    expect(summary).toMatchObject({ keysNeeded: [], problems: [] });
    const profile = (await ok<Array<{ id: string; hasKey: boolean; headers: Record<string, string> }>>(a, 'connections.list', {})).find((p) => p.id === 'cloud')!;
    expect(profile.hasKey).toBe(true);
    // The secret header and the MCP token are this folder's as they were, not blanked by the backup.
    const after = await ok<{ connections: unknown; mcpServers: unknown }>(a, 'settings.get', {});
    expect(after.connections).toEqual(before.connections);
    expect(after.mcpServers).toEqual(before.mcpServers);
    // A preset restored as it is here is no change: its revision stays (extensions holding it are not refused).
    const over = (await ok<{ backup: Backup }>(a, 'backup.export', {})).backup;
    expect(over.presets).toEqual(backup.presets);
    expect(over.regexScripts).toEqual(backup.regexScripts);
    const fresh = await rig();
    expect(await ok(fresh, 'backup.import', { json: JSON.stringify(backup) })).toMatchObject({ extensions: 0, missingExtensions: ['Fixture: seed-example (seed-example 0.0.1)'] });
  }, 60_000);

  it('refuses what is not JSON, and JSON that is not a backup, saying so', async () => {
    const r = await rig();
    expect((await r.call('backup.import', { json: '{"format":' })).error).toMatchObject({ code: 'INVALID_INPUT', path: '/json' });
    const other = (await r.call('backup.import', { json: JSON.stringify({ format: 'something-else' }) })).error!;
    expect(other).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('not a Council Workbench backup') });
    expect(other.path).toMatch(/^\/(format|version|createdAt|settings|sessions|avatars|packs|extensions|withheld)$/);
  });

  it('checks everything before writing: a broken session or pack, a bundled pack id, a newer settings version', async () => {
    const a = await rig();
    await furnish(a);
    const { backup } = await ok<{ backup: Backup }>(a, 'backup.export', {});
    const b = await rig();
    const before = await ok(b, 'settings.get', {});
    const cases: Array<[Backup, string, string]> = [
      [{ ...backup, sessions: [{ ...backup.sessions[0]!, messages: [{ id: 'x', role: 'narrator', content: '', createdAt: 1 }] }] }, 'INVALID_INPUT', '/sessions/0/messages/0/role'],
      [{ ...backup, packs: [{ ...backup.packs[0]!, items: 'none' }] }, 'INVALID_PACK', '/packs/0/items'],
      [{ ...backup, packs: [{ ...backup.packs[0]!, id: 'story-council' }] }, 'CONFLICT', '/packs/0/id'],
      [{ ...backup, packs: [{ ...backup.packs[0]!, items: [{ ...(backup.packs[0]!.items as object[])[0], avatar: 'avatars/pilot.png' }] }] }, 'INVALID_PACK', '/packs/0/items/0/avatar'],
      [{ ...backup, settings: { ...backup.settings, version: 99 } }, 'INVALID_INPUT', '/settings/version'],
      [{ ...backup, presets: [{ ...backup.presets![0]!, id: '../etc' }] }, 'INVALID_INPUT', '/presets/0/id'],
      [{ ...backup, presets: [{ ...backup.presets![0]!, prompt_order: ['x'] }] }, 'INVALID_INPUT', '/presets/0/prompt_order'],
      [{ ...backup, regexScripts: [{ ...backup.regexScripts![0]!, find_regex: '(' }] }, 'INVALID_INPUT', '/regexScripts/0/find_regex'],
      [{ ...backup, regexScripts: [{ ...backup.regexScripts![0]!, name: ' ' }] }, 'INVALID_INPUT', '/regexScripts/0/name'],
    ];
    for (const [broken, code, field] of cases) {
      const refused = await b.call('backup.import', { json: JSON.stringify(broken) });
      expect(refused.error, field).toMatchObject({ code, path: field });
    }
    expect(await ok(b, 'settings.get', {})).toEqual(before);
    expect(await ok(b, 'chat.sessions.list', {})).toEqual([]);
    expect(await ok(b, 'chat.presets.list', {})).toEqual({ presets: [] });
    expect(b.host.regex.store.all()).toEqual([]);
  }, 60_000);
});

describe('a restore while a reply streams', () => {
  it('waits: CONFLICT naming the session, nothing written', async () => {
    const a = await rig();
    await ok(a, 'connections.save', { profile: { id: 'local', name: 'Local', provider: 'openai-compatible', baseUrl: `${a.server.origin}/v1`, defaultModel: 'm1' } });
    const session = await ok<{ id: string }>(a, 'chat.sessions.create', { title: 'Streaming' });
    const { backup } = await ok<{ backup: Backup }>(a, 'backup.export', {});
    a.server.enqueue({ text: Array.from({ length: 100 }, (_, i) => `t${i} `), delayMs: 10 });
    await ok(a, 'chat.send', { sessionId: session.id, text: 'Go', connectionId: 'local' });
    const before = await ok(a, 'settings.get', {});
    expect((await a.call('backup.import', { json: JSON.stringify(backup) })).error).toMatchObject({ code: 'CONFLICT', path: '/sessions', message: expect.stringContaining('"Streaming"') });
    expect(await ok(a, 'settings.get', {})).toEqual(before);
    await ok(a, 'chat.stop', { sessionId: session.id });
    await a.host.chat.settled(session.id);
  }, 60_000);
});

describe('backup on the command line', () => {
  it('writes the file (0600) and restores it, saying what to add again', async () => {
    const a = await rig();
    await furnish(a);
    const dataDir = a.dataDir;
    await rigs.close(a);
    const out: string[] = [];
    const file = path.join(tempDir(), 'backup.json');
    const cli = (dir: string, args: string[]) => runCli([...args, '--data-dir', dir], { out: (t) => out.push(t), err: () => {} }, { bundledExtensionsDir: null });
    expect(await cli(dataDir, ['backup', 'export', '--out', file])).toBe(0);
    expect(out.pop()).toMatch(/^Wrote .*backup\.json: 1 session, 1 pack\.\nLeft out \(add again after a restore\): connections\/cloud: header X-Team-Token; connections\/cloud: API key; mcpServers\/notes: env API_TOKEN\.$/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const fresh = tempDir();
    expect(await cli(fresh, ['backup', 'import', file])).toBe(0);
    expect(out.pop()!.split('\n')).toEqual(
      [
        'Restored 1 session, 1 pack, 1 council run and the settings; 0 extensions set as they were.',
        'Not installed here (install them again): Fixture: seed-example (seed-example 0.0.1).',
        'Add the key again for: Cloud, notes.',
        'Held until you accept them (off, without keys, or the stricter setting kept):',
        expect.stringMatching(/^ {2}Cloud \(connection:cloud\): new: it sends to http:\/\/127\.0\.0\.1:\d+\/v1\. Accept: --accept-connections cloud$/),
        '  notes (mcp:notes): new: it runs node server.js. Accept: --accept-mcp notes',
      ],
    );
    // Accepted on the command line: listed as such, nothing held (the server, here now as the backup has it, off,
    // asks nothing more).
    expect(await cli(fresh, ['backup', 'import', file, '--accept-connections', 'all', '--accept-mcp', 'notes', '--json'])).toBe(0);
    expect(JSON.parse(out.pop()!)).toMatchObject({ held: [], accepted: [{ key: 'connection:cloud' }] });
    expect(await cli(fresh, ['backup', 'import', path.join(fresh, 'nope.json')])).not.toBe(0);
  }, 60_000);
});
