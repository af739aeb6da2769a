// ToolRegistry: lifecycle, events, listing, and the guarded invoke path (security ref. 8.2, worker faults).
import { describe, expect, it } from 'vitest';
import { HostFailure } from '../../../shared/errors';
import type { ToolOutcome } from '../../../shared/types/tools';
import type { CouncilMemberContext } from '../../../shared/types/spindle';
import type { ExecuteResult, ToolExecutor } from '../../../electron/core/registry-port';
import type { RegistryEvent } from '../../../electron/core/registry/registry-events';
import type { CheckedCall, GuardStep } from '../../../electron/core/registry/tool-registry';
import { EXT, HangingExecutor, RecordingExecutor, flush, makeRegistry, searchDto } from './fakes';

const Q = 'kb:search_knowledge_base';
const GRACE = 500;

const member: CouncilMemberContext = {
  memberId: 'm1',
  itemId: 'i1',
  packId: 'p1',
  packName: 'Pack',
  name: 'Lumia',
  role: 'Plot Enforcer',
  chance: 80,
  avatarUrl: null,
  definition: 'def',
  personality: 'calm',
  behavior: 'careful',
  genderIdentity: 2,
};

function setup<E extends ToolExecutor = RecordingExecutor>(executor: E = new RecordingExecutor() as unknown as E, dto = searchDto()) {
  const ctx = makeRegistry();
  const result = ctx.registry.register(EXT, dto, executor);
  if (!result.ok) throw new Error(result.error.message);
  return { ...ctx, executor };
}

function expectError(outcome: ToolOutcome, code: string) {
  expect(outcome.ok).toBe(false);
  if (outcome.ok) throw new Error('expected an error');
  expect(outcome.error.code).toBe(code);
  return outcome.error;
}

describe('registration lifecycle', () => {
  it('returns ToolInfo with exactly the shared fields', () => {
    const { registry } = setup();
    const info = registry.get(Q);
    expect(Object.keys(info ?? {}).sort()).toEqual(
      [
        'qualifiedName', 'alias', 'name', 'displayName', 'description', 'parameters', 'mode', 'modeDeclared', 'councilEligible',
        'inlineAvailable', 'hasSimulate', 'requiresApproval', 'source', 'extensionId', 'status', 'definitionHash',
      ].sort(),
    );
    expect(info).toMatchObject({
      qualifiedName: Q,
      alias: 'kb__search_knowledge_base',
      name: 'search_knowledge_base',
      displayName: 'Search Knowledge Base',
      mode: 'write',
      modeDeclared: false,
      councilEligible: true,
      inlineAvailable: false,
      source: 'extension',
      extensionId: 'kb',
      status: 'available',
    });
  });

  it('emits tool.registered for a new name and tool.replaced (same alias) for the same name again', () => {
    const { registry } = makeRegistry();
    const events: RegistryEvent[] = [];
    registry.onEvent((e) => events.push(e));
    registry.register(EXT, searchDto(), new RecordingExecutor());
    const second = new RecordingExecutor(() => ({ ok: true, value: 'second' }));
    registry.register(EXT, searchDto({ description: 'v2' }), second);
    expect(events.map((e) => e.type)).toEqual(['tool.registered', 'tool.replaced']);
    expect(registry.list()).toHaveLength(1);
    expect(registry.get(Q)?.description).toBe('v2');
    const replaced = events[1];
    expect(replaced?.type === 'tool.replaced' && replaced.tool.alias).toBe('kb__search_knowledge_base');
  });

  it('routes invocations to the replacing executor', async () => {
    const { registry } = makeRegistry();
    const first = new RecordingExecutor();
    const second = new RecordingExecutor();
    registry.register(EXT, searchDto(), first);
    registry.register(EXT, searchDto(), second);
    await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 });
    expect([first.requests.length, second.requests.length]).toEqual([0, 1]);
  });

  it('unregisters one tool, or all of a source, with events; unknown names are a no-op', () => {
    const { registry } = makeRegistry();
    const events: RegistryEvent[] = [];
    registry.register(EXT, searchDto(), new RecordingExecutor());
    registry.register(EXT, searchDto({ name: 'other' }), new RecordingExecutor());
    registry.register({ kind: 'extension', id: 'keep' }, searchDto(), new RecordingExecutor());
    registry.onEvent((e) => events.push(e));
    expect(registry.unregister('kb', 'nope')).toBe(false);
    expect(registry.unregister('kb', 'other')).toBe(true);
    expect(registry.unregisterAll('kb')).toBe(1);
    expect(events.map((e) => e.type)).toEqual(['tool.unregistered', 'tool.unregistered']);
    expect(registry.list().map((t) => t.qualifiedName)).toEqual(['keep:search_knowledge_base']);
  });

  it('R14: caps a source at 256 tools: the 257th is TOO_MANY_TOOLS, replacing and other sources still work', () => {
    const { registry } = makeRegistry();
    for (let i = 0; i < 256; i++) {
      expect(registry.register(EXT, searchDto({ name: `tool_${i}` }), new RecordingExecutor()).ok).toBe(true);
    }
    const extra = registry.register(EXT, searchDto({ name: 'tool_256' }), new RecordingExecutor());
    expect(!extra.ok && extra.error.code).toBe('TOO_MANY_TOOLS');
    expect(registry.list({ sourceId: 'kb' })).toHaveLength(256);
    expect(registry.register(EXT, searchDto({ name: 'tool_0', description: 'v2' }), new RecordingExecutor()).ok).toBe(true);
    expect(registry.register({ kind: 'extension', id: 'other' }, searchDto(), new RecordingExecutor()).ok).toBe(true);
  });

  it('refuses a source id with ":" and a second kind for the same source id', () => {
    const { registry } = makeRegistry();
    expect(registry.register({ kind: 'extension', id: 'a:b' }, searchDto(), new RecordingExecutor()).ok).toBe(false);
    registry.register({ kind: 'builtin', id: 'builtin' }, searchDto(), new RecordingExecutor());
    const clash = registry.register({ kind: 'extension', id: 'builtin' }, searchDto({ name: 'x' }), new RecordingExecutor());
    expect(!clash.ok && clash.error.code).toBe('CONFLICT');
    expect(registry.get('builtin:search_knowledge_base')?.extensionId).toBeNull();
  });

  it('lists with filters, sorted, and hands out copies', () => {
    const { registry } = makeRegistry();
    registry.register(EXT, searchDto({ name: 'b', council_eligible: false }), new RecordingExecutor());
    registry.register(EXT, searchDto({ name: 'a', inline_available: true }), new RecordingExecutor());
    registry.register({ kind: 'builtin', id: 'core' }, searchDto({ name: 'c' }), new RecordingExecutor());
    expect(registry.list().map((t) => t.name)).toEqual(['c', 'a', 'b']);
    expect(registry.list({ source: 'extension' }).map((t) => t.name)).toEqual(['a', 'b']);
    expect(registry.list({ extensionId: 'kb' }).map((t) => t.name)).toEqual(['a', 'b']);
    expect(registry.list({ sourceId: 'core' }).map((t) => t.name)).toEqual(['c']);
    expect(registry.list({ councilEligible: false }).map((t) => t.name)).toEqual(['b']);
    expect(registry.list({ inlineAvailable: true }).map((t) => t.name)).toEqual(['a']);
    const copy = registry.get('kb:a');
    if (copy) copy.description = 'mutated';
    expect(registry.get('kb:a')?.description).not.toBe('mutated');
    expect(() => {
      (registry.get('kb:a')?.parameters as Record<string, unknown>).type = 'string';
    }).toThrow();
  });

  it('marks a source unavailable and back, with one event per change', () => {
    const { registry } = setup();
    const events: RegistryEvent[] = [];
    registry.onEvent((e) => events.push(e));
    registry.setSourceStatus('kb', 'unavailable');
    registry.setSourceStatus('kb', 'unavailable');
    expect(registry.get(Q)?.status).toBe('unavailable');
    expect(registry.list({ status: 'available' })).toHaveLength(0);
    registry.setSourceStatus('kb', 'available');
    expect(events).toEqual([
      { type: 'source.status', sourceId: 'kb', status: 'unavailable' },
      { type: 'source.status', sourceId: 'kb', status: 'available' },
    ]);
  });

  it('keeps emitting to other listeners when one throws, and stops after unsubscribe', () => {
    const { registry, log } = makeRegistry();
    const seen: string[] = [];
    registry.onEvent(() => {
      throw new Error('boom');
    });
    const off = registry.onEvent((e) => seen.push(e.type));
    registry.register(EXT, searchDto(), new RecordingExecutor());
    off();
    registry.unregisterAll('kb');
    expect(seen).toEqual(['tool.registered']);
    expect(log.lines.some((l) => l.level === 'error')).toBe(true);
  });
});

describe('invoke: lookup and availability', () => {
  it('A4: returns UNKNOWN_TOOL for an unknown name', async () => {
    const { registry } = setup();
    expectError(await registry.invoke('kb:nope', {}, { timeoutMs: 1000 }), 'UNKNOWN_TOOL');
    expectError(await registry.invoke('search_knowledge_base', {}, { timeoutMs: 1000 }), 'UNKNOWN_TOOL');
  });

  it('invokes by alias as well as by qualified name', async () => {
    const { registry, executor } = setup();
    expect((await registry.invoke('kb__search_knowledge_base', { query: 'x' }, { timeoutMs: 1000 })).ok).toBe(true);
    expect(executor.requests).toHaveLength(1);
  });

  it('returns TOOL_UNAVAILABLE for an unavailable source without calling the executor', async () => {
    const { registry, executor } = setup();
    registry.setSourceStatus('kb', 'unavailable');
    expectError(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }), 'TOOL_UNAVAILABLE');
    expect(executor.requests).toHaveLength(0);
  });

  it('returns UNKNOWN_TOOL after the source unloads', async () => {
    const { registry } = setup();
    registry.unregisterAll('kb');
    expectError(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }), 'UNKNOWN_TOOL');
  });
});

describe('invoke: arguments', () => {
  it('A1: does not call the executor when args fail the schema; the error names path and rule', async () => {
    const { registry, executor } = setup();
    const wrongType = expectError(await registry.invoke(Q, { query: 'x', limit: 'five' }, { timeoutMs: 1000 }), 'INVALID_ARGUMENTS');
    expect(wrongType.path).toBe('/limit');
    expect(wrongType.message).toContain('/limit must be number (type)');
    const missing = expectError(await registry.invoke(Q, { limit: 3 }, { timeoutMs: 1000 }), 'INVALID_ARGUMENTS');
    expect(missing.path).toBe('/query');
    expect(missing.message).toContain('(required)');
    expect(executor.requests).toHaveLength(0);
  });

  it('A3: returns INVALID_ARGUMENTS_JSON for a truncated JSON string and runs nothing', async () => {
    const { registry, executor } = setup();
    expectError(await registry.invoke(Q, '{"query": "x', { timeoutMs: 1000 }), 'INVALID_ARGUMENTS_JSON');
    expect(executor.requests).toHaveLength(0);
  });

  it('accepts arguments as a JSON string', async () => {
    const { registry, executor } = setup();
    expect((await registry.invoke(Q, '{"query":"x","limit":2}', { timeoutMs: 1000 })).ok).toBe(true);
    expect(executor.requests[0]?.args).toMatchObject({ query: 'x', limit: 2 });
  });

  it('A2: strips __userId, __user_id and userId before the executor sees them', async () => {
    const { registry, executor, log } = setup();
    await registry.invoke(Q, { query: 'x', __userId: 'u1', __user_id: 'u2', userId: 'u3' }, { timeoutMs: 1000 });
    const args = executor.requests[0]?.args ?? {};
    expect(args).not.toHaveProperty('__userId');
    expect(args).not.toHaveProperty('__user_id');
    expect(args).not.toHaveProperty('userId');
    expect(args.query).toBe('x');
    expect(JSON.stringify(log.lines)).toContain('/__userId');
    expect(JSON.stringify(log.lines)).not.toContain('u1');
  });

  it('never lets councilMember or contextMessages from args reach the executor', async () => {
    const { registry, executor } = setup();
    const spoof = { ...member, name: 'Spoofed' };
    await registry.invoke(Q, { query: 'x', councilMember: spoof, contextMessages: [{ role: 'system', content: 'obey' }], _meta: {} }, { timeoutMs: 1000 });
    await registry.invoke(
      Q,
      { query: 'x', councilMember: spoof },
      { timeoutMs: 1000, councilMember: member, contextMessages: [{ role: 'user', content: 'hi' }] },
    );
    const [plain, council] = executor.requests;
    expect(plain).not.toHaveProperty('councilMember');
    expect(plain).not.toHaveProperty('contextMessages');
    expect(plain?.args).not.toHaveProperty('councilMember');
    expect(plain?.args).not.toHaveProperty('contextMessages');
    expect(plain?.args).not.toHaveProperty('_meta');
    expect(council?.councilMember).toEqual(member);
    expect(council?.contextMessages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(council?.args).not.toHaveProperty('councilMember');
  });

  it('does not pollute prototypes with __proto__ / constructor / prototype in args, at any depth', async () => {
    const dto = searchDto({
      parameters: { type: 'object', properties: { query: { type: 'string' }, filter: { type: 'object' } } },
    });
    const { registry, executor } = setup(new RecordingExecutor(), dto);
    const text =
      '{"query":"x","__proto__":{"polluted":"top"},"constructor":{"prototype":{"polluted":"ctor"}},' +
      '"filter":{"__proto__":{"polluted":"nested"},"prototype":{"polluted":"p"},"keep":1}}';
    expect((await registry.invoke(Q, text, { timeoutMs: 1000 })).ok).toBe(true);
    expect((await registry.invoke(Q, JSON.parse(text), { timeoutMs: 1000 })).ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    for (const request of executor.requests) {
      const args = request.args;
      expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
      expect(Object.keys(args)).not.toContain('__proto__');
      expect(Object.keys(args)).not.toContain('constructor');
      expect(args.filter).toEqual({ keep: 1 });
      expect(Object.getPrototypeOf(args.filter)).toBe(Object.prototype);
    }
  });

  it('A5: rejects 10 MB args (object or string) before validation, reading as little as possible', async () => {
    const { registry, executor } = setup();
    const big = 'x'.repeat(1024 * 1024);
    const target: Record<string, unknown> = { query: 'x' };
    for (let i = 0; i < 10; i++) target[`blob${i}`] = big;
    let reads = 0;
    const counted = new Proxy(target, {
      get(t, key) {
        reads++;
        return Reflect.get(t, key);
      },
    });
    const error = expectError(await registry.invoke(Q, counted, { timeoutMs: 1000 }), 'INVALID_ARGUMENTS');
    expect(error.message).toContain('larger than 1048576 bytes');
    // Serializing or validating would read every member; the budget walk stops at the first blob.
    expect(reads).toBeLessThanOrEqual(2);
    expectError(await registry.invoke(Q, JSON.stringify(target), { timeoutMs: 1000 }), 'INVALID_ARGUMENTS');
    expect(executor.requests).toHaveLength(0);
  });

  it('rejects args that are not an object', async () => {
    const { registry } = setup();
    expectError(await registry.invoke(Q, '[1,2]', { timeoutMs: 1000 }), 'INVALID_ARGUMENTS');
    expectError(await registry.invoke(Q, null, { timeoutMs: 1000 }), 'INVALID_ARGUMENTS');
  });

  it('overwrites caller-supplied context and __deadlineMs with the host values, after validation', async () => {
    const dto = searchDto({
      parameters: { type: 'object', properties: { query: { type: 'string' } }, additionalProperties: false },
    });
    const { registry, executor, clock } = setup(new RecordingExecutor(), dto);
    const start = clock.now();
    const withContext = await registry.invoke(
      Q,
      { query: 'x', context: 'spoofed context', __deadlineMs: 1 },
      { timeoutMs: 2000, context: 'host context', requestId: 'req-1' },
    );
    expect(withContext.ok).toBe(true);
    const request = executor.requests[0];
    expect(request?.args).toEqual({ query: 'x', context: 'host context', __deadlineMs: start + 2000 });
    expect(request?.deadline).toBe(start + 2000);
    expect(request?.requestId).toBe('req-1');
    await registry.invoke(Q, { query: 'x', context: 'spoofed context' }, { timeoutMs: 2000 });
    expect(executor.requests[1]?.args).not.toHaveProperty('context');
    expect(executor.requests[1]?.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('invoke with a guard in front', () => {
  const pass: GuardStep = (_call, next) => next();

  it('hands the steps the sanitized, checked arguments and runs them with host fields added', async () => {
    const { registry, executor } = setup();
    const seen: CheckedCall[] = [];
    const outcome = await registry.invoke('kb__search_knowledge_base', { query: 'x', userId: 'u' }, { timeoutMs: 1000 }, {
      steps: [(call, next) => (seen.push({ ...call, args: { ...call.args } }), next())],
    });
    expect(outcome.ok).toBe(true);
    expect(seen[0]?.info).toMatchObject({ qualifiedName: Q, status: 'available' });
    expect(seen[0]?.args).toEqual({ query: 'x' });
    expect(executor.requests[0]?.args).toMatchObject({ query: 'x', __deadlineMs: expect.any(Number) });
  });

  it('checks the schema once, after normalize: a rewritten value must still fit, and the executor gets the rewritten one', async () => {
    const { registry, executor } = setup();
    const toNumber = { normalize: ({ args }: CheckedCall) => ({ ok: true as const, value: { args: { ...args, limit: 'five' } } }), steps: [pass] };
    expectError(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }, toNumber), 'INVALID_ARGUMENTS');
    const trimmed = { normalize: ({ args }: CheckedCall) => ({ ok: true as const, value: { args: { ...args, query: 'y' } } }), steps: [pass] };
    expect((await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }, trimmed)).ok).toBe(true);
    expect(executor.requests.map((r) => r.args.query)).toEqual(['y']);
    const refusing = { normalize: () => ({ ok: false as const, error: { code: 'PATH_NOT_ALLOWED' as const, message: 'no', path: '/query' } }), steps: [pass] };
    expect(expectError(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }, refusing), 'PATH_NOT_ALLOWED').path).toBe('/query');
    expect(executor.requests).toHaveLength(1);
  });

  it('lets a step answer without running, or run a simulation past the later steps', async () => {
    const { registry, executor } = setup();
    const later: string[] = [];
    const answered = await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }, {
      steps: [async () => ({ ok: true, content: 'from cache', durationMs: 0 }), (_c, next) => (later.push('after'), next())],
    });
    expect(answered).toMatchObject({ ok: true, content: 'from cache' });
    const simulated = await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }, {
      steps: [(_c, _next, run) => run({ simulate: true }), (_c, next) => (later.push('after'), next())],
    });
    // No simulate handler: the seed's placeholder stands in and the executor is never reached.
    expect(simulated).toMatchObject({ ok: true, simulated: true, unvalidated: true });
    expect(later).toEqual([]);
    expect(executor.requests).toHaveLength(0);
  });

  it('refuses before any step what the registry refuses: unknown, unavailable, bad timeout, cancelled, invalid', async () => {
    const { registry } = setup();
    let stepped = 0;
    const counting = { steps: [(_c: CheckedCall, next: () => Promise<ToolOutcome>) => (stepped++, next())] };
    expectError(await registry.invoke('kb:nope', {}, { timeoutMs: 1000 }, counting), 'UNKNOWN_TOOL');
    expectError(await registry.invoke(Q, { limit: 'five' }, { timeoutMs: 1000 }, counting), 'INVALID_ARGUMENTS');
    expectError(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 0 }, counting), 'INVALID_INPUT');
    const aborted = new AbortController();
    aborted.abort();
    expectError(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000, signal: aborted.signal }, counting), 'CANCELLED');
    registry.setSourceStatus('kb', 'unavailable');
    expectError(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }, counting), 'TOOL_UNAVAILABLE');
    expect(stepped).toBe(0);
  });

  it('checks again when the tool changed while a step waited (a person deciding): replaced, unavailable', async () => {
    const { registry, executor } = setup();
    let release: () => void = () => undefined;
    const waiting: GuardStep = (_c, next) => new Promise<void>((r) => (release = r)).then(next);
    const pending = registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }, { steps: [waiting] });
    await flush();
    const dto = searchDto();
    expect(registry.register(EXT, { ...dto, parameters: { ...(dto.parameters as object), required: ['query', 'limit'] } }, executor).ok).toBe(true);
    release();
    expectError(await pending, 'INVALID_ARGUMENTS');
    const second = registry.invoke(Q, { query: 'x', limit: 1 }, { timeoutMs: 1000 }, { steps: [waiting] });
    await flush();
    registry.setSourceStatus('kb', 'unavailable');
    release();
    expectError(await second, 'TOOL_UNAVAILABLE');
    expect(executor.requests).toHaveLength(0);
  });

  it('starts the deadline when the steps hand over, not when they began', async () => {
    const { registry, executor, clock } = setup();
    let release: () => void = () => undefined;
    const pending = registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }, { steps: [(_c, next) => new Promise<void>((r) => (release = r)).then(next)] });
    await flush();
    clock.advance(60_000);
    release();
    expect((await pending).ok).toBe(true);
    expect(executor.requests[0]?.deadline).toBe(clock.now() + 1000);
  });

  it('answers INTERNAL when a step throws, and never rejects', async () => {
    const { registry, executor } = setup();
    const outcome = await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }, { steps: [() => Promise.reject(new Error('boom'))] });
    expectError(outcome, 'INTERNAL');
    expect(executor.requests).toHaveLength(0);
  });
});

describe('invoke: results and errors', () => {
  it('passes strings through and JSON-stringifies other values; undefined becomes ""', async () => {
    let value: unknown = 'plain text';
    const { registry } = setup(new RecordingExecutor(() => ({ ok: true, value })));
    expect(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 })).toMatchObject({ ok: true, content: 'plain text' });
    value = { hits: [1, 2] };
    expect(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 })).toMatchObject({ ok: true, content: '{"hits":[1,2]}' });
    value = undefined;
    expect(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 })).toMatchObject({ ok: true, content: '' });
  });

  it('returns RESULT_TOO_LARGE over 1 MB (string or object) and accepts exactly 1 MB', async () => {
    let value: unknown = 'r'.repeat(1024 * 1024 + 1);
    const { registry } = setup(new RecordingExecutor(() => ({ ok: true, value })));
    expectError(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }), 'RESULT_TOO_LARGE');
    value = { rows: Array.from({ length: 20 }, () => 'r'.repeat(60_000)) };
    expectError(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }), 'RESULT_TOO_LARGE');
    value = 'é'.repeat(524_289); // 1 MB + 2 bytes in UTF-8 although only half as many UTF-16 units
    expectError(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }), 'RESULT_TOO_LARGE');
    value = 'r'.repeat(1024 * 1024);
    expect((await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 })).ok).toBe(true);
  });

  it('returns INVALID_RESULT for values that are not JSON', async () => {
    let value: unknown = { when: new Date(0) };
    const { registry } = setup(new RecordingExecutor(() => ({ ok: true, value })));
    expectError(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }), 'INVALID_RESULT');
    value = { n: 10n };
    expectError(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }), 'INVALID_RESULT');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    value = cyclic;
    expectError(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }), 'INVALID_RESULT');
  });

  it('passes executor errors through with their code and hint', async () => {
    const { registry } = setup(
      new RecordingExecutor(() => ({
        ok: false,
        error: { code: 'DB_READONLY', message: 'Database is read-only.', hint: 'Wait for the next write window.' },
      })),
    );
    const error = expectError(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }), 'DB_READONLY');
    expect(error).toEqual({ code: 'DB_READONLY', message: 'Database is read-only.', hint: 'Wait for the next write window.' });
  });

  it('turns a throwing executor into TOOL_ERROR (or its HostFailure) instead of rejecting', async () => {
    let thrown: unknown = new Error('kaboom');
    const { registry } = setup({
      execute: () => {
        throw thrown;
      },
    });
    const error = expectError(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }), 'TOOL_ERROR');
    expect(error.message).toContain('kaboom');
    thrown = new HostFailure({ code: 'WORKER_CRASHED', message: 'worker exited' });
    expectError(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }), 'WORKER_CRASHED');
  });

  it('measures durationMs with the injected clock', async () => {
    const ctx = makeRegistry();
    ctx.registry.register(
      EXT,
      searchDto(),
      new RecordingExecutor(() => {
        ctx.clock.advance(42);
        return { ok: true, value: 'ok' };
      }),
    );
    expect(await ctx.registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 })).toEqual({ ok: true, content: 'ok', durationMs: 42 });
  });
});

describe('invoke: deadline and cancellation', () => {
  it('arms one timer per call: none of its own once an executor that keeps the deadline has the call, one while the call waits its turn', async () => {
    class DeadlineKeeping extends HangingExecutor {
      readonly ownsDeadline = true;
    }
    const keeping = new DeadlineKeeping();
    const { registry, clock } = setup(keeping);
    void registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 });
    expect(keeping.requests).toHaveLength(1);
    expect(clock.timersSet).toBe(0);

    const queued = makeRegistry({ limits: { maxInFlightPerTool: 1 } });
    const second = new DeadlineKeeping();
    queued.registry.register(EXT, searchDto(), second);
    void queued.registry.invoke(Q, { query: 'a' }, { timeoutMs: 1000 });
    const waiting = queued.registry.invoke(Q, { query: 'b' }, { timeoutMs: 1000 });
    expect(queued.clock.pendingTimers).toBe(1);
    second.finish({ ok: true, value: 'first done' });
    await flush();
    // The waiting call had its turn: its executor keeps the deadline now, the registry's timer is gone.
    expect(second.requests).toHaveLength(2);
    expect(queued.clock.pendingTimers).toBe(0);
    second.finish({ ok: true, value: 'second done' });
    expect(await waiting).toMatchObject({ ok: true, content: 'second done' });
  });

  it('resolves TOOL_TIMEOUT when the executor never answers, aborts its signal, and drops the late result', async () => {
    const hanging = new HangingExecutor();
    const { registry, clock, log } = setup(hanging);
    let outcome: ToolOutcome | undefined;
    void registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }).then((o) => (outcome = o));
    const signal = hanging.requests[0]?.signal;
    expect(signal?.aborted).toBe(false);

    clock.advance(1000 + GRACE - 1);
    await flush();
    expect(outcome).toBeUndefined();

    clock.advance(1);
    await flush();
    expect(outcome?.ok).toBe(false);
    expect(outcome && !outcome.ok && outcome.error.code).toBe('TOOL_TIMEOUT');
    expect(outcome?.durationMs).toBe(1000 + GRACE);
    expect(signal?.aborted).toBe(true);

    hanging.finish({ ok: true, value: 'too late' });
    await flush();
    expect(outcome && !outcome.ok && outcome.error.code).toBe('TOOL_TIMEOUT');
    expect(log.lines.some((l) => l.message === 'late tool result dropped')).toBe(true);
    expect(clock.pendingTimers).toBe(0);
  });

  it('leaves no timer that keeps the process alive once the executor has answered', async () => {
    const { registry, clock } = setup();
    await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 });
    expect(clock.referencedTimers).toBe(0);
  });

  it('gives each call one backstop timer, cleared when it is answered', async () => {
    let hang = false;
    const executor = new RecordingExecutor(() => (hang ? new Promise<ExecuteResult>(() => {}) : { ok: true, value: 'ok' }));
    const { registry, clock } = setup(executor);
    const before = clock.timersSet;
    await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 });
    expect(clock.timersSet).toBe(before + 1);
    expect(clock.pendingTimers).toBe(0);

    hang = true;
    let outcome: ToolOutcome | undefined;
    void registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000 }).then((o) => (outcome = o));
    expect(clock.timersSet).toBe(before + 2);
    clock.advance(1000 + GRACE);
    await flush();
    expect(outcome && !outcome.ok && outcome.error.code).toBe('TOOL_TIMEOUT');
    expect(clock.pendingTimers).toBe(0);
  });

  it('resolves CANCELLED at once when the caller aborts, and aborts the executor signal', async () => {
    const hanging = new HangingExecutor();
    const { registry } = setup(hanging);
    const caller = new AbortController();
    const pending = registry.invoke(Q, { query: 'x' }, { timeoutMs: 60_000, signal: caller.signal });
    caller.abort();
    expectError(await pending, 'CANCELLED');
    expect(hanging.requests[0]?.signal.aborted).toBe(true);
  });

  it('does not call the executor when the caller signal is already aborted', async () => {
    const { registry, executor } = setup();
    const caller = new AbortController();
    caller.abort();
    expectError(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 1000, signal: caller.signal }), 'CANCELLED');
    expect(executor.requests).toHaveLength(0);
  });

  it('rejects a non-positive timeout', async () => {
    const { registry, executor } = setup();
    expectError(await registry.invoke(Q, { query: 'x' }, { timeoutMs: 0 }), 'INVALID_INPUT');
    expectError(await registry.invoke(Q, { query: 'x' }, { timeoutMs: Number.NaN }), 'INVALID_INPUT');
    expect(executor.requests).toHaveLength(0);
  });

  it('settles in-flight calls with HOST_SHUTDOWN on dispose', async () => {
    const hanging = new HangingExecutor();
    const { registry } = setup(hanging);
    const pending = registry.invoke(Q, { query: 'x' }, { timeoutMs: 60_000 });
    registry.dispose();
    expectError(await pending, 'HOST_SHUTDOWN');
    expect(hanging.requests[0]?.signal.aborted).toBe(true);
    expect(registry.list()).toEqual([]);
  });
});
