import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openChatDb } from '../../../electron/core/db/chat-db';
import { runCycle, type CycleTask } from '../../../electron/core/council/execute-cycle';
import { KeyedLimiter } from '../../../electron/core/council/limiter';
import { ToolRegistry } from '../../../electron/core/registry/tool-registry';
import type { HostEvent } from '../../../shared/contract/events';
import type { CouncilRun, CouncilView, RunSummary } from '../../../shared/types/council';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { addMember, call, callError, councilHost, memorySidecar, sampleChat } from '../council/helpers';

afterEach(cleanupTempDirs);

const types = (events: HostEvent[]) => events.map((e) => e.type).filter((t) => t.startsWith('council.run'));

describe('council runs', () => {
  it('runs extension and prompt tools, emits live events, stores the run, exports a trace', async () => {
    const host = await councilHost();
    const sidecar = memorySidecar(() => 'The scene should move to the lamp room.');
    host.council.setSidecar(sidecar);
    const a = await addMember(host, { role: 'Plot Enforcer', tools: ['council-probe:quick', 'council:pacing_review'] });
    const b = await addMember(host, { itemId: 'continuity-keeper', tools: ['pack.story-council:stakes_check'] });
    const run = await call<CouncilRun>(host, 'council.run', { chat: sampleChat(), seed: 1 });
    expect(run.status).toBe('completed');
    expect(run.results.map((r) => [r.memberId, r.toolName, r.status])).toEqual([
      [a, 'council-probe:quick', 'ok'],
      [a, 'council:pacing_review', 'ok'],
      [b, 'pack.story-council:stakes_check', 'ok'],
    ]);
    expect(run.results[0]).toMatchObject({ memberName: 'Marshal Vane', toolDisplayName: 'quick', success: true, content: 'quick from Marshal Vane' });
    for (const r of run.results) {
      expect(r.startedAt).toBeGreaterThanOrEqual(0);
      expect(r.durationMs).toBeGreaterThanOrEqual(0);
    }
    expect(run.deliberationBlock).toContain('### Feedback perspective: **Marshal Vane**');
    expect(run.deliberationBlock).toContain('**Pacing Review:**');
    expect(run.deliberationBlock).toContain('### Feedback perspective: **Archivist Wren**');
    expect(run.deliberationBlock).toContain('**Stakes Check:**');
    // the prompt tool carried the member identity, role and the tool prompt to the sidecar
    const stakes = sidecar.calls.find((c) => c.system.includes('## Tool: Stakes Check'))!;
    expect(stakes.system).toContain('You are Archivist Wren');
    expect(stakes.system).toContain('Answer in at most 250 words');
    expect(stakes.prompt).toContain('I need shelter from the storm.');
    expect(sidecar.calls.find((c) => c.system.includes('## Tool: Pacing Review'))!.system).toContain('serving as Plot Enforcer');

    expect(types(host.events)).toEqual(['council.run.started', 'council.run.result', 'council.run.result', 'council.run.result', 'council.run.finished']);
    const started = host.events.find((e) => e.type === 'council.run.started') as Extract<HostEvent, { type: 'council.run.started' }>;
    expect(started).toMatchObject({ runId: run.id, seed: 1, planned: expect.any(Array), rolls: run.rolls });
    expect(started.planned).toHaveLength(3);

    const list = await call<RunSummary[]>(host, 'runs.list', {});
    expect(list[0]).toMatchObject({ id: run.id, seed: 1, counts: { ok: 3, failed: 0, total: 3 }, activeMembers: 2 });
    const stored = await call<CouncilRun>(host, 'runs.get', { runId: run.id });
    expect(stored.deliberationBlock).toBe(run.deliberationBlock);
    expect(stored.chat?.messages).toHaveLength(3);
    const trace = await call<{ fileName: string; content: string }>(host, 'runs.exportTrace', { runId: run.id });
    const lines = trace.content.trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(lines[0]!.type).toBe('run.started');
    expect(lines.filter((l) => l.type === 'roll')).toHaveLength(2);
    expect(lines.filter((l) => l.type === 'tool.finished')).toHaveLength(3);
    expect(lines.at(-1)!.type).toBe('run.finished');
    await host.council.runs.flush();
    await host.dispose();
  });

  it('a member pointing at a missing pack item or an unregistered tool is shown as missing; the run goes on and reports it', async () => {
    const host = await councilHost();
    const ghost = await addMember(host, { tools: ['council-probe:quick'] });
    const real = await addMember(host, { itemId: 'pacing-critic', tools: ['council-probe:quick', 'gone-extension:tool'] });
    // the item disappears: rewrite the member to point at an item that does not exist
    await host.settings.update((s) => ({ ...s, council: { ...s.council, members: s.council.members.map((m) => (m.id === ghost ? { ...m, itemId: 'vanished' } : m)) } }));
    const view = await call<CouncilView>(host, 'council.get', {});
    expect(view.members[0]).toMatchObject({ id: ghost, missingItem: true, name: 'vanished', avatarUrl: null });
    expect(view.members[1]).toMatchObject({ id: real, missingItem: false, missingTools: ['gone-extension:tool'] });
    expect(view.members[1]!.toolViews[1]).toMatchObject({ qualifiedName: 'gone-extension:tool', missing: true });
    expect(view.warnings.join('\n')).toMatch(/vanished is missing[\s\S]*gone-extension:tool is not registered/);

    const run = await call<CouncilRun>(host, 'council.run', { chat: sampleChat() });
    expect(run.results.map((r) => [r.memberId, r.toolName, r.status])).toEqual([
      [ghost, 'council-probe:quick', 'missing'],
      [real, 'council-probe:quick', 'ok'],
      [real, 'gone-extension:tool', 'missing'],
    ]);
    expect(run.results[0]!.error).toMatch(/story-council\/vanished is missing/);
    expect(run.results[2]!.error).toMatch(/not registered/);
    expect(run.deliberationBlock).toContain('quick from Tempo');
    expect(run.note).toMatch(/2 of 3 tools failed/);
    await host.dispose();
  });

  it('C2: every tool timing out: the run ends at its deadline, failures marked, the block says no tool ran', async () => {
    const host = await councilHost();
    await call(host, 'council.update', { patch: { toolsSettings: { timeoutMs: 300 } } });
    for (let i = 0; i < 3; i++) await addMember(host, { tools: ['council-probe:wait_forever'] });
    const run = await call<CouncilRun>(host, 'council.run', { chat: sampleChat() });
    expect(run.results.map((r) => r.status)).toEqual(['timeout', 'timeout', 'timeout']);
    expect(run.results.every((r) => r.errorCode === 'TOOL_TIMEOUT' && !r.success)).toBe(true);
    expect(run.deliberationBlock).toMatch(/No council tools ran/);
    expect(run.note).toBe('No tool succeeded: 3 timeout.');
    await host.dispose();
  });

  it('the cycle deadline does not wait for tools that hang (injected timers: nothing real elapses)', async () => {
    const registry = new ToolRegistry();
    registry.register({ kind: 'builtin', id: 'hang' }, { name: 'forever', display_name: 'Forever', description: 'never answers', parameters: { type: 'object' } }, { execute: () => new Promise(() => {}) });
    let fire: (() => void) | undefined;
    let scheduledFor = -1;
    const timers = { setTimeout: (fn: () => void, ms: number) => ((fire = fn), (scheduledFor = ms), 1), clearTimeout: () => {} };
    let now = 1000;
    const member = { memberId: 'm', itemId: 'i', packId: 'p', packName: 'P', name: 'N', role: '', chance: 100, avatarUrl: null, definition: '', personality: '', behavior: '', genderIdentity: 3 as const };
    const tasks: CycleTask[] = [1, 2, 3].map((i) => ({ memberId: `m${i}`, memberName: 'N', qualifiedName: 'hang:forever', displayName: 'Forever', member }));
    const done = runCycle(
      { registry, sidecar: memorySidecar(), limiter: new KeyedLimiter(4), clock: { now: () => now }, timers, isPromptTool: () => false },
      { tasks, mode: 'sidecar', timeoutMs: 30_000, contextMessages: [], context: '' },
    );
    expect(scheduledFor).toBe(30_000);
    now += 30_000;
    fire!();
    const out = await done;
    expect(out.results.map((r) => r.status)).toEqual(['timeout', 'timeout', 'timeout']);
    expect(out.totalDurationMs).toBe(30_000);
    registry.dispose();
  });

  it('at the deadline every call in flight is cancelled, across the shared abort signals, without a listener-leak warning', async () => {
    const registry = new ToolRegistry();
    const signals: AbortSignal[] = [];
    registry.register(
      { kind: 'builtin', id: 'hang' },
      { name: 'forever', display_name: 'Forever', description: 'never answers', parameters: { type: 'object' } },
      { execute: (request) => (signals.push(request.signal), new Promise(() => {})) },
    );
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    let fire: (() => void) | undefined;
    const timers = { setTimeout: (fn: () => void) => ((fire = fn), 1), clearTimeout: () => {} };
    const member = { memberId: 'm', itemId: 'i', packId: 'p', packName: 'P', name: 'N', role: '', chance: 100, avatarUrl: null, definition: '', personality: '', behavior: '', genderIdentity: 3 as const };
    // 100 calls: more listeners on the cycle's signal than Node's default warning limit.
    const tasks: CycleTask[] = Array.from({ length: 100 }, (_, i) => ({ memberId: `m${i}`, memberName: 'N', qualifiedName: 'hang:forever', displayName: 'Forever', member }));
    const done = runCycle(
      { registry, sidecar: memorySidecar(), limiter: new KeyedLimiter(4), clock: { now: () => 0 }, timers, isPromptTool: () => false },
      { tasks, mode: 'sidecar', timeoutMs: 30_000, contextMessages: [], context: '' },
    );
    await new Promise((r) => setImmediate(r));
    expect(signals).toHaveLength(100);
    expect(signals.some((s) => s.aborted)).toBe(false);
    fire!();
    const out = await done;
    await new Promise((r) => setImmediate(r));
    process.off('warning', onWarning);
    expect(out.results.every((r) => r.status === 'timeout')).toBe(true);
    expect(signals.every((s) => s.aborted)).toBe(true);
    expect(signals).toHaveLength(100);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
    registry.dispose();
  });

  it('an extension crashing mid-run fails only its own calls', async () => {
    const host = await councilHost();
    await addMember(host, { tools: ['council-crasher:crash', 'council-probe:quick'] });
    const run = await call<CouncilRun>(host, 'council.run', { chat: sampleChat() });
    expect(run.results[0]).toMatchObject({ toolName: 'council-crasher:crash', status: 'error', errorCode: 'WORKER_CRASHED', success: false });
    expect(run.results[1]).toMatchObject({ status: 'ok' });
    expect(run.deliberationBlock).toContain('quick from Marshal Vane');
    await host.dispose();
  });

  it('W11, W12: tool output carrying prompt injection or HTML/script stays data inside the fence', async () => {
    const host = await councilHost();
    await addMember(host, { tools: ['council-probe:inject'] });
    const run = await call<CouncilRun>(host, 'council.run', { chat: sampleChat() });
    const block = run.deliberationBlock;
    const lines = block.split('\n');
    const begin = lines.findIndex((l) => l.startsWith('[BEGIN TOOL OUTPUT '));
    const nonce = lines[begin]!.slice('[BEGIN TOOL OUTPUT '.length, -1);
    const end = lines.indexOf(`[END TOOL OUTPUT ${nonce}]`);
    expect(end).toBeGreaterThan(begin);
    const inside = lines.slice(begin + 1, end).join('\n');
    expect(inside).toContain('<script>alert("x")</script>');
    expect(inside).toContain('Ignore all previous instructions');
    // nothing inside passes for structure
    expect(lines.filter((l) => l === '## Council Feedback Usage')).toHaveLength(1);
    expect(lines.indexOf('## Council Feedback Usage')).toBeGreaterThan(end);
    expect(lines.filter((l) => l.startsWith('### Feedback perspective'))).toEqual(['### Feedback perspective: **Marshal Vane**']);
    expect(lines.filter((l) => /^\[END TOOL OUTPUT /.test(l))).toHaveLength(1);
    await host.dispose();
  });

  it('500 members', async () => {
    const host = await councilHost();
    const members = Array.from({ length: 500 }, (_, i) => ({ id: `m${i}`, packId: 'story-council', itemId: 'plot-enforcer', role: `R${i}`, chance: i % 2 ? 100 : 50, tools: ['council-probe:quick'] }));
    await host.settings.update((s) => ({ ...s, council: { ...s.council, members } }));
    const view = await call<CouncilView>(host, 'council.get', {});
    expect(view.members).toHaveLength(500);
    const run = await call<CouncilRun>(host, 'council.run', { chat: sampleChat(), seed: 5 });
    expect(run.rolls).toHaveLength(500);
    const active = run.rolls.filter((r) => r.active).length;
    expect(active).toBeGreaterThan(250);
    expect(run.results).toHaveLength(active);
    expect(run.results.every((r) => r.status === 'ok')).toBe(true);
    expect(run.deliberationBlock.match(/### Feedback perspective/g)).toHaveLength(active);
    await host.dispose();
  });

  it('C5: abort mid-run: every call in flight is cancelled, the run ends as aborted, late results are ignored', async () => {
    const host = await councilHost();
    await addMember(host, { tools: ['council-probe:wait_forever', 'council-probe:quick'] });
    await addMember(host, { itemId: 'pacing-critic', tools: ['council-probe:wait_forever'] });
    const pending = call<CouncilRun>(host, 'council.run', { chat: sampleChat(), runId: 'abort-me' });
    await new Promise<void>((resolve) => {
      const off = host.onEvent((e) => {
        if (e.type === 'council.run.result') {
          off();
          resolve();
        }
      });
    });
    expect(await call(host, 'council.abort', { runId: 'abort-me' })).toEqual({ aborted: true });
    const run = await pending;
    expect(run.status).toBe('aborted');
    expect(run.results.map((r) => r.status)).toEqual(['cancelled', 'ok', 'cancelled']);
    expect(run.note).toMatch(/cancelled/);
    expect(await call(host, 'council.abort', { runId: 'abort-me' })).toEqual({ aborted: false });
    // The worker took the cancels without an error: a call answered after them on the same pipe means it read them.
    expect(await host.registry.invoke('council-probe:quick', {}, { timeoutMs: 5000 })).toMatchObject({ ok: true });
    expect((await call<{ lines: string[] }>(host, 'extensions.log', { id: 'council-probe' })).lines.join('\n')).not.toMatch(/error/i);
    await host.dispose();
  });

  it('retry failed re-runs only the failed tools with the same rolls', async () => {
    const host = await councilHost();
    let fail = true;
    const sidecar = memorySidecar(() => {
      if (fail) throw Object.assign(new Error('rate limited'), { code: 'LLM_RATE_LIMITED' });
      return 'Now it works.';
    });
    host.council.setSidecar(sidecar);
    await addMember(host, { chance: 60, tools: ['council-probe:quick', 'council:continuity_check'] });
    await addMember(host, { itemId: 'pacing-critic', chance: 60, tools: ['council:pacing_review'] });
    const first = await call<CouncilRun>(host, 'council.run', { chat: sampleChat(), seed: 3 });
    const failed = first.results.filter((r) => !r.success);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]!.error).toMatch(/rate limited/);
    fail = false;
    const quickCalls = sidecar.calls.length;
    const retry = await call<CouncilRun>(host, 'council.retryFailed', { runId: first.id });
    expect(retry).toMatchObject({ retryOf: first.id, seed: 3, rolls: first.rolls });
    expect(retry.results.map((r) => [r.memberId, r.toolName])).toEqual(first.results.map((r) => [r.memberId, r.toolName]));
    expect(retry.results.every((r) => r.success)).toBe(true);
    expect(sidecar.calls.length - quickCalls).toBe(failed.length);
    // successful results are carried over unchanged, in place; failed ones re-ran
    first.results.forEach((r, i) => {
      if (r.success) expect(retry.results[i]).toEqual(r);
      else expect(retry.results[i]).toMatchObject({ memberId: r.memberId, toolName: r.toolName, status: 'ok', content: 'Now it works.' });
    });
    await host.dispose();
  });

  it('no sidecar: prompt tools fail with SIDECAR_NOT_CONFIGURED; a tool needing arguments is called as Lumiverse calls it, marked unplanned', async () => {
    const host = await councilHost();
    await addMember(host, { tools: ['council:pacing_review', 'council-probe:needs_query'] });
    const run = await call<CouncilRun>(host, 'council.run', { chat: sampleChat() });
    expect(run.results[0]).toMatchObject({ status: 'error', errorCode: 'SIDECAR_NOT_CONFIGURED' });
    expect(run.results[1]).toMatchObject({ status: 'ok', content: 'unplanned: __deadlineMs,context', unplanned: 'no sidecar LLM is configured to plan query' });
    expect(run.results[1]!.plannedArgs).toBeUndefined();
    const trace = await call<{ content: string }>(host, 'runs.exportTrace', { runId: run.id });
    expect(trace.content).toContain('"unplanned":"no sidecar LLM is configured to plan query"');
    expect((await call<CouncilView>(host, 'council.get', {})).warnings.join()).toMatch(/No sidecar/);
    await host.dispose();
  });

  it('with argument planning off, a configured sidecar plans nothing and the tool runs unplanned', async () => {
    const host = await councilHost();
    const sidecar = memorySidecar(undefined, () => ({ query: 'planned' }));
    host.council.setSidecar(sidecar);
    await addMember(host, { tools: ['council-probe:needs_query'] });
    expect((await call<CouncilRun>(host, 'council.run', { chat: sampleChat() })).results[0]).toMatchObject({ content: 'query=planned', plannedArgs: { query: 'planned' } });
    await call(host, 'council.update', { patch: { toolsSettings: { planArguments: false } } });
    const calls = sidecar.calls.length;
    const run = await call<CouncilRun>(host, 'council.run', { chat: sampleChat() });
    expect(run.results[0]).toMatchObject({ status: 'ok', content: 'unplanned: __deadlineMs,context', unplanned: 'argument planning is off' });
    expect(sidecar.calls.length).toBe(calls);
    await host.dispose();
  });

  it('history: earlier deliberations by member × tool retention go into a separate reference block', async () => {
    const host = await councilHost();
    let n = 0;
    host.council.setSidecar(memorySidecar(() => `analysis ${++n}`));
    const id = await addMember(host, { tools: ['council:pacing_review'], toolHistoryRetention: { 'council:pacing_review': 2 } });
    await addMember(host, { itemId: 'pacing-critic', tools: ['council:continuity_check'] });
    for (let i = 0; i < 3; i++) await call(host, 'council.run', { chat: sampleChat() });
    const run = await call<CouncilRun>(host, 'council.run', { chat: sampleChat() });
    expect(run.historyBlock).toMatch(/^## Previous Council Deliberations — REFERENCE ONLY/);
    expect(run.historyBlock.match(/### \d deliberations? ago - Marshal Vane \/ Pacing Review/g)).toHaveLength(2);
    expect(run.historyBlock).not.toContain('Continuity');
    expect(run.deliberationBlock).not.toContain('Previous Council');
    expect(id).toBeTruthy();
    // another chat has no history
    expect((await call<CouncilRun>(host, 'council.run', { chat: sampleChat({ chatId: 'other' }) })).historyBlock).toBe('');
    await host.dispose();
  });

  it('regen with retainResultsForRegens reuses the last results; inline mode runs nothing before generation', async () => {
    const host = await councilHost();
    await addMember(host, { tools: ['council-probe:quick', 'council-probe:needs_query'] });
    await call<CouncilRun>(host, 'council.run', { chat: sampleChat() });
    const first = await call<CouncilRun>(host, 'council.run', { chat: sampleChat(), regen: true });
    expect(first.status).toBe('completed');
    await call(host, 'council.update', { patch: { toolsSettings: { retainResultsForRegens: true } } });
    const reused = await call<CouncilRun>(host, 'council.run', { chat: sampleChat(), regen: true });
    expect(reused).toMatchObject({ status: 'reused', deliberationBlock: first.deliberationBlock });
    await call(host, 'council.update', { patch: { toolsSettings: { mode: 'inline' } } });
    const inline = await call<CouncilRun>(host, 'council.run', { chat: sampleChat() });
    expect(inline).toMatchObject({ status: 'inline', results: [] });
    const tools = await call<Array<{ name: string; description: string; qualifiedName: string }>>(host, 'council.inlineTools', {});
    expect(tools.map((t) => t.qualifiedName)).toEqual(['council-probe:quick', 'council-probe:needs_query']);
    expect(tools[0]!.description).toMatch(/^\[Marshal Vane\] /);
    await host.dispose();
  });
});

describe('council runs that cannot be read', () => {
  it('runs.list says RUNS_UNREADABLE with the database and the cause, and lists again once the runs are back', async () => {
    const dataDir = tempDir();
    // A damaged database: the runs' table is gone.
    const damage = openChatDb(dataDir);
    damage.exec('DROP TABLE runs');
    damage.close();
    const host = await councilHost({ dataDir, extensions: false });
    const error = await callError(host, 'runs.list', {});
    expect(error.code).toBe('RUNS_UNREADABLE');
    expect(error.message).toBe(`The council runs in ${path.join(dataDir, 'chats.db')} cannot be read (no such table: runs).`);
    expect(error.hint).toContain('The chats database may be damaged');
    // Other council calls go on.
    expect((await call<CouncilView>(host, 'council.get', {})).members).toEqual([]);
    const repair = openChatDb(dataDir);
    repair.exec('CREATE TABLE runs (id TEXT PRIMARY KEY, started_at REAL NOT NULL, chat_id TEXT, summary TEXT NOT NULL, doc TEXT NOT NULL)');
    repair.close();
    expect(await call<RunSummary[]>(host, 'runs.list', {})).toEqual([]);
    await host.dispose();
  });

  it('moves runs from before the database in, keeping their files as a backup', async () => {
    const dataDir = tempDir();
    const first = await councilHost({ dataDir, extensions: false });
    const run = await call<CouncilRun>(first, 'council.run', { chat: sampleChat(), seed: 3 });
    await first.dispose();
    // As a folder from before kept it: the run as a file, no row.
    fs.mkdirSync(path.join(dataDir, 'runs'));
    const saved = openChatDb(dataDir);
    const doc = (saved.prepare('SELECT doc FROM runs WHERE id = ?').raw(true).get(run.id) as [string])[0];
    saved.exec('DELETE FROM runs');
    saved.close();
    fs.writeFileSync(path.join(dataDir, 'runs', `${run.id}.json`), doc);
    fs.writeFileSync(path.join(dataDir, 'runs', 'broken.json'), '{"id": 1}');
    // An id and a start but no rolls: summarizing it would fail; it stays, and the others still move.
    fs.writeFileSync(path.join(dataDir, 'runs', 'half-a-run.json'), '{"id": "half-a-run", "startedAt": 5}');
    const second = await councilHost({ dataDir, extensions: false });
    expect((await call<RunSummary[]>(second, 'runs.list', {})).map((r) => r.id)).toEqual([run.id]);
    expect(await call<CouncilRun>(second, 'runs.get', { runId: run.id })).toEqual(JSON.parse(doc));
    expect(fs.readdirSync(path.join(dataDir, 'runs-json-backup'))).toEqual([`${run.id}.json`]);
    expect(fs.readdirSync(path.join(dataDir, 'runs')).sort()).toEqual(['broken.json', 'half-a-run.json']);
    await second.dispose();
  });
});
