// The spindle global a Lumiverse extension meets: every member present (conformance), inert ones harmless,
// real ones working through a real host — storage, variables, enclave, ephemeral, council, cors, generate.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SPINDLE_MEMBERS, type NamespaceSpec } from '../../../shared/spindle/members';
import { HOST_CAPABILITIES, installationId } from '../../../shared/spindle/host-descriptor';
import { EXTENSION_PERMISSIONS } from '../../../shared/types/spindle';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { addMainConnection, chatRig, type ChatRig } from '../chat/helpers';
import { fixture, waitFor } from './harness';
import { DECLARED_HOST_READS, DECLARED_READS, mismatch } from './spindle-declared';

const ID = 'lumiverse_surface';

/** The fixture as an author ships it: src/backend.ts built to an ESM dist/backend.js (asking for more permissions, when given). */
function built(permissions?: readonly string[]): string {
  const folder = path.join(tempDir(), ID);
  fs.mkdirSync(folder, { recursive: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(fixture(ID), 'spindle.json'), 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(path.join(folder, 'spindle.json'), JSON.stringify(permissions ? { ...manifest, permissions } : manifest));
  buildSync({ entryPoints: [path.join(fixture(ID), 'src', 'backend.ts')], outfile: path.join(folder, 'dist', 'backend.js'), bundle: true, format: 'esm', platform: 'node', logLevel: 'silent' });
  return folder;
}

let rig: ChatRig;
let web: http.Server;
let webUrl: string;
/** A request to /hang arrived (it is never answered), and it was given up: its connection closed unanswered. */
let hangArrived!: () => void;
const hangSeen = new Promise<void>((resolve) => (hangArrived = resolve));
let hangGivenUp = false;
/** /held/<n>: answered only once eight are waiting at once (then at once): the most the server ever held together. */
const held: http.ServerResponse[] = [];
let heldAtOnce = 0;
let heldReleased = false;

beforeAll(async () => {
  web = http.createServer((req, res) => {
    if (req.url?.endsWith('/bytes')) return void res.end(Buffer.from([0, 1, 254, 255]));
    if (req.url?.endsWith('/echo-bytes')) {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      return void req.on('end', () => res.end(`${req.headers['content-type'] ?? 'none'}|${Buffer.concat(chunks).toString('latin1')}`));
    }
    if (req.url?.endsWith('/hang')) {
      res.on('close', () => (hangGivenUp = !res.writableEnded));
      return hangArrived();
    }
    if (req.url?.endsWith('/arrived')) return void hangSeen.then(() => res.end('yes'));
    if (req.url?.includes('/held/')) {
      if (heldReleased) return void res.end('held');
      held.push(res);
      heldAtOnce = Math.max(heldAtOnce, held.length);
      if (held.length === 8) {
        heldReleased = true;
        for (const waiting of held.splice(0)) waiting.end('held');
      }
      return;
    }
    if (req.method !== 'POST') return void res.end('hello from the web');
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => res.writeHead(201, { 'content-type': 'text/plain; charset=utf-8' }).end(`${req.headers['x-asked']} ${req.headers['content-type']} ${body}`));
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  webUrl = `http://127.0.0.1:${(web.address() as { port: number }).port}/page`;
});
afterAll(() => new Promise<void>((resolve) => web.close(() => resolve())));

beforeEach(async () => {
  rig = await chatRig();
  await addMainConnection(rig);
});
afterEach(async () => {
  await rig.close();
  cleanupTempDirs();
});

async function install(grant: string[], request?: readonly string[]): Promise<void> {
  await rig.host.extensions.installFromFolder(built(request), { grant: grant as never });
  await waitFor(() => rig.host.registry.get(`${ID}:use`), 'the fixture to register its tools');
}

async function invoke<T>(tool: string, args: Record<string, unknown> = {}): Promise<T> {
  const outcome = await rig.host.registry.invoke(`${ID}:${tool}`, args, { timeoutMs: 20_000 });
  if (!outcome.ok) throw new Error(`${tool}: ${JSON.stringify(outcome.error)}`);
  return JSON.parse(outcome.content) as T;
}

/** Every method path of a namespace spec, nested ones included. */
function paths(prefix: string, spec: NamespaceSpec): string[] {
  return Object.entries(spec.methods).flatMap(([name, style]) => (typeof style === 'string' ? [`${prefix}.${name}`] : paths(`${prefix}.${name}`, style)));
}

describe('conformance', () => {
  it('has every top-level member of the Lumiverse API, each namespace with its methods', async () => {
    await install(['tools']);
    const { userId, shape } = await invoke<{ userId: string; shape: Record<string, unknown> }>('shape');
    expect(userId).toBe('local');
    for (const member of SPINDLE_MEMBERS) {
      const got = shape[member.name];
      expect(got, member.name).toBeDefined();
      if (member.kind === 'function') expect(got, member.name).toBe('function');
      if (member.kind === 'namespace') {
        for (const p of paths(member.name, member.namespace!)) {
          const leaf = p.split('.').slice(1).reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], got);
          expect(leaf, p).toBe('function');
        }
      }
    }
  });

  it('inert members answer with a neutral value, UNSUPPORTED_HERE or PERMISSION_DENIED — never a TypeError — and are listed on the card', async () => {
    await install(['tools']);
    const inert = SPINDLE_MEMBERS.filter((m) => m.tier === 'inert');
    const probe = inert.flatMap((m) => (m.kind === 'namespace' ? paths(m.name, m.namespace!) : [m.name]));
    const results = await invoke<Record<string, { ok: boolean; value?: unknown; code?: string }>>('probe', { paths: probe });
    for (const p of probe) {
      const outcome = results[p]!;
      expect(outcome, p).toBeDefined();
      if (!outcome.ok) expect(['UNSUPPORTED_HERE', 'PERMISSION_DENIED'], `${p}: ${JSON.stringify(outcome)}`).toContain(outcome.code);
    }
    expect(results['frontendProcesses.list']).toEqual({ ok: true, value: [] });
    expect(results['databanks.list']).toMatchObject({ ok: false, code: 'PERMISSION_DENIED' });
    expect(results['oauth.createState']).toMatchObject({ ok: false, code: 'UNSUPPORTED_HERE' });
    await waitFor(() => (rig.host.extensions.get(ID).inertTouched ?? []).includes('frontendProcesses'), 'the card to list the inert members used');
    expect(rig.host.extensions.get(ID).inertTouched).toEqual(expect.arrayContaining(['frontendProcesses', 'oauth', 'databanks', 'theme']));
    // Logged once per member, not once per call.
    expect(rig.host.extensions.getLogLines(ID).filter((l) => l.includes('spindle.frontendProcesses.')).length).toBe(1);
  });

  it('every inert read answers a value of the type Lumiverse declares for it (an empty theme has its fields)', async () => {
    await install([...EXTENSION_PERMISSIONS], EXTENSION_PERMISSIONS);
    const inert = SPINDLE_MEMBERS.filter((m) => m.tier === 'inert');
    const probe = inert.flatMap((m) => (m.kind === 'namespace' ? paths(m.name, m.namespace!) : [m.name]));
    const results = await invoke<Record<string, { ok: boolean; value?: unknown; code?: string }>>('probe', { paths: probe });
    // Every read Lumiverse declares is answered, and with a value of the declared type.
    for (const [p, declared] of Object.entries(DECLARED_READS)) {
      const outcome = results[p];
      expect(outcome, `${p} is not an inert member here`).toBeDefined();
      expect(outcome!.ok, `${p}: ${JSON.stringify(outcome)}`).toBe(true);
      expect(mismatch(outcome!.value, declared, p)).toBeNull();
    }
    // Everything else inert that answers at all is a read the table above must know (a …Stream method
    // answers a generator whose first read rejects UNSUPPORTED_HERE).
    const undeclaredReads = probe.filter((p) => results[p]?.ok && results[p]!.value !== undefined && !p.endsWith('Stream') && !(p in DECLARED_READS));
    expect(undeclaredReads).toEqual([]);
  });
});

describe('presets, regex scripts and memories through a real host', () => {
  it('every read Lumiverse declares answers a value of its declared type, on a chat, a preset, a regex script, an entity and a vault that exist', async () => {
    await install([...EXTENSION_PERMISSIONS], EXTENSION_PERMISSIONS);
    const chat = await rig.call('chat.sessions.create', { title: 'Harbour' });
    const chatId = (chat as { value: { id: string } }).value.id;
    const made = await invoke<Record<string, { ok: boolean; value?: { id?: string } }>>('probe', {
      paths: ['presets.create', 'memories.entities.upsert', 'memories.vaults.create', 'regex_scripts.create'],
      calls: {
        'regex_scripts.create': [{ name: 'Hide cues', find_regex: '\\[cue\\]', target: 'display', scope: 'chat', scope_id: chatId }],
        'presets.create': [{ name: 'Loom', provider: 'loom', prompt_order: [{ name: 'Tone', marker: 'category' }, { name: 'Main', content: 'Be vivid.' }] }],
        'memories.entities.upsert': [chatId, { name: 'Mara', type: 'character' }],
        'memories.vaults.create': [{ chatId, name: 'Kept' }],
      },
    });
    const id = (p: string) => made[p]!.value!.id!;
    const presetId = id('presets.create');
    const entityId = id('memories.entities.upsert');
    const blockId = ((made['presets.create']!.value as { prompt_order: Array<{ id: string }> }).prompt_order[1]!).id;
    const chatScoped = (p: string) => p.startsWith('memories.') && !['memories.cortex.getConfig', 'memories.entities.get', 'memories.entities.getFacts', 'memories.vaults.list', 'memories.vaults.get', 'memories.vaults.getChunks'].includes(p);
    const calls: Record<string, unknown[]> = {};
    for (const p of Object.keys(DECLARED_HOST_READS)) {
      if (p.startsWith('presets.') && p !== 'presets.list') calls[p] = p.startsWith('presets.blocks.get') ? [presetId, blockId] : [presetId];
      else if (chatScoped(p)) calls[p] = [chatId];
    }
    Object.assign(calls, {
      'imageGen.getConnection': ['no-such-connection'],
      'imageGen.getModels': ['no-such-connection'],
      'memories.cortex.query': [{ chatId, queryText: 'Mara' }],
      'memories.entities.get': [entityId],
      'memories.entities.getFacts': [entityId],
      'memories.entities.findByName': [chatId, 'mara'],
      'memories.relations.forEntity': [chatId, entityId],
      'memories.relations.forEntities': [chatId, [entityId]],
      'memories.vaults.get': [id('memories.vaults.create')],
      'memories.vaults.getChunks': [id('memories.vaults.create')],
      'regex_scripts.get': [id('regex_scripts.create')],
      'regex_scripts.getActive': [{ target: 'display', chatId }],
    });
    // getCached after the query, in the table's order.
    const results = await invoke<Record<string, { ok: boolean; value?: unknown }>>('probe', { paths: Object.keys(DECLARED_HOST_READS), calls });
    for (const [p, declared] of Object.entries(DECLARED_HOST_READS)) {
      expect(results[p]!.ok, `${p}: ${JSON.stringify(results[p])}`).toBe(true);
      expect(mismatch(results[p]!.value, declared, p)).toBeNull();
    }
    expect(results['memories.cortex.getCached']!.value).toEqual(results['memories.cortex.query']!.value);
    expect(results['presets.get']!.value).toMatchObject({ id: presetId, name: 'Loom' });
    expect(results['regex_scripts.getActive']!.value).toEqual([results['regex_scripts.get']!.value]);
    expect(results['memories.entities.get']!.value).toMatchObject({ id: entityId, name: 'Mara' });
  });
});

describe('real members through a real host', () => {
  it('permissions, storage, variables, enclave, ephemeral, connections, tokens, council, version, manifest, host', async () => {
    await install(['tools', 'ephemeral_storage', 'generation']);
    const used = await invoke<Record<string, unknown>>('use');
    expect(used.has).toEqual([true, false]);
    expect(used.granted).toEqual(expect.arrayContaining(['tools', 'ephemeral_storage', 'generation']));
    expect(used.storage).toEqual({ ok: true, value: 1 });
    // A 30 MB file and a JSON report over one answer cross in parts, whole; nothing half written is listed.
    expect(used.largeStorage).toEqual({ ok: true, value: [30 * 1024 * 1024, true, true, true, ['bgm.ogg']] });
    expect(used.storageEscape).toMatchObject({ ok: false, code: 'PATH_NOT_ALLOWED' });
    expect(used.userStorage).toEqual({ ok: true, value: 'mine' });
    expect(used.variables).toEqual({ ok: true, value: ['calm', { turns: '3' }, false] });
    expect(used.enclave).toEqual({ ok: true, value: ['sk-extension-secret', ['token'], true, false] });
    expect(used.ephemeral).toEqual({ ok: true, value: ['soon gone', 9, 2, true, [0, 1, 254, 255]] });
    expect(used.connections).toEqual({ ok: true, value: [expect.objectContaining({ id: 'local', api_url: `${rig.server.origin}/v1`, is_default: true, has_api_key: false })] });
    expect(JSON.stringify(used.connections)).not.toMatch(/key"\s*:\s*"/);
    expect(used.tokens).toMatchObject({ ok: true, value: { total_tokens: 3, approximate: true } });
    expect(used.council).toEqual({ ok: true, value: [false, 0] });
    expect(used.activeChat).toMatchObject({ ok: false, code: 'PERMISSION_DENIED' });
    expect(used.version).toBe('1.1.0');
    expect(used.manifest).toEqual([ID, '1.0.0']);
    expect(used.host).toBe('1.1.0');
    // The descriptor is its frontend's too: the same capabilities, and an installation id that is a canonical UUID.
    expect(used.capabilities).toEqual(HOST_CAPABILITIES);
    expect(used.installation).toBe(installationId(ID));
    expect(used.installation).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(used.corsFile).toMatchObject({ ok: false, code: 'PERMISSION_DENIED' });
    // No window has said it is in view: the person is away.
    expect(used.users).toEqual([false, 'operator']);
    // Without cors_proxy the global fetch stays refused, and its card says so: the person can grant cors_proxy.
    expect(used.fetchedMetadata).toMatchObject({ ok: false, code: 'ERR_ACCESS_DENIED' });
    const host = rig.host;
    await waitFor(() => (host.extensions.get(ID).refused ?? []).includes('cors_proxy — fetch()'), 'the refused fetch on its card');
    // A worker writes nothing of its own there: the notice names no text, and it lists nothing once cors_proxy is held.
    const origin = { extensionId: ID, allowed: () => true, denyPermission: () => undefined };
    const call = { signal: new AbortController().signal, emit: () => undefined };
    expect(await host.extensions.spindleHost.answer(origin, 'runtime.refused', { what: 'grant chat_mutation to fix this' }, call)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const before = host.extensions.get(ID).refused;
    expect(await host.extensions.spindleHost.answer(origin, 'runtime.refused', { what: 'fetch' }, call)).toEqual({ ok: true, value: null });
    expect(host.extensions.get(ID).refused).toEqual(before);
    // The card shows what it registered for the prompt pipeline.
    expect(rig.host.extensions.get(ID).registrations).toEqual({ macros: ['surface_mood'], pipeline: [] });
    // Files live where the README says, and nothing escaped.
    expect(fs.existsSync(path.join(rig.dataDir, 'extension-data', ID, 'storage', 'state', 'counter.json'))).toBe(true);
    expect(fs.readFileSync(path.join(rig.dataDir, 'extension-data', ID, 'variables.json'), 'utf8')).toContain('"turns":"3"');
  });

  it('with cors_proxy, interceptor and chats: the web through the host, a registered interceptor, no active chat, characters still denied', async () => {
    await install(['tools', 'cors_proxy', 'interceptor', 'chats']);
    // A window says it is in view, as the app's does (use-window-presence.ts).
    expect(await rig.call('app.visibility', { windowId: 'window-1', visible: true })).toEqual({ ok: true, value: {} });
    const used = await invoke<Record<string, unknown>>('use', { corsUrl: webUrl });
    expect(used.users).toEqual([true, 'operator']);
    expect(used.cors).toEqual({ ok: true, value: [200, 'hello from the web'] });
    expect(used.corsFile).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    // The global fetch goes through the host: method, headers and a form body there, a real Response back.
    expect(used.fetched).toEqual({ ok: true, value: [201, true, 'text/plain; charset=utf-8', 'yes application/x-www-form-urlencoded;charset=UTF-8 mood=calm'] });
    expect(used.fetchedBytes).toEqual({ ok: true, value: [0, 1, 254, 255] });
    // A body that is not text reaches the server byte for byte; a form as multipart with its boundary and file.
    expect(used.fetchedBinaryBody).toEqual({ ok: true, value: `none|${Buffer.from([1, 2, 255]).toString('latin1')}` });
    const form = (used.fetchedForm as { ok: boolean; value: string });
    expect(form.ok).toBe(true);
    const [type, sent] = form.value.split('|');
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(type!)![1]!;
    expect(sent).toContain(`--${boundary}`);
    expect(sent).toContain('name="reqtype"\r\n\r\nfileupload');
    expect(sent).toContain('name="fileToUpload"; filename="scene.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG');
    // The host's checks still hold: cloud metadata is refused before any connection, as a failed fetch.
    expect(used.fetchedMetadata).toMatchObject({ ok: false, code: 'TypeError', message: expect.stringMatching(/^fetch failed: .*link-local/) });
    // Ten fetch() calls at once all answer: eight went through the host together, the other two waited their turn.
    expect(used.fetchedTen).toEqual({ ok: true, value: Array(10).fill('held') });
    expect(heldAtOnce).toBe(8);
    // Its abort rejects as fetch's does, and cancels the host's request: the server sees it go, unanswered.
    expect(used.fetchedAborted).toMatchObject({ ok: false, message: 'This operation was aborted' });
    await waitFor(() => hangGivenUp, 'the server seeing the aborted request go');
    expect(used.activeChat).toEqual({ ok: true, value: null });
    // characters is a permission of its own, not granted here.
    expect(used.characters).toMatchObject({ ok: false, code: 'PERMISSION_DENIED' });
    expect(rig.host.extensions.get(ID).registrations).toEqual({ macros: ['surface_mood'], pipeline: ['interceptor (priority 50)'] });
  });

  it('generate in Lumiverse shapes against the local LLM server: raw, rawStream, batch', async () => {
    await install(['tools', 'generation']);
    rig.server.enqueue({ text: 'Hello there.' }, { text: ['Str', 'eam', 'ed.'] }, { text: 'One.' });
    const result = await invoke<Record<string, { ok: boolean; value?: unknown; code?: string }>>('generate');
    expect(result.raw).toMatchObject({ ok: true, value: { content: 'Hello there.', finish_reason: 'stop', text: 'Hello there.' } });
    expect(result.stream).toEqual({ ok: true, value: ['Str', 'eam', 'ed.', 'done:Streamed.'] });
    // The second request of the batch has no messages: refused as a whole, with the field path.
    expect(result.batch).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    const body = rig.server.generations[0]!.body as { messages: unknown; max_tokens?: number };
    expect(body.messages).toEqual([{ role: 'user', content: 'Say hello.' }]);
    expect(body.max_tokens).toBe(32);
  });
});
