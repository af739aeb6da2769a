// Real workers under containment: an extension with no permissions reaches nothing it was not given; what a worker starts dies with it.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ExtensionManager } from '../../../electron/core/extensions/extension-manager';
import { NodeLauncher, type Launcher } from '../../../electron/core/extensions/launcher';
import { FAST, FakeSink, fixture, MemoryState, RUNTIME, tempDir, waitFor } from './harness';

const CANARY = 'sk-canary-4f1d9c2b7e5a';
const managers: ExtensionManager[] = [];
const listeners: net.Server[] = [];

afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
  for (const server of listeners.splice(0)) server.close();
});

function manager(dataDir: string, launcher: Launcher = new NodeLauncher()): ExtensionManager {
  const created = new ExtensionManager({ dataDir, bundledDir: null, launcher, workerEntry: RUNTIME, sink: new FakeSink(), state: new MemoryState(), worker: FAST });
  managers.push(created);
  return created;
}

/** A 127.0.0.1 listener that records every connection and every byte. */
async function listener(): Promise<{ port: number; received: string[] }> {
  const received: string[] = [];
  const server = net.createServer((socket) => {
    received.push('connection');
    socket.on('data', (data) => received.push(data.toString()));
    socket.on('error', () => {});
  });
  listeners.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, received };
}

type Outcome = Record<string, { ok: boolean; code?: string; value?: string }>;

describe('an extension with no permissions', () => {
  it('cannot read the host environment, secrets.json or settings.json, start a process, open a socket or signal the host', { timeout: 20_000 }, async () => {
    const dataDir = tempDir('contained');
    // What a data folder holds next to the installed extension: ../../secrets.json from its folder.
    fs.writeFileSync(path.join(dataDir, 'secrets.json'), JSON.stringify({ keys: { openai: CANARY } }));
    fs.writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify({ version: 1, note: CANARY }));
    const { port, received } = await listener();
    const source = tempDir('intruder-src');
    fs.cpSync(fixture('intruder'), source, { recursive: true });
    fs.writeFileSync(path.join(source, 'target.json'), JSON.stringify({ port }));

    const m = manager(dataDir);
    await m.init();
    await m.installFromFolder(source, { grant: [] });
    const line = await waitFor(() => m.getLogLines('intruder').find((l) => l.includes('intruder: ')), 'the intruder to report');
    const outcome = JSON.parse(line.slice(line.indexOf('intruder: ') + 'intruder: '.length)) as Outcome;

    const denied = (name: string) => expect({ name, ...outcome[name] }).toMatchObject({ name, ok: false, code: 'ERR_ACCESS_DENIED' });
    for (const name of ['parentEnviron', 'secretsJson', 'settingsJson', 'writeSettings', 'symlinkOut', 'childProcess', 'workerThread']) denied(name);
    for (const name of ['rawSocket', 'socketPrototype', 'http', 'fetch', 'udp', 'dns', 'listen', 'signalHost', 'signalRaw', 'hostInspector']) denied(name);
    expect(m.getLogLines('intruder').join('\n')).not.toContain(CANARY);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8'))).toEqual({ version: 1, note: CANARY });
    expect(received).toEqual([]);
    expect(m.get('intruder').status).toBe('running');
  });
});

/** Gone, or a zombie nobody reaped yet: either way it no longer runs. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe.skipIf(process.platform === 'win32')('what a worker starts', () => {
  // Containment refuses child processes; this launcher lets the spawner fixture start one on purpose.
  const base = new NodeLauncher();
  const permissive: Launcher = { launch: (options) => base.launch({ ...options, containment: { ...options.containment, childProcesses: true } }) };

  async function spawned(m: ExtensionManager): Promise<number> {
    await m.installFromFolder(fixture('spawner'), { grant: ['tools'] });
    const line = await waitFor(() => m.getLogLines('spawner').find((l) => / spawned \d+/.test(l)), 'the child pid');
    const pid = Number(/ spawned (\d+)/.exec(line)![1]);
    expect(running(pid)).toBe(true);
    return pid;
  }

  it('dies with it on disable, restart, removal and host shutdown', { timeout: 30_000 }, async () => {
    const m = manager(tempDir('group'), permissive);
    await m.init();
    const onDisable = await spawned(m);
    await m.disable('spawner');
    await waitFor(() => !running(onDisable), 'the child to die with its disabled worker');

    await m.enable('spawner');
    const onRestart = await waitFor(() => {
      const lines = m.getLogLines('spawner').filter((l) => / spawned \d+/.test(l));
      return lines.length === 2 && Number(/ spawned (\d+)/.exec(lines[1]!)![1]);
    }, 'a second child');
    await m.restart('spawner');
    await waitFor(() => !running(onRestart), 'the child to die with its restarted worker');

    const lastLine = await waitFor(() => m.getLogLines('spawner').filter((l) => / spawned \d+/.test(l))[2], 'a third child');
    const onRemove = Number(/ spawned (\d+)/.exec(lastLine)![1]);
    await m.remove('spawner');
    await waitFor(() => !running(onRemove), 'the child to die with its removed extension');

    const onShutdown = await spawned(m);
    await m.dispose();
    await waitFor(() => !running(onShutdown), 'the child to die at host shutdown');
  });
});
