// The spindle request contract (shared/spindle/requests.ts) and its one dispatcher: a request reaches its handler
// only named, checked and permitted, and its answer is checked against the declared result.
import { afterEach, describe, expect, it } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { createSpindleHost, type RequestOrigin } from '../../../electron/core/extensions/spindle-host/spindle-host';
import type { SpindleHandlers } from '../../../electron/core/extensions/spindle-host/handlers';
import type { ExtensionGenerator } from '../../../electron/core/extensions/spindle-host/generation-gate';
import { declaresError, dispatchSpindle } from '../../../electron/core/extensions/spindle-host/spindle-dispatch';
import { SPINDLE_REQUESTS, spindleRequest } from '../../../shared/spindle/requests';
import { SPINDLE_MEMBERS, type NamespaceSpec } from '../../../shared/spindle/members';
import { ERROR_CODES, HostFailure, type HostError } from '../../../shared/errors';
import type { SpindleRequestSpec } from '../../../shared/spindle/request-schema';
import type { ExtensionPermission } from '../../../shared/types/spindle';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

type Answer = { ok: true; value: unknown } | { ok: false; error: HostError };

/** A SpindleHost with no services lent, and a worker's side of it: what it answered, what it was refused. */
function hostAndWorker(granted: ExtensionPermission[] = [], generator?: ExtensionGenerator) {
  const logs: string[] = [];
  const host = createSpindleHost({ dataRoot: tempDir(), log: (_id, level, text) => logs.push(`${level}: ${text}`), ...(generator ? { generator } : {}) });
  const denied: string[] = [];
  const origin: RequestOrigin = {
    extensionId: 'ext_a',
    denyPermission: (permission, operation) => denied.push(`${permission} ${operation}`),
    allowed: (permission) => granted.includes(permission),
  };
  /** The host's one answer to a request (a request left unanswered fails the test at its timeout). */
  const ask = (method: string, params?: unknown): Promise<Answer> => host.answer(origin, method, params, { signal: new AbortController().signal, emit: () => undefined });
  return { ask, logs, denied };
}

const failed = (answer: Answer) => (answer.ok ? null : answer.error);

describe('the spindle request contract', () => {
  it('names only methods of Lumiverse’s spindle API for the namespaces a worker forwards as they are', () => {
    const lumiverse = new Set<string>();
    const walk = (prefix: string, spec: NamespaceSpec) => {
      for (const [name, style] of Object.entries(spec.methods)) {
        if (typeof style === 'string') lumiverse.add(`${prefix}.${name}`);
        else walk(`${prefix}.${name}`, style);
      }
    };
    for (const member of SPINDLE_MEMBERS) if (member.namespace) walk(member.name, member.namespace);
    // Top-level functions the host answers as they are (spindle.assemble).
    for (const member of SPINDLE_MEMBERS) if (member.kind === 'function') lumiverse.add(member.name);
    // storage/userStorage, toast and the pipeline, cors, generate and runtime calls are the worker runtime's own shapes,
    // as is uploads.read (spindle.uploads.get reads an upload's bytes with it, a part at a time).
    const own = /^(storage|userStorage|pipeline|cors|generate|runtime|toast)\.|^uploads\.read$/;
    const forwarded = Object.keys(SPINDLE_REQUESTS).filter((method) => !own.test(method));
    expect(forwarded.length).toBeGreaterThan(50);
    expect(forwarded.filter((method) => !lumiverse.has(method))).toEqual([]);
  });

  it('declares params, a result and its errors for every method', () => {
    for (const [method, spec] of Object.entries(SPINDLE_REQUESTS)) {
      const members = (spec.params as { anyOf?: Array<{ type?: string }> }).anyOf ?? [spec.params as { type?: string }];
      expect(members.every((member) => member.type === 'object'), method).toBe(true);
      expect(spec.result, method).toBeDefined();
      // Each declared code is one of the host's (an absent list declares none beyond the common ones).
      for (const code of (spec as SpindleRequestSpec).errors ?? []) expect(ERROR_CODES, `${method}: ${code}`).toContain(code);
    }
    expect(spindleRequest('constructor')).toBeUndefined();
    expect(spindleRequest('__proto__')).toBeUndefined();
  });
});

describe('the spindle dispatcher', () => {
  it('names positional arguments as declared: a wrong one is INVALID_INPUT at its name, a trailing extra (Lumiverse’s userId) is ignored', async () => {
    const { ask } = hostAndWorker(['chats']);
    expect(failed(await ask('chats.get', { args: [42] }))).toMatchObject({ code: 'INVALID_INPUT', path: '/chatId' });
    expect(failed(await ask('tokens.countText', { args: [{ not: 'text' }] }))).toMatchObject({ code: 'INVALID_INPUT', path: '/text' });
    expect(failed(await ask('variables.local.set', { args: ['chat-1'] }))).toMatchObject({ code: 'INVALID_INPUT', path: '/key' });
    expect(await ask('chats.get', { args: ['no-such-chat', 'user-1'] })).toEqual({ ok: true, value: null });
    expect(await ask('tokens.countText', { args: ['abcdefgh', null, 'user-1'] })).toMatchObject({ ok: true, value: { total_tokens: 2, approximate: true } });
  });

  it("chat.setStyleMode is accepted as Lumiverse accepts it: app_manipulation, one of its two modes", async () => {
    const granted = hostAndWorker(['app_manipulation']);
    expect(await granted.ask('chat.setStyleMode', { args: ['chat-1', 'extension-relaxed'] })).toEqual({ ok: true, value: null });
    expect(await granted.ask('chat.setStyleMode', { args: ['chat-1', 'bounded', 'user-1'] })).toEqual({ ok: true, value: null });
    expect(failed(await granted.ask('chat.setStyleMode', { args: ['chat-1', 'loose'] }))).toMatchObject({ code: 'INVALID_INPUT', path: '/mode' });
    const stranger = hostAndWorker([]);
    expect(failed(await stranger.ask('chat.setStyleMode', { args: ['chat-1', 'extension-relaxed'] }))).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(stranger.denied).toEqual(['app_manipulation spindle.chat.setStyleMode']);
  });

  it('refuses a method the contract does not have, own names only, as UNSUPPORTED_HERE', async () => {
    const { ask } = hostAndWorker();
    for (const method of ['media.convertAudio', 'storage.chmod', 'constructor.name', 'toString.call', '__proto__.x']) {
      expect(failed(await ask(method, { args: [] })), method).toMatchObject({ code: 'UNSUPPORTED_HERE' });
    }
  });

  it('asks the declared permission before the handler: PERMISSION_DENIED with a hint, logged, and the worker told', async () => {
    const { ask, logs, denied } = hostAndWorker();
    expect(failed(await ask('connections.list', { args: [] }))).toMatchObject({ code: 'PERMISSION_DENIED', hint: expect.any(String) });
    expect(failed(await ask('ephemeral.list', { args: [] }))).toMatchObject({ code: 'PERMISSION_DENIED' });
    // Refused before its input is read: a malformed request gets the same answer.
    expect(failed(await ask('chats.get', { args: [42] }))).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(denied).toEqual(['generation spindle.connections.list', 'ephemeral_storage spindle.ephemeral.list', 'chats spindle.chats.get']);
    expect(logs.filter((line) => line.startsWith('warn: spindle.connections.list refused'))).toHaveLength(1);
    // No permission needed: answered.
    expect(await ask('council.getMembers', { args: [] })).toEqual({ ok: true, value: [] });
  });

  it('checks params before any handler runs: nothing is written for a refused request', async () => {
    const { ask } = hostAndWorker();
    expect(failed(await ask('storage.write', { path: 'a.txt', data: { not: 'text' } }))).toMatchObject({ code: 'INVALID_INPUT', path: '/data' });
    expect(await ask('storage.exists', { path: 'a.txt' })).toEqual({ ok: true, value: false });
    expect(failed(await ask('pipeline.register', { kind: 'telepathy', id: 'x' }))).toMatchObject({ code: 'INVALID_INPUT', path: '/kind' });
  });

  it('checks a generation against its declared shape, the member a Lumiverse request names by its type included', async () => {
    const { ask } = hostAndWorker(['generation']);
    expect(failed(await ask('generate.quiet', { prompt: 'p', temperature: 3 }))).toMatchObject({ code: 'INVALID_INPUT', path: '/temperature' });
    expect(failed(await ask('generate.raw', { messages: [{ role: 'user', content: 'c' }], extra: 1 }))).toMatchObject({ code: 'INVALID_INPUT', path: '/extra' });
    expect(failed(await ask('generate.lumiverse', { type: 'raw', messages: [{ role: 'tool', content: 'x' }] }))).toMatchObject({ code: 'INVALID_INPUT', path: '/messages/0/role' });
    expect(failed(await ask('generate.lumiverse', { type: 'batch', requests: [] }))).toMatchObject({ code: 'INVALID_INPUT', path: '/requests' });
    expect(failed(await ask('generate.stream', { type: 'batch', requests: [{ messages: [{ role: 'user', content: 'c' }] }] }))).toMatchObject({ code: 'INVALID_INPUT' });
    // Well formed: past the contract, the gate decides (this host lends no generator).
    expect(failed(await ask('generate.lumiverse', { type: 'quiet', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], parameters: { temperature: null } }))).toMatchObject({
      code: 'GENERATION_UNAVAILABLE',
    });
  });

  it('takes a Lumiverse request’s sampling knobs as published extensions set them, within the Workbench’s caps', async () => {
    const seen: unknown[] = [];
    const generator = { lumiverse: async (input: unknown) => (seen.push(input), { content: 'ok' }) } as unknown as ExtensionGenerator;
    const { ask } = hostAndWorker(['generation'], generator);
    const messages = [{ role: 'user', content: 'hi' }];
    expect(await ask('generate.lumiverse', { type: 'raw', messages, parameters: { max_tokens: 1_000_000, temperature: 5, top_p: 1.5 } })).toEqual({ ok: true, value: { content: 'ok' } });
    expect(await ask('generate.lumiverse', { type: 'raw', messages, parameters: { max_tokens: 512, temperature: 0.4 } })).toMatchObject({ ok: true });
    // A published default (16,384) is kept; max_completion_tokens is the same knob under OpenAI's newer name.
    expect(await ask('generate.lumiverse', { type: 'raw', messages, parameters: { max_completion_tokens: 16_384 } })).toMatchObject({ ok: true });
    expect(seen).toEqual([
      { type: 'raw', messages, maxTokens: 65_536, temperature: 2, topP: 1 },
      { type: 'raw', messages, maxTokens: 512, temperature: 0.4 },
      { type: 'raw', messages, maxTokens: 16_384 },
    ]);
    // Not sensible: refused, and the generator never asked.
    expect(failed(await ask('generate.lumiverse', { type: 'raw', messages, parameters: { max_tokens: 0 } }))).toMatchObject({ code: 'INVALID_INPUT', path: '/parameters/max_tokens' });
    expect(failed(await ask('generate.lumiverse', { type: 'raw', messages, parameters: { temperature: -1 } }))).toMatchObject({ code: 'INVALID_INPUT', path: '/parameters/temperature' });
    expect(failed(await ask('generate.lumiverse', { type: 'raw', messages, parameters: { max_completion_tokens: 0 } }))).toMatchObject({ code: 'INVALID_INPUT', path: '/parameters/max_completion_tokens' });
    expect(seen).toHaveLength(3);
  });

  it('lists the chats of one character when asked (a session is its character’s one chat)', async () => {
    const logs: string[] = [];
    const sessions = ['c1', 'c2'].map((id) => ({ id, name: id, createdAt: 0, updatedAt: 0, character: { name: id, description: '', personality: '', scenario: '' }, persona: { name: 'You', description: '' }, worldInfo: [], messages: [] }));
    const chats = { activeId: () => null, get: (id: string) => sessions.find((s) => s.id === id) ?? null, list: () => sessions } as never;
    const host = createSpindleHost({ dataRoot: tempDir(), log: (_id, level, text) => logs.push(`${level}: ${text}`), deps: { chats: () => chats } });
    const origin: RequestOrigin = { extensionId: 'ext_a', denyPermission: () => undefined, allowed: () => true };
    const call = { signal: new AbortController().signal, emit: () => undefined };
    const values = await Promise.all([
      host.answer(origin, 'chats.list', { args: [{ characterId: 'c2', userId: 'u', limit: 10 }] }, call),
      host.answer(origin, 'chats.list', { args: [] }, call),
    ]);
    expect(values).toEqual([
      { ok: true, value: { data: [expect.objectContaining({ id: 'c2', character_id: 'c2' })], total: 1 } },
      { ok: true, value: expect.objectContaining({ total: 2 }) },
    ]);
  });

  it('refuses a handler’s value off its declared result as a host bug (INTERNAL to the worker), never passing it on', async () => {
    const handlers = { 'council.getMembers': () => [{ memberId: 7 }] } as unknown as SpindleHandlers;
    const caller = { extensionId: 'ext_a', allowed: () => true };
    const outcome = await dispatchSpindle(handlers, caller, 'council.getMembers', { args: [] }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(outcome).toBeInstanceOf(Error);
    expect(outcome).not.toBeInstanceOf(HostFailure);
    expect(String(outcome)).toMatch(/council\.getMembers answer: .* at \/0\//);
  });

  it('every answer of the host’s handlers checked here conforms to its declared result, and every refusal is a declared error', async () => {
    const { ask } = hostAndWorker(['ephemeral_storage', 'generation', 'chats', 'characters', 'personas', 'world_books', 'chat_mutation']);
    const calls: Array<[string, unknown]> = [
      ['storage.write', { path: 'notes/a.md', data: 'hi' }],
      ['storage.read', { path: 'notes/a.md' }],
      ['storage.read', { path: 'missing.md' }],
      ['storage.read', { path: '../escape' }],
      ['storage.stat', { path: 'notes/a.md' }],
      ['storage.list', {}],
      ['userStorage.mkdir', { path: 'deep/er' }],
      ['variables.global.set', { args: ['k', 'v'] }],
      ['variables.global.get', { args: ['k'] }],
      ['variables.chat.list', { args: ['c1'] }],
      ['ephemeral.write', { args: ['tmp.txt', 'x', { ttlMs: 1000 }] }],
      ['ephemeral.stat', { args: ['tmp.txt'] }],
      ['ephemeral.requestBlock', { args: [10] }],
      ['ephemeral.getPoolStatus', { args: [] }],
      ['ephemeral.stat', { args: ['nothing'] }],
      ['connections.list', { args: [] }],
      ['tokens.countMessages', { args: [[{ role: 'user', content: 'hello' }]] }],
      ['tokens.countChat', { args: ['no-chat'] }],
      ['chats.list', { args: [{ limit: 5 }] }],
      ['chat.getMessages', { args: ['no-chat'] }],
      ['world_books.list', { args: [] }],
      ['macros.resolve', { args: ['{{user}}'] }],
      ['toast.info', { args: ['hello', { title: 't' }] }],
      ['enclave.list', { args: [] }],
      ['pipeline.registerMacro', { definition: { name: 'mood' }, hasHandler: false }],
      ['pipeline.updateMacroValue', { name: 'mood', value: 'calm' }],
      ['pipeline.updateMacroValue', { name: 'absent', value: 'x' }],
      ['runtime.inert', { member: 'ui' }],
    ];
    let answered = 0;
    for (const [method, params] of calls) {
      const answer = await ask(method, params);
      const spec = spindleRequest(method)!;
      if (answer.ok) {
        answered++;
        expect(Value.Check(spec.result, answer.value), `${method} answer`).toBe(true);
      } else {
        expect(declaresError(spec, answer.error.code), `${method} refused with ${answer.error.code}`).toBe(true);
      }
    }
    expect(answered).toBeGreaterThan(20);
  });

  it('an error code its contract does not declare is a host bug: logged, and answered INTERNAL naming it; declared ones pass', async () => {
    const failing = (code: string) => ({ quiet: async () => Promise.reject(new HostFailure({ code: code as never, message: `failed with ${code}` })) }) as unknown as ExtensionGenerator;
    // A generation answers itself (later, through the gate): its answer is checked all the same.
    const timedOut = hostAndWorker(['generation'], failing('LLM_TIMEOUT'));
    expect(failed(await timedOut.ask('generate.quiet', { prompt: 'p' }))).toMatchObject({ code: 'LLM_TIMEOUT' });
    const held = hostAndWorker(['generation'], failing('CONNECTION_HELD'));
    expect(failed(await held.ask('generate.quiet', { prompt: 'p' }))).toMatchObject({ code: 'CONNECTION_HELD' });
    const buggy = hostAndWorker(['generation'], failing('WORKER_MEMORY'));
    expect(failed(await buggy.ask('generate.quiet', { prompt: 'p' }))).toMatchObject({ code: 'INTERNAL', message: expect.stringContaining('WORKER_MEMORY') });
    expect(buggy.logs).toContain('error: Host bug: spindle.generate.quiet answered WORKER_MEMORY, which its contract does not declare.');
  });
});
