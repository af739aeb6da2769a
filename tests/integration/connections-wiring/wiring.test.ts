// Connections, secrets, sidecar and sessions through the contract: views only, validated inputs, and a canary key that never leaks.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { savedSession } from '../../helpers/saved-session';
import { NodeLauncher, type LaunchOptions, type Launcher } from '../../../electron/core/extensions/workers/launcher';
import { runCli } from '../../../electron/headless/cli/run-cli';
import { chatCommand } from '../../../electron/headless/cli/chat';
import { commands } from '../../../electron/headless/cli/index';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { LlmTestServer } from '../../fixtures/llm-server';
import { CANARY, addMainConnection, chatRig, newSession, send, type ChatRig } from '../chat/helpers';

let rig: ChatRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
  cleanupTempDirs();
});

const profile = (baseUrl: string) => ({ name: 'X', provider: 'openai-compatible', baseUrl, defaultModel: 'm' });

describe('connections through the contract', () => {
  it.each([
    ['file:///etc/passwd', /http or https/],
    ['http://user:pass@127.0.0.1:1/v1', /user name or password/],
    ['http://169.254.169.254/latest', /link-local/],
  ])('S12: rejects the base URL %s in save and test', async (baseUrl, message) => {
    rig = await chatRig();
    const saved = await rig.call('connections.save', { profile: profile(baseUrl) });
    expect(saved.error).toMatchObject({ code: 'INVALID_INPUT', path: '/baseUrl', message: expect.stringMatching(message) });
    const tested = await rig.call('connections.test', { profile: profile(baseUrl) });
    expect((tested.value as { ok: boolean; error: { path: string } }).ok).toBe(false);
    expect((tested.value as { error: { path: string } }).error.path).toBe('/baseUrl');
    expect((await rig.call('connections.list', {})).value).toEqual([]);
    expect(JSON.stringify(rig.results)).not.toContain('pass@');
  });

  it('keeps profiles in settings without keys, returns views with hasKey and a 4-character hint, and picks ids', async () => {
    rig = await chatRig();
    const saved = await rig.call('connections.save', { profile: profile(`${rig.server.origin}/v1`), key: CANARY });
    expect(saved.value).toMatchObject({ profile: { id: 'x', hasKey: true, keyHint: '7Q2v', keyRef: { kind: 'stored' } }, warnings: [] });
    const second = await rig.call('connections.save', { profile: profile(`${rig.server.origin}/v1`) });
    expect((second.value as { profile: { id: string } }).profile.id).toBe('x-2');
    const settingsFile = fs.readFileSync(path.join(rig.dataDir, 'settings.json'), 'utf8');
    expect(JSON.parse(settingsFile).connections.map((p: { id: string }) => p.id)).toEqual(['x', 'x-2']);
    expect(settingsFile).not.toContain(CANARY);
    expect((await rig.call('connections.clearKey', { id: 'x' })).value).toMatchObject({ hasKey: false, keyHint: null });
    expect((await rig.call('connections.remove', { id: 'x' })).value).toEqual({ removed: true });
    expect(((await rig.call('connections.list', {})).value as unknown[]).length).toBe(1);
    expect((await rig.call('connections.secretsInfo', {})).value).toEqual({ backend: 'memory' });
    expect((await rig.call('connections.models', { id: 'x-2' })).value).toEqual({ models: ['test-model', 'test-model-large'] });
  });

  it('S8, S9: never lets the canary key reach logs, events, contract outputs, prompts or worker env', async () => {
    const launched: LaunchOptions[] = [];
    const node = new NodeLauncher();
    // Every envelope the host sends a worker is recorded (S9: the key never rides in one).
    const frames: string[] = [];
    const launcher: Launcher = {
      containment: node.containment,
      launch: (options) => {
        launched.push(options);
        const handle = node.launch(options);
        const send = handle.send.bind(handle);
        handle.send = (message) => (frames.push(JSON.stringify(message)), send(message));
        return handle;
      },
    };
    const previous = process.env.CANARY_TEST_API_KEY;
    process.env.CANARY_TEST_API_KEY = CANARY;
    try {
      rig = await chatRig({ requireKey: CANARY, launcher, bundledExtensionsDir: path.join(import.meta.dirname, '..', '..', 'bench', 'fixtures', 'extensions') });
      await rig.host.extensions.whenSettled();
      await addMainConnection(rig, CANARY);
      // Forced failures: a wrong key (401 echoing the auth header), then a 500, then a good turn.
      const id = await newSession(rig);
      rig.server.enqueue({ kind: 'error', status: 401, echoAuth: true }, { kind: 'error', status: 500, echoAuth: true }, { text: 'fine' });
      await rig.call('connections.save', { profile: { id: 'bad', name: 'Bad', provider: 'openai-compatible', baseUrl: `${rig.server.origin}/v1`, defaultModel: 'm' }, key: 'sk-wrong-key-000000' });
      const first = await send(rig, id, 'one', { connectionId: 'bad' });
      expect(first.done.error?.code).toBe('LLM_AUTH_FAILED');
      const second = await send(rig, id, 'two');
      expect(second.done.error?.code).toBe('LLM_AUTH_FAILED');
      const third = await send(rig, id, 'three');
      expect(third.done.error?.code).toBe('LLM_SERVER_ERROR');
      const fourth = await send(rig, id, 'four');
      expect(fourth.text).toBe('fine');
      await rig.call('connections.test', { id: 'local' });
      await rig.call('connections.list', {});
      await rig.call('chat.sessions.export', { sessionId: id });
      expect(await rig.call('tools.invoke', { qualifiedName: 'bench-echo:echo', args: { text: 'after the key was used' } })).toMatchObject({ ok: true });
      rig.host.redactor.add(CANARY);
      rig.log.logger.warn(`direct log line with ${CANARY}`);

      // Only the auth header carried it.
      const generations = rig.server.generations;
      expect(generations.length).toBeGreaterThanOrEqual(2);
      expect(generations.some((r) => r.headers.authorization === `Bearer ${CANARY}`)).toBe(true);
      for (const request of rig.server.requests) {
        expect(request.rawBody).not.toContain(CANARY);
        const { authorization: _auth, ...others } = request.headers;
        expect(JSON.stringify(others)).not.toContain(CANARY);
      }
      expect(JSON.stringify(rig.events)).not.toContain(CANARY);
      expect(rig.results.join('\n')).not.toContain(CANARY);
      expect(rig.results.join('\n')).toContain('7Q2v');
      expect(launched.length).toBeGreaterThan(0);
      for (const options of launched) expect(JSON.stringify(options.env)).not.toContain(CANARY);
      expect(frames.some((frame) => frame.includes('"tool_invocation"'))).toBe(true);
      expect(frames.join('\n')).not.toContain(CANARY);
    } finally {
      if (previous === undefined) delete process.env.CANARY_TEST_API_KEY;
      else process.env.CANARY_TEST_API_KEY = previous;
    }
    // The host logger is wrapped: even a line the test wrote through the host's own path is scrubbed.
    const hostLog = rig.log.lines.filter((l) => !l.includes('direct log line'));
    expect(hostLog.join('\n')).not.toContain(CANARY);
    expect(hostLog.some((l) => l.includes('HTTP 401') || l.includes('401'))).toBe(true);
  });
});

describe('sidecar settings', () => {
  it('has the seed defaults, validates ranges through the contract and serves as the council SidecarPort', async () => {
    rig = await chatRig();
    const initial = (await rig.call('sidecar.get', {})).value as { config: Record<string, unknown>; configured: boolean };
    expect(initial).toMatchObject({ config: { connectionProfileId: '', model: '', temperature: 0.7, topP: 0.9, maxTokens: 1024 }, configured: false });
    expect(rig.host.sidecar.isConfigured()).toBe(false);
    for (const [field, value] of [['temperature', 2.5], ['topP', -0.1], ['maxTokens', 0], ['maxTokens', 1.5]] as const) {
      const bad = await rig.call('sidecar.update', { patch: { [field]: value } });
      expect(bad.error).toMatchObject({ code: 'INVALID_INPUT', path: `/patch/${field}` });
    }
    await addMainConnection(rig);
    const updated = await rig.call('sidecar.update', { patch: { connectionProfileId: 'local', model: 'test-model-large', temperature: 0.3 } });
    expect(updated.value).toMatchObject({ configured: true, config: { temperature: 0.3, topP: 0.9, maxTokens: 1024 } });
    expect(rig.host.sidecar.connectionKey()).toBe('local:test-model-large');

    rig.server.enqueue({ text: 'sidecar says hi' });
    const text = await rig.host.sidecar.complete({ system: 'Be brief.', prompt: 'Hello' }, new AbortController().signal);
    expect(text).toBe('sidecar says hi');
    const sent = rig.server.generations[0]!.body as { model: string; temperature: number; top_p: number; max_tokens: number; messages: unknown[] };
    expect(sent).toMatchObject({ model: 'test-model-large', temperature: 0.3, top_p: 0.9, max_tokens: 1024 });
    expect(sent.messages).toEqual([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello' }]);

    rig.server.enqueue({ toolCalls: [{ name: 'plan_me', args: { city: 'Oslo' } }] });
    const args = await rig.host.sidecar.planArguments({ system: 's', prompt: 'p', tool: { name: 'plan_me', description: 'd', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }, new AbortController().signal);
    expect(args).toEqual({ args: { city: 'Oslo' }, constrained: false, repaired: false });
  });
});

describe('sessions', () => {
  it('creates, renames, exports, imports (validated, errors name the field) and deletes', async () => {
    rig = await chatRig();
    const id = await newSession(rig, { worldInfo: [{ id: 'w', keywords: ['k'], content: 'c', enabled: true }] });
    expect(savedSession(rig.dataDir, id).worldInfo).toEqual([{ id: 'w', keywords: ['k'], content: 'c', enabled: true }]);
    expect((await rig.call('chat.sessions.rename', { sessionId: id, title: 'Renamed' })).value).toMatchObject({ id, title: 'Renamed', busy: false });
    const exported = (await rig.call('chat.sessions.export', { sessionId: id })).value as { json: string; fileName: string };
    expect(exported.fileName).toMatch(/^Renamed-/);
    const imported = (await rig.call('chat.sessions.import', { json: exported.json })).value as { id: string; title: string };
    expect(imported.id).not.toBe(id);
    expect(imported.title).toBe('Renamed');
    const broken = JSON.parse(exported.json);
    broken.worldInfo[0].keywords = 'not-a-list';
    expect((await rig.call('chat.sessions.import', { json: JSON.stringify(broken) })).error).toMatchObject({ code: 'INVALID_INPUT', path: '/worldInfo/0/keywords' });
    expect((await rig.call('chat.sessions.import', { json: '{oops' })).error).toMatchObject({ code: 'INVALID_INPUT', path: '/json' });
    expect(((await rig.call('chat.sessions.list', {})).value as unknown[]).length).toBe(2);
    expect((await rig.call('chat.sessions.delete', { sessionId: id })).value).toEqual({ deleted: true });
    expect((await rig.call('chat.sessions.get', { sessionId: id })).error?.code).toBe('NOT_FOUND');
    expect(rig.events.filter((e) => e.type === 'chat.sessions.changed').map((e) => (e as { change: string }).change)).toEqual(['created', 'updated', 'created', 'deleted']);
  });
});

describe('CLI', () => {
  it('adds a connection, sets the sidecar, and chats with --json and a session file', async () => {
    const server = await LlmTestServer.start();
    try {
      const dataDir = tempDir('cw-cli-');
      const out: string[] = [];
      const err: string[] = [];
      const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t) };
      expect(await runCli(['connections', 'add', '--type', 'openai-compatible', '--base-url', `${server.origin}/v1`, '--model', 'test-model', '--name', 'Local', '--data-dir', dataDir, '--json'], io, { bundledExtensionsDir: null })).toBe(0);
      const added = JSON.parse(out.pop()!) as { id: string };
      expect(added.id).toBe('local');
      // One that makes images for extensions names its image model, and the list says so.
      expect(await runCli(['connections', 'add', '--type', 'openai-compatible', '--base-url', `${server.origin}/v1`, '--image-model', 'gpt-image-1', '--name', 'Pictures', '--data-dir', dataDir, '--json'], io, { bundledExtensionsDir: null })).toBe(0);
      expect(JSON.parse(out.pop()!)).toMatchObject({ id: 'pictures', imageModel: 'gpt-image-1' });
      expect(await runCli(['connections', 'add', '--type', 'anthropic', '--base-url', 'https://api.anthropic.com/v1', '--image-model', 'gpt-image-1', '--data-dir', dataDir, '--json'], io, { bundledExtensionsDir: null })).toBe(1);
      expect(JSON.parse(out.pop()!)).toMatchObject({ error: { code: 'INVALID_INPUT', path: '/imageModel', message: expect.stringContaining('make images') } });
      expect(await runCli(['sidecar', 'set', '--connection', 'local', '--model', 'test-model', '--temperature', '5', '--data-dir', dataDir, '--json'], io, { bundledExtensionsDir: null })).toBe(1);
      expect(JSON.parse(out.pop()!)).toMatchObject({ error: { code: 'INVALID_INPUT' } });
      expect(await runCli(['sidecar', 'set', '--connection', 'local', '--model', 'test-model', '--top-p', '0.5', '--data-dir', dataDir, '--json'], io, { bundledExtensionsDir: null })).toBe(0);
      expect(JSON.parse(out.pop()!)).toMatchObject({ configured: true, config: { topP: 0.5 } });

      const sessionFile = path.join(dataDir, 'my-chat.json');
      server.enqueue({ text: ['Hello ', 'from ', 'the CLI.'] });
      expect(await runCli(['chat', '--connection', 'local', '--message', 'Hi there', '--session', sessionFile, '--data-dir', dataDir, '--json'], io, { bundledExtensionsDir: null })).toBe(0);
      const result = JSON.parse(out.pop()!) as { text: string; finishReason: string; toolCalls: unknown[] };
      expect(result).toMatchObject({ text: 'Hello from the CLI.', finishReason: 'stop', toolCalls: [] });
      const session = JSON.parse(fs.readFileSync(sessionFile, 'utf8')) as { messages: Array<{ content: string }> };
      expect(session.messages.map((m) => m.content)).toEqual(['Hi there', 'Hello from the CLI.']);

      // Streaming to a writer without --json; the second turn continues the session file.
      const streamed: string[] = [];
      const withWriter = commands.map((c) => (c.words.join(' ') === 'chat' ? chatCommand((t) => streamed.push(t)) : c));
      server.enqueue({ text: ['Again.'] });
      expect(await runCli(['chat', '--connection', 'local', '--message', 'More', '--session', sessionFile, '--data-dir', dataDir], io, { commands: withWriter, bundledExtensionsDir: null })).toBe(0);
      expect(streamed.join('')).toBe('Again.\n');
      expect((JSON.parse(fs.readFileSync(sessionFile, 'utf8')) as { messages: unknown[] }).messages).toHaveLength(4);
      const secondRequest = server.generations[1]!.body as { messages: Array<{ content: string }> };
      expect(secondRequest.messages.map((m) => m.content).slice(1)).toEqual(['Hi there', 'Hello from the CLI.', 'More']);
    } finally {
      await server.close();
    }
  });
});
