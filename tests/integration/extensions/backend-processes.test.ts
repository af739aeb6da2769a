/* eslint-disable @typescript-eslint/no-explicit-any -- the extension's reports are read as published JSON */
// spindle.backendProcesses as Lumiverse runs it, on real processes: an extension that ships its process entries built
// in dist/ spawns a child, talks to it both ways and stops it gracefully; the host's watchdogs end a child that never
// says it is ready or blocks its own event loop; entries and values outside Lumiverse's rules are refused with their
// codes; keys replace; 16 at once; a child is contained as its worker is, and ends with it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveProcessEntry } from '../../../electron/core/extensions/workers/backend-processes';
import { alive } from '../../helpers/process-alive';
import { chatRigEach, type ChatRig } from '../chat/helpers';
import { fixture, waitFor } from './harness';

const ID = 'lumiverse_processes';
const each = chatRigEach();

async function installed(): Promise<ChatRig> {
  const rig = each.rig;
  await rig.host.extensions.installFromFolder(fixture(ID), { grant: 'requested', trust: true }, () => undefined);
  await waitFor(() => rig.host.extensions.get(ID).status === 'running' && rig.host.registry.list().some((t) => t.qualifiedName === `${ID}:run`), `${ID} to run`);
  return rig;
}

async function run<T>(r: ChatRig, scenario: string): Promise<T> {
  const outcome = await r.host.registry.invoke(`${ID}:run`, { scenario }, { timeoutMs: 40_000 });
  if (!outcome.ok) throw new Error(`${scenario}: ${JSON.stringify(outcome.error)}\n${r.host.extensions.getLogLines(ID).join('\n')}`);
  return JSON.parse(outcome.content) as T;
}

type Failed = { error: { code: string | null; message: string } };

describe('spindle.backendProcesses', () => {
  it('spawns a child with its payload and metadata, answers both ways, heartbeats, and stops it gracefully through its onStop handler', async () => {
    const r = await installed();
    const seen = await run<Record<string, any>>(r, 'lifecycle');
    expect(seen.handle).toMatchObject({ entry: 'dist/processes/watchdog.js', kind: 'watchdog', key: 'chat:1', info: { state: 'running', kind: 'watchdog', key: 'chat:1', userId: 'local', metadata: { label: 'main' } } });
    expect(seen.handle.info.readyAt).toEqual(expect.any(String));
    expect(seen.hello).toMatchObject({ type: 'hello', payload: { chatId: 'chat-1', when: [1, 2.5, true, null] }, metadata: { label: 'main' }, kind: 'watchdog', key: 'chat:1' });
    expect(seen.userId).toBe('local');
    expect(seen.pong).toEqual({ type: 'pong', echo: 'are you there' });
    expect(seen.listed).toEqual([seen.handle.processId]);
    expect(seen.got).toMatchObject({ processId: seen.handle.processId, state: 'running' });
    expect(seen.stopping).toEqual({ type: 'stopping', reason: 'chat_changed' });
    expect(seen.end).toMatchObject({ state: 'completed', previousState: 'stopping', exitReason: 'completed' });
    expect(seen.states).toEqual(['starting', 'running', 'stopping', 'completed']);
    expect(seen.after).toBeNull();
    expect(seen.refreshed).toBeNull();
    // The child is gone, not only forgotten.
    await waitFor(() => !alive(seen.hello.pid), 'the child to exit');
  }, 60_000);

  it("ends a child that never says it is ready, and one that blocks its own event loop, on the host's watchdogs; the worker goes on", async () => {
    const r = await installed();
    const startup = await run<{ failed: Failed; end: Record<string, string>; pid: number }>(r, 'startup-timeout');
    expect(startup.failed.error).toEqual({ code: 'PROCESS_TIMEOUT', message: 'Backend process startup timed out' });
    expect(startup.end).toEqual({ state: 'timed_out', exitReason: 'timed_out', error: 'Backend process startup timed out', kind: 'dist/processes/never-ready.js' });
    await waitFor(() => !alive(startup.pid), 'the unready child to be killed');

    const blocked = await run<{ pid: number; end: Record<string, string> }>(r, 'blocked');
    expect(blocked.end).toEqual({ state: 'timed_out', exitReason: 'timed_out', error: 'Backend process heartbeat timed out' });
    await waitFor(() => !alive(blocked.pid), 'the blocked child to be killed');
    expect(r.host.extensions.get(ID).status).toBe('running');
  }, 60_000);

  it('refuses entries outside dist/, not built, missing or failing, and values outside the managed grammar, each with its code; nothing is left running', async () => {
    const r = await installed();
    const seen = await run<Record<string, Failed | number>>(r, 'failures');
    const code = (name: string) => (seen[name] as Failed).error.code;
    const message = (name: string) => (seen[name] as Failed).error.message;
    expect(code('throws')).toBe('PROCESS_FAILED');
    expect(message('throws')).toBe('The child entry broke at load.');
    expect(code('noExport')).toBe('PROCESS_FAILED');
    expect(message('noExport')).toBe('Backend process entry "dist/processes/no-export.js" must export a default function or named "run" function');
    expect([code('outside'), code('absolute'), code('notDist')]).toEqual(['PATH_NOT_ALLOWED', 'PATH_NOT_ALLOWED', 'PATH_NOT_ALLOWED']);
    expect(message('notDist')).toBe('Backend process entries must live under dist/.');
    expect(code('notJs')).toBe('INVALID_INPUT');
    expect(code('missing')).toBe('NOT_FOUND');
    expect(code('empty')).toBe('INVALID_INPUT');
    expect(message('date')).toBe('spindle.backendProcesses.spawn: payload.at is a Date; only plain objects cross.');
    expect(message('cycle')).toBe('spindle.backendProcesses.spawn: payload.self refers back to itself (a cycle).');
    expect(message('nan')).toBe('spindle.backendProcesses.spawn: payload[1] is NaN; only finite numbers cross.');
    expect(message('nullMetadata')).toBe('spindle.backendProcesses.spawn: metadata must be a plain object.');
    expect(message('undefinedPayload')).toBe('spindle.backendProcesses.spawn: payload is undefined; leave it out instead.');
    expect(['date', 'cycle', 'nan', 'nullMetadata', 'undefinedPayload'].map(code)).toEqual(Array(5).fill('INVALID_INPUT'));
    expect(seen.running).toBe(0);
  }, 60_000);

  it('refuses a second process under a kind and key in use, and replaces the first when asked', async () => {
    const r = await installed();
    const seen = await run<Record<string, any>>(r, 'keys');
    expect(seen.conflict.error).toEqual({ code: 'CONFLICT', message: 'Backend process already exists for kind "idle" and key "k".' });
    expect(seen.firstEnd).toEqual({ state: 'stopped', exitReason: 'replaced' });
    expect(seen.listed).toEqual([seen.second]);
    // No onStop handler: a stop ends it at once.
    expect(seen.secondEnd).toEqual({ state: 'stopped', exitReason: 'stopped' });
  }, 60_000);

  it('runs a child as contained as its worker: no network, no writes, no reads outside its folder, no processes, no signal to its parent, no spindle', async () => {
    const r = await installed();
    const probes = await run<Record<string, string>>(r, 'contained');
    expect(probes).toEqual({
      type: 'probes',
      fetch: 'refused: ERR_ACCESS_DENIED',
      write: 'refused: ERR_ACCESS_DENIED',
      spawn: 'refused: ERR_ACCESS_DENIED',
      readOutside: 'refused: ERR_ACCESS_DENIED',
      killParent: 'refused: ERR_ACCESS_DENIED',
      spindle: 'undefined',
    });
  }, 60_000);

  it('keeps at most 16 at once', async () => {
    const r = await installed();
    const seen = await run<{ seventeenth: Failed; running: number; after: number }>(r, 'cap');
    expect(seen.running).toBe(16);
    expect(seen.seventeenth.error).toEqual({ code: 'QUOTA_EXCEEDED', message: 'Backend process limit reached (16).' });
    expect(seen.after).toBe(0);
  }, 120_000);

  it('ends every child with its worker', async () => {
    const r = await installed();
    const { pid } = await run<{ pid: number }>(r, 'leave');
    expect(alive(pid)).toBe(true);
    await r.host.extensions.disable(ID);
    await waitFor(() => !alive(pid), 'the child to end with its worker');
    expect(r.host.extensions.getLogLines(ID).join('\n')).toMatch(/Backend process left \(.+\) stopped\./);
  }, 60_000);
});

describe('a backend process entry', () => {
  it('may not lead out of the extension through a link', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-entry-'));
    const outside = path.join(os.tmpdir(), `cw-outside-${process.pid}.js`);
    try {
      fs.mkdirSync(path.join(folder, 'dist'));
      fs.writeFileSync(outside, 'export default () => {};');
      fs.symlinkSync(outside, path.join(folder, 'dist', 'escape.js'));
      fs.writeFileSync(path.join(folder, 'dist', 'inside.js'), 'export default () => {};');
      expect(() => resolveProcessEntry(folder, 'dist/escape.js')).toThrow(/leads outside the extension's folder/);
      expect(resolveProcessEntry(folder, 'dist\\inside.js')).toEqual({ entry: 'dist/inside.js', entryPath: fs.realpathSync(path.join(folder, 'dist', 'inside.js')) });
    } finally {
      fs.rmSync(outside, { force: true });
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
