// Containment round two: a zero-permission extension that goes beneath net to Node's socket handle
// classes, or asks module lookups whether a file outside its folder exists, gets nowhere.
import dgram from 'node:dgram';
import fs from 'node:fs';
import Module from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeLauncher } from '../../../electron/core/extensions/workers/launcher';
import { networkNamespacePrefix } from '../../../electron/core/extensions/workers/network-namespace';
import type { WorkerIsolation } from '../../../electron/core/extensions/workers/worker-host-types';
import { fixture, startWorker, stopAllWorkers, tempDir, waitFor } from './harness';

afterEach(stopAllWorkers);

type Outcome = { ok: boolean; code?: string; value?: string; message?: string };
interface Report {
  raw: Record<string, Outcome>;
  oracles: { existing: Record<string, Outcome>; missing: Record<string, Outcome> };
  registerHooks: boolean;
}

async function listeners(dataDir: string) {
  const received: string[] = [];
  const socketPath = path.join(dataDir, 'agent.sock');
  const unix = net.createServer((socket) => socket.on('data', (data) => received.push(`unix:${String(data)}`)));
  await new Promise<void>((resolve) => unix.listen(socketPath, resolve));
  const tcp = net.createServer((socket) => socket.on('data', (data) => received.push(`tcp:${String(data)}`)));
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  const udp = dgram.createSocket('udp4');
  udp.on('message', (data) => received.push(`udp:${String(data)}`));
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  return {
    received,
    socketPath,
    port: (tcp.address() as net.AddressInfo).port,
    close: () => {
      unix.close();
      tcp.close();
      udp.close();
    },
  };
}

async function runProbe(launcher: NodeLauncher): Promise<{ report: Report; received: string[]; isolation: WorkerIsolation }> {
  const dataDir = tempDir('raw-handles');
  fs.writeFileSync(path.join(dataDir, 'secrets.json'), JSON.stringify({ openai: 'sk-canary-secret-4711' }));
  fs.mkdirSync(path.join(dataDir, 'pkg'));
  fs.writeFileSync(path.join(dataDir, 'pkg', 'package.json'), JSON.stringify({ name: 'canary-package-4711' }));
  const folder = path.join(dataDir, 'extensions', 'raw-handles');
  fs.mkdirSync(folder, { recursive: true });
  for (const name of fs.readdirSync(fixture('raw-handles'))) fs.copyFileSync(path.join(fixture('raw-handles'), name), path.join(folder, name));
  const net = await listeners(dataDir);
  const target = {
    socketPath: net.socketPath,
    port: net.port,
    plantPath: path.join(dataDir, 'planted.sock'),
    existing: { file: path.join(dataDir, 'secrets.json'), dir: path.join(dataDir, 'pkg') },
    missing: { file: path.join(dataDir, 'gone', 'secrets.json'), dir: path.join(dataDir, 'gone') },
  };
  fs.writeFileSync(path.join(folder, 'target.json'), JSON.stringify(target));
  try {
    const w = startWorker(folder, { granted: [], launcher });
    const line = await waitFor(() => w.logs.find((l) => l.startsWith('worker:info: raw ')), 'the probe report', 15_000);
    const isolation = await w.ready;
    expect(JSON.stringify(w.logs)).not.toMatch(/canary/);
    expect(fs.existsSync(target.plantPath)).toBe(false);
    return { report: JSON.parse(line.slice('worker:info: raw '.length)) as Report, received: net.received, isolation };
  } finally {
    net.close();
  }
}

function expectSealed(report: Report, received: string[]) {
  for (const [name, outcome] of Object.entries(report.raw)) expect(outcome.ok, `${name}: ${JSON.stringify(outcome)}`).toBe(false);
  // The unix-socket routes fail because the class is sealed, not by chance.
  for (const name of ['pipeConnect', 'pipeBindListen', 'pipeOpen', 'otherRealm', 'listen2']) expect(report.raw[name]!.code, name).toBe('ERR_ACCESS_DENIED');
  expect(received).toEqual([]);
}

function expectSameAnswers(report: Report) {
  const { existing, missing } = report.oracles;
  const asked = Object.keys(existing);
  // Node 20 has no in-thread module hooks: import() of an existing file outside still says ERR_ACCESS_DENIED there.
  const comparable = report.registerHooks ? asked : asked.filter((name) => name !== 'dynamicImport');
  for (const name of comparable) expect(existing[name], name).toEqual(missing[name]);
  expect(existing.requireResolve).toMatchObject({ ok: false, code: 'MODULE_NOT_FOUND' });
  expect(existing.stat).toEqual({ ok: true, value: '-2' });
  expect(existing.findPath).toEqual({ ok: true, value: 'false' });
  expect(JSON.stringify(existing)).not.toMatch(/canary/);
}

describe('raw handles and lookup oracles (containment round two)', () => {
  it('B3, B4, B5: a Pipe, TCP or UDP handle reached beneath net connects, binds and listens nowhere; nothing arrives, no socket file is made', { timeout: 30_000 }, async () => {
    // Without a network namespace TCP and UDP have somewhere to go, so their classes must be sealed too.
    const { report, received, isolation } = await runProbe(new NodeLauncher({ networkNamespace: false }));
    expect(isolation).toEqual({ permissionModel: true, networkNamespace: false });
    expectSealed(report, received);
    expect(report.raw.tcpRaw!.code).toBe('ERR_ACCESS_DENIED');
    expect(report.raw.udpRaw!.code).toBe('ERR_ACCESS_DENIED');
  });

  it('B6: module lookups answer the same for an existing and a missing file outside the folder', { timeout: 30_000 }, async () => {
    const { report } = await runProbe(new NodeLauncher({ networkNamespace: false }));
    expectSameAnswers(report);
    expect(report.registerHooks).toBe(typeof (Module as unknown as { registerHooks?: unknown }).registerHooks === 'function');
  });

  // Where Linux offers unprivileged user namespaces (CI here does), each worker also gets a network namespace.
  it.runIf(networkNamespacePrefix() !== null)('B3, B4: in a network namespace of its own the same attempts fail, and the worker reports the layer', { timeout: 30_000 }, async () => {
    const { report, received, isolation } = await runProbe(new NodeLauncher());
    expect(isolation).toEqual({ permissionModel: true, networkNamespace: true });
    expectSealed(report, received);
  });
});
