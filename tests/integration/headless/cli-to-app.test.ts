// When the app runs on a data folder, the CLI's commands go to it over the app socket (one writer): what the CLI
// changes is in the running host at once, and its window hears the event. With no app, a stale socket file or
// --no-host, the command runs in its own process. Bad lines on the socket get an error and the connection goes on.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listenForCli, type AppSocket } from '../../../electron/core/app-socket/server';
import { appSocketPath } from '../../../electron/core/app-socket/socket-path';
import type { Host } from '../../../electron/core/host';
import { silentLogger } from '../../../electron/core/ports';
import { runCli } from '../../../electron/headless/cli/run-cli';
import { createNodeHost } from '../../../electron/headless/node-host';
import type { HostEvent } from '../../../shared/contract/events';
import type { CallContext } from '../../../shared/contract';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

const open: Array<{ host: Host; socket: AppSocket | null }> = [];
afterEach(async () => {
  for (const app of open.splice(0)) {
    await app.socket?.close();
    await app.host.dispose();
  }
  cleanupTempDirs();
});

async function runningApp(dataDir: string) {
  const host = await createNodeHost({ dataDir, mode: 'browser', log: silentLogger, bundledExtensionsDir: null });
  const socket = await listenForCli(host, dataDir, silentLogger);
  open.push({ host, socket });
  return { host, socket };
}

async function cli(dataDir: string, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli([...args, '--data-dir', dataDir], { out: (t) => out.push(t), err: (t) => err.push(t) }, { bundledExtensionsDir: null });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const ADD = ['connections', 'add', '--type', 'openai-compatible', '--base-url', 'http://127.0.0.1:9/v1', '--json'];

async function names(host: Host): Promise<string[]> {
  const listed = await host.api.call('connections.list', {}, { origin: 'test' });
  return listed.ok ? (listed.value as Array<{ name: string }>).map((c) => c.name) : [];
}

/** One line to the socket and the first line back. */
/** Writes one raw line to the app and reads its answer: the first frame after the hello every connection starts with. */
function exchange(socketPath: string, line: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath, () => socket.write(line));
    let buffer = '';
    const frames: Array<Record<string, unknown>> = [];
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
        frames.push(JSON.parse(buffer.slice(0, at)) as Record<string, unknown>);
        buffer = buffer.slice(at + 1);
      }
      if (frames.length >= 2) {
        socket.destroy();
        expect(frames[0]).toMatchObject({ kind: 'hello', info: { notices: expect.any(Array) } });
        resolve(frames[1]!);
      }
    });
    socket.on('error', reject);
  });
}

describe('the CLI and a running app', () => {
  it('a change made with the CLI is in the running app at once, and its listeners hear it', async () => {
    const dataDir = tempDir();
    const { host, socket } = await runningApp(dataDir);
    expect(socket).not.toBeNull();
    // The socket's folder is this user's only.
    expect(fs.statSync(path.dirname(socket!.path)).mode & 0o077).toBe(0);
    const events: HostEvent[] = [];
    host.onEvent((event) => events.push(event));

    const added = await cli(dataDir, [...ADD, '--name', 'Through the app']);
    expect(added.code, added.err).toBe(0);
    expect(await names(host)).toContain('Through the app');
    expect(events.some((event) => event.type === 'settings.changed')).toBe(true);
  });

  it('--approve goes to the window when the app runs; --no-host runs the command here', async () => {
    const dataDir = tempDir();
    await runningApp(dataDir);
    const refused = await cli(dataDir, ['status', '--json', '--approve', 'notes:*']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.out)).toMatchObject({ error: { code: 'INVALID_INPUT', path: '--approve' } });
    const here = await cli(dataDir, ['status', '--json', '--no-host', '--approve', 'notes:*']);
    expect(here.code, here.err).toBe(0);
  });

  it('with the app gone, or a stale file where its socket was, the command runs in its own process', async () => {
    const dataDir = tempDir();
    const { host, socket } = await runningApp(dataDir);
    await socket!.close();
    expect(fs.existsSync(socket!.path)).toBe(false);
    expect((await cli(dataDir, [...ADD, '--name', 'In process'])).code).toBe(0);
    // The app did not take that write: it was made by another process on the folder.
    expect(await names(host)).not.toContain('In process');

    const stale = appSocketPath(dataDir);
    fs.writeFileSync(stale, 'left by a crash');
    expect((await cli(dataDir, ['status', '--json'])).code).toBe(0);
    // The next app replaces the stale file with its socket.
    const next = await listenForCli(host, dataDir, silentLogger);
    expect(next).not.toBeNull();
    expect(fs.statSync(stale).isSocket()).toBe(true);
    await next!.close();
  });

  it('a socket that cannot be made leaves the app running without it, with a warning', async () => {
    const dataDir = tempDir();
    const host = await createNodeHost({ dataDir, mode: 'browser', log: silentLogger, bundledExtensionsDir: null });
    open.push({ host, socket: null });
    // A regular file where the runtime folder should be: the socket's folder cannot be made.
    fs.rmSync(path.join(dataDir, 'runtime'), { recursive: true, force: true });
    fs.writeFileSync(path.join(dataDir, 'runtime'), 'not a folder');
    const warnings: string[] = [];
    const socket = await listenForCli(host, dataDir, { ...silentLogger, warn: (...args: unknown[]) => void warnings.push(args.join(' ')) });
    expect(socket).toBeNull();
    expect(warnings.join('\n')).toContain('The CLI cannot reach this app');
    expect((await cli(dataDir, ['status', '--json'])).code).toBe(0);
  });

  it('a second app on the same folder does not take the socket from the first', async () => {
    const dataDir = tempDir();
    const { host } = await runningApp(dataDir);
    expect(await listenForCli(host, dataDir, silentLogger)).toBeNull();
  });

  it('a line that is not a message gets INVALID_INPUT, an unknown method UNKNOWN_METHOD, and the app goes on', async () => {
    const dataDir = tempDir();
    const { socket } = await runningApp(dataDir);
    expect(await exchange(socket!.path, 'not json\n')).toMatchObject({ kind: 'error', error: { code: 'INVALID_INPUT' } });
    expect(await exchange(socket!.path, `${JSON.stringify({ kind: 'invoke', id: 7, method: 'no.such', input: {} })}\n`)).toMatchObject({ kind: 'result', id: 7, result: { ok: false, error: { code: 'UNKNOWN_METHOD' } } });
    expect((await cli(dataDir, ['status', '--json'])).code).toBe(0);
  });

  it('a command prints the notices the app told on connecting, with no extra call for them', async () => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, 'settings.json'), '{ not json');
    const host = await createNodeHost({ dataDir, mode: 'browser', log: silentLogger, bundledExtensionsDir: null });
    const calls: string[] = [];
    const counted = { ...host, api: { ...host.api, call: (method: string, ...rest: [unknown, CallContext, number?]) => (calls.push(method), host.api.call(method, ...rest)) } } as unknown as Host;
    const socket = await listenForCli(counted, dataDir, silentLogger);
    open.push({ host, socket });
    const result = await cli(dataDir, ['connections', 'list', '--json']);
    expect(result.code).toBe(0);
    expect(result.err).toMatch(/^Notice \(warning\): Your settings file was /);
    expect(calls).toEqual(['connections.list']);
  });
});
