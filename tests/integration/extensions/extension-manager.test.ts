// ExtensionManager with real workers: discovery, install, permissions, crashes and restarts, bundled examples.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HostFailure } from '../../../shared/errors';
import type { CouncilMemberContext } from '../../../shared/types/spindle';
import {
  ExtensionManager,
  type ExtensionEvent,
  type ExtensionManagerOptions,
  type ExtensionStatus,
} from '../../../electron/core/extensions/extension-manager';
import { NodeLauncher } from '../../../electron/core/extensions/workers/launcher';
import { BUNDLED, FAST, FakeSink, fixture, MemoryState, request, RUNTIME, tempDir, waitFor } from './harness';

const managers: ExtensionManager[] = [];

afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
});

function setup(options: Partial<ExtensionManagerOptions> = {}) {
  const sink = new FakeSink();
  const state = new MemoryState();
  const dataDir = tempDir('manager');
  const events: ExtensionEvent[] = [];
  const manager = new ExtensionManager({
    dataDir,
    bundledDir: null,
    launcher: new NodeLauncher(),
    workerEntry: RUNTIME,
    sink,
    state,
    worker: FAST,
    restart: { baseDelayMs: 50 },
    ...options,
  });
  manager.onEvent((event) => events.push(event));
  managers.push(manager);
  const statuses = (id: string) => events.flatMap((e) => (e.type === 'extension.status' && e.id === id ? [e.status] : []));
  const logText = (id: string) => manager.getLog(id).map((e) => `${e.source}: ${e.text}`);
  const until = (id: string, status: ExtensionStatus, what = `${id} to be ${status}`) =>
    waitFor(() => manager.get(id).status === status, what);
  return { manager, sink, state, dataDir, events, statuses, logText, until };
}

function hostFailure(promise: Promise<unknown>): Promise<HostFailure> {
  return promise.then(
    () => {
      throw new Error('expected a HostFailure');
    },
    (err: unknown) => {
      if (!(err instanceof HostFailure)) throw err;
      return err;
    },
  );
}

const member: CouncilMemberContext = {
  memberId: 'm2',
  itemId: 'i2',
  packId: 'p2',
  packName: 'Saga Pack',
  name: 'Sigrun',
  role: 'Skald',
  chance: 80,
  avatarUrl: null,
  definition: '',
  personality: '',
  behavior: '',
  genderIdentity: 0,
};

describe('bundled examples', () => {
  it('start by default with their permissions and answer: knowledge base in the member voice, dice, scratchpad in its storage', async () => {
    const t = setup({ bundledDir: BUNDLED });
    await t.manager.init();
    const ids = ['dice-and-stats', 'knowledge-base', 'scratchpad'];
    expect(t.manager.list().map((e) => [e.id, e.source, e.granted])).toEqual(ids.map((id) => [id, 'bundled', ['tools']]));
    for (const id of ids) await t.until(id, 'running');
    expect(t.sink.names('knowledge-base')).toEqual(['search_knowledge_base']);
    expect(t.sink.names('dice-and-stats')).toEqual(['roll_dice', 'dice_odds']);
    expect(t.sink.names('scratchpad')).toEqual(['append_note', 'read_notes']);
    expect(t.sink.tools.get('scratchpad:append_note')?.dto).toMatchObject({ mode: 'write', requires_approval: true });
    expect(t.sink.tools.get('dice-and-stats:roll_dice')?.dto).toMatchObject({ mode: 'read' });

    const kb = t.sink.executor('knowledge-base', 'search_knowledge_base');
    const voiced = await kb.execute(request('search_knowledge_base', { query: 'Norns fate', limit: 1 }, { councilMember: member }));
    expect(voiced.ok).toBe(true);
    expect((voiced as { value: string }).value).toMatch(/^Sigrun \(Skald\) reports:\n- Norse Cosmology: The Norns — Three Norns/);
    const plain = await kb.execute(request('search_knowledge_base', { query: 'ethos pathos logos' }));
    expect((plain as { value: string }).value.split('\n')[0]).toMatch(/^- Classical Rhetoric: The Three Appeals — /);

    const dice = t.sink.executor('dice-and-stats', 'dice_odds');
    expect(await dice.execute(request('dice_odds', { notation: '1d20+5', target: 15 }))).toEqual({
      ok: true,
      value: 'P(1d20+5 ≥ 15) = 55.00% (exact).\nAverage 15.50, standard deviation 5.77, range 6 to 25.',
    });
    const roll = await t.sink.executor('dice-and-stats', 'roll_dice').execute(request('roll_dice', { notation: '3d6' }, { councilMember: member }));
    expect((roll as { value: string }).value).toMatch(/^Sigrun rolls 3d6:\n\[\d, \d, \d\] = \d{1,2}$/);
    const badRoll = await t.sink.executor('dice-and-stats', 'roll_dice').execute(request('roll_dice', { notation: '2x6' }));
    expect(!badRoll.ok && badRoll.error.code).toBe('INVALID_NOTATION');

    const pad = t.sink.executor('scratchpad', 'append_note');
    expect(await pad.execute(request('append_note', { text: 'The ferryman owes Sigrun a favour.', topic: 'promise' }, { councilMember: member }))).toEqual({
      ok: true,
      value: 'Noted (1 note on the scratchpad).',
    });
    const notes = fs.readFileSync(path.join(t.dataDir, 'extension-data', 'scratchpad', 'storage', 'notes.md'), 'utf8');
    expect(notes).toMatch(/^## \S+ · Sigrun \(Skald\) — promise\n\nThe ferryman owes Sigrun a favour\.\n\n$/);
    const read = await t.sink.executor('scratchpad', 'read_notes').execute(request('read_notes', {}));
    expect((read as { value: string }).value).toContain('The ferryman owes Sigrun a favour.');
    const empty = await pad.execute(request('append_note', { text: '  ' }));
    expect(!empty.ok && empty.error).toMatchObject({ code: 'EMPTY_NOTE', hint: 'Pass the note in "text".' });
  });
});

describe('install and permissions', () => {
  it('installs a copy without granting requested permissions: registration is refused and the worker told', async () => {
    const t = setup();
    await t.manager.init();
    const info = await t.manager.installFromFolder(fixture('needs-permission'));
    expect(info).toMatchObject({ id: 'needs-permission', source: 'user', requested: ['tools'], granted: [], enabled: true });
    expect(info.path).toBe(fs.realpathSync(path.join(t.dataDir, 'extensions', 'needs-permission')));
    expect(t.state.states.get('needs-permission')).toEqual({ enabled: true, granted: [] });
    await t.until('needs-permission', 'running');
    await waitFor(() => t.logText('needs-permission').includes('worker: denied tools registerTool'), 'PERMISSION_DENIED in the worker');
    expect(t.logText('needs-permission')).toContain('host: registerTool("guarded") refused: the tools permission is not granted.');
    expect(t.sink.calls.filter((c) => c.startsWith('register '))).toEqual([]);

    // Granting restarts the worker so its load-time registration goes through.
    await t.manager.grant('needs-permission', ['tools']);
    await waitFor(() => t.sink.names('needs-permission').includes('guarded'), 'the tool to be registered after the grant');
    expect(t.state.states.get('needs-permission')).toEqual({ enabled: true, granted: ['tools'] });
    expect(t.manager.get('needs-permission')).toMatchObject({ granted: ['tools'], tools: ['guarded'], recentCrashes: 0 });
    const answer = await t.sink.executor('needs-permission', 'guarded').execute(request('guarded'));
    expect(answer).toEqual({ ok: true, value: 'guarded answer' });

    const notRequested = await hostFailure(t.manager.grant('needs-permission', ['generation']));
    expect(notRequested.error).toMatchObject({ code: 'INVALID_INPUT', path: '/permissions/0' });
  });

  it('revoking tools ends in-flight calls with PERMISSION_DENIED, unregisters every tool and refuses later registrations', { timeout: 10_000 }, async () => {
    const t = setup();
    await t.manager.init();
    await t.manager.installFromFolder(fixture('never-answers'), { grant: ['tools'] });
    await t.until('never-answers', 'running');
    const executor = t.sink.executor('never-answers', 'wait_forever');
    const first = request('wait_forever', {}, { deadline: Date.now() + 30_000 });
    const second = request('wait_forever', {}, { deadline: Date.now() + 30_000 });
    const calls = [executor.execute(first), executor.execute(second)];
    // Revoke once both handlers run, so the abort has someone listening.
    await waitFor(() => [first, second].every((r) => t.logText('never-answers').includes(`worker: started ${r.requestId}`)), 'both handlers to start');

    await t.manager.revoke('never-answers', ['tools']);
    for (const result of await Promise.all(calls)) expect(!result.ok && result.error.code).toBe('PERMISSION_DENIED');
    expect(t.sink.calls).toContain('unregisterAll never-answers');
    expect(t.sink.names('never-answers')).toEqual([]);
    expect(t.manager.get('never-answers')).toMatchObject({ status: 'running', granted: [], tools: [] });
    await waitFor(() => t.logText('never-answers').includes(`worker: aborted ${first.requestId} AbortError`), 'the handler to be aborted');
    // An executor the registry still holds refuses too.
    const late = await executor.execute(request('wait_forever'));
    expect(!late.ok && late.error.code).toBe('PERMISSION_DENIED');

    await t.manager.restart('never-answers');
    await t.until('never-answers', 'running');
    await waitFor(() => t.logText('never-answers').includes('host: registerTool("wait_forever") refused: the tools permission is not granted.'), 'the refusal');
    expect(t.sink.names('never-answers')).toEqual([]);
  });

  it('logs a registration the registry refuses and reports it to the worker', async () => {
    const t = setup();
    await t.manager.init();
    await t.manager.installFromFolder(fixture('bad-registration'), { grant: ['tools'] });
    await waitFor(() => t.logText('bad-registration').includes('worker: error registerTool INVALID_TOOL_NAME'), 'the ERROR event in the worker');
    expect(t.logText('bad-registration')).toContain(
      'host: registerTool("bad:name") failed: INVALID_TOOL_NAME: Tool names are ASCII letters, digits, _ and -. (at /name)',
    );
    expect(t.manager.get('bad-registration').tools).toEqual([]);
  });

  it('refuses invalid manifests and duplicate ids; replace updates a user extension', async () => {
    const t = setup({ bundledDir: BUNDLED });
    await t.manager.init();
    const broken = tempDir('broken');
    fs.writeFileSync(path.join(broken, 'spindle.json'), JSON.stringify({ id: 'broken', name: 'B', version: '1.0.0', description: '', main: 'gone.js' }));
    expect((await hostFailure(t.manager.installFromFolder(broken))).error).toMatchObject({ code: 'INVALID_MANIFEST', path: '/main' });
    expect(fs.readdirSync(path.join(t.dataDir, 'extensions'))).toEqual([]);

    const dup = tempDir('dup');
    fs.cpSync(fixture('seed-example'), dup, { recursive: true });
    const manifest = JSON.parse(fs.readFileSync(path.join(dup, 'spindle.json'), 'utf8'));
    fs.writeFileSync(path.join(dup, 'spindle.json'), JSON.stringify({ ...manifest, id: 'knowledge-base' }));
    expect((await hostFailure(t.manager.installFromFolder(dup, { replace: true }))).error.code).toBe('CONFLICT');

    // A folder that holds the data dir would copy into itself.
    fs.writeFileSync(path.join(t.dataDir, 'spindle.json'), fs.readFileSync(path.join(fixture('seed-example'), 'spindle.json')));
    fs.copyFileSync(path.join(fixture('seed-example'), 'index.js'), path.join(t.dataDir, 'index.js'));
    expect((await hostFailure(t.manager.installFromFolder(t.dataDir))).error).toMatchObject({ code: 'INVALID_INPUT', path: '/folder' });

    await t.manager.installFromFolder(fixture('seed-example'), { enable: false });
    expect((await hostFailure(t.manager.installFromFolder(fixture('seed-example')))).error.code).toBe('CONFLICT');
    const replaced = await t.manager.installFromFolder(fixture('seed-example'), { replace: true, grant: ['tools'] });
    expect(replaced).toMatchObject({ id: 'seed-example', granted: ['tools'], enabled: true });
    await waitFor(() => t.sink.names('seed-example').length === 1, 'the replaced extension to register');
  });

  it('disable stops the worker and unregisters its tools; enable starts it; only user extensions can be removed', async () => {
    const t = setup({ bundledDir: BUNDLED });
    await t.manager.init();
    await t.manager.installFromFolder(fixture('seed-example'), { grant: ['tools'] });
    await t.until('seed-example', 'running');
    await waitFor(() => t.sink.names('seed-example').length === 1, 'registration');

    const disabled = await t.manager.disable('seed-example');
    expect(disabled).toMatchObject({ status: 'disabled', enabled: false, tools: [], pid: null });
    expect(t.sink.names('seed-example')).toEqual([]);
    expect(t.sink.statuses.get('seed-example')).toBe('unavailable');
    expect(t.state.states.get('seed-example')).toEqual({ enabled: false, granted: ['tools'] });

    await t.manager.enable('seed-example');
    await t.until('seed-example', 'running');
    await waitFor(() => t.sink.names('seed-example').length === 1, 're-registration');
    expect(t.sink.statuses.get('seed-example')).toBe('available');

    expect((await hostFailure(t.manager.remove('knowledge-base'))).error.code).toBe('CONFLICT');
    await t.manager.remove('seed-example');
    expect(t.manager.list().map((e) => e.id)).not.toContain('seed-example');
    expect(fs.existsSync(path.join(t.dataDir, 'extensions', 'seed-example'))).toBe(false);
    expect(t.state.states.has('seed-example')).toBe(false);
    expect(t.events.some((e) => e.type === 'extension.removed' && e.id === 'seed-example')).toBe(true);
  });

  it('keeps persisted state across managers: disabled stays disabled, grants stay granted', async () => {
    const t = setup();
    await t.manager.init();
    await t.manager.installFromFolder(fixture('seed-example'), { grant: ['tools'], enable: false });
    await t.manager.dispose();
    const again = new ExtensionManager({ dataDir: t.dataDir, bundledDir: null, launcher: new NodeLauncher(), workerEntry: RUNTIME, sink: t.sink, state: t.state });
    managers.push(again);
    await again.init();
    expect(again.get('seed-example')).toMatchObject({ status: 'disabled', granted: ['tools'], source: 'user' });
  });

  it('lists a folder with a bad manifest as failed with the field path', async () => {
    const t = setup();
    const bad = path.join(t.dataDir, 'extensions', 'half-done');
    fs.mkdirSync(bad, { recursive: true });
    fs.writeFileSync(path.join(bad, 'spindle.json'), JSON.stringify({ id: 'half-done', name: 'H', version: '1.0.0', description: '', main: 'index.js', permissions: ['tools', 'network'] }));
    fs.writeFileSync(path.join(bad, 'index.js'), '');
    await t.manager.init();
    expect(t.manager.get('half-done')).toMatchObject({ status: 'failed', errorCode: 'INVALID_MANIFEST', error: expect.stringContaining('Unknown permission "network". Known permissions: generation, interceptor, tools') });
  });
});

describe('crashes and restarts', () => {
  it('a crash mid-call rejects the call at once, unregisters the tools and restarts with backoff', { timeout: 10_000 }, async () => {
    const t = setup();
    await t.manager.init();
    await t.manager.installFromFolder(fixture('crash-mid-call'), { grant: ['tools'] });
    await waitFor(() => t.sink.names('crash-mid-call').length === 2, 'registration');
    const firstPid = t.manager.get('crash-mid-call').pid;

    const result = await t.sink.executor('crash-mid-call', 'crash').execute(request('crash', {}, { deadline: Date.now() + 30_000 }));
    expect(!result.ok && result.error.code).toBe('WORKER_CRASHED');
    expect(t.sink.calls).toContain('unregisterAll crash-mid-call');
    await waitFor(() => t.statuses('crash-mid-call').includes('crashed'), 'the crashed status');
    expect(t.manager.get('crash-mid-call')).toMatchObject({
      errorCode: 'WORKER_CRASHED',
      error: 'Extension "crash-mid-call" stopped: Error: boom in the middle of a call.',
      lastCrash: 'Error: boom in the middle of a call',
    });

    await t.until('crash-mid-call', 'running');
    await waitFor(() => t.sink.names('crash-mid-call').length === 2, 're-registration after the restart');
    expect(t.manager.get('crash-mid-call').pid).not.toBe(firstPid);
    expect(t.manager.get('crash-mid-call').recentCrashes).toBe(1);
    expect(t.statuses('crash-mid-call')).toEqual(['starting', 'running', 'crashed', 'starting', 'running']);
    expect(t.logText('crash-mid-call')).toContain('host: Restarting in 50 ms (crash 1 within 5 minutes).');
  });

  it('an unresponsive worker is killed and restarted in a new process', { timeout: 15_000 }, async () => {
    const t = setup();
    await t.manager.init();
    await t.manager.installFromFolder(fixture('busy-loop'), { grant: ['tools'] });
    await waitFor(() => t.sink.names('busy-loop').length === 2, 'registration');
    const firstPid = t.manager.get('busy-loop').pid;
    const result = await t.sink.executor('busy-loop', 'spin').execute(request('spin', {}, { deadline: Date.now() + 30_000 }));
    expect(!result.ok && result.error.code).toBe('WORKER_UNRESPONSIVE');
    await waitFor(() => t.statuses('busy-loop').includes('crashed'), 'the kill');
    await waitFor(() => t.manager.get('busy-loop').status === 'running' && t.sink.names('busy-loop').length === 2, 'the restart');
    expect(t.statuses('busy-loop')).toEqual(['starting', 'running', 'crashed', 'starting', 'running']);
    expect(t.manager.get('busy-loop').pid).not.toBe(firstPid);
    expect(await t.sink.executor('busy-loop', 'ok').execute(request('ok'))).toEqual({ ok: true, value: 'fine' });
    expect(t.logText('busy-loop').some((l) => l.startsWith('host: Not responding'))).toBe(true);
  });

  it('W4: 3 crashes within 5 minutes mark the extension failed; only a manual restart tries again', { timeout: 15_000 }, async () => {
    const t = setup();
    await t.manager.init();
    await t.manager.installFromFolder(fixture('crash-on-load'), { grant: ['tools'] });
    await t.until('crash-on-load', 'failed');
    expect(t.statuses('crash-on-load')).toEqual(['starting', 'crashed', 'starting', 'crashed', 'starting', 'failed']);
    const info = t.manager.get('crash-on-load');
    expect(info).toMatchObject({ errorCode: 'WORKER_CRASHED', error: expect.stringContaining('restart it by hand') });
    expect(info.recentCrashes).toBe(3);
    expect(t.logText('crash-on-load').some((l) => l.includes('cannot start: missing configuration'))).toBe(true);
    // That nothing restarts it by itself, even an hour later, is checked on fake time (tests/unit/extensions/crash-restart.test.ts).

    await t.manager.restart('crash-on-load');
    expect(t.manager.get('crash-on-load').recentCrashes).toBe(0);
    await waitFor(() => t.statuses('crash-on-load').length > 6, 'the manual restart');
    expect(t.statuses('crash-on-load')[6]).toBe('starting');
  });

  it('W14: dispose ends in-flight calls with HOST_SHUTDOWN and stops every worker', async () => {
    const t = setup();
    await t.manager.init();
    await t.manager.installFromFolder(fixture('never-answers'), { grant: ['tools'] });
    await waitFor(() => t.sink.names('never-answers').length === 1, 'registration');
    const pending = t.sink.executor('never-answers', 'wait_forever').execute(request('wait_forever', {}, { deadline: Date.now() + 30_000 }));
    await t.manager.dispose();
    expect(await pending).toEqual({ ok: false, error: { code: 'HOST_SHUTDOWN', message: 'The host is shutting down.' } });
    expect(t.manager.get('never-answers').status).toBe('stopped');
  });
});
