// Extensions benchmark: 20 Lumiverse-style extensions (TypeScript built at install, storage and permissions read
// at load, three tools each) from their installed state to every tool registered, and the resident memory of each
// idle worker; beside 20 bare `node` processes started the same way (same flags, pipes and process groups).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createHost, type Host } from '../../electron/core/host';
import { moduleDetectionFlags, permissionFlags } from '../../electron/core/extensions/workers/containment';
import { procResidentBytes } from '../../electron/core/extensions/workers/launcher';
import { silentLogger } from '../../electron/core/ports';
import { confBackend } from '../../electron/core/settings/conf-backend';
import { cleanupTempDirs, tempDir } from '../helpers/temp-dir';
import { round, table } from './stats';

const EXTENSIONS = 20;
const TOOLS_EACH = 3;
const ROUNDS = 5;
const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'lumiverse-bench');
/** Bounded waits: a start that takes longer than this is a failure, not a figure. */
const START_LIMIT_MS = 60_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);
const idOf = (i: number) => `bench_lumiverse_${String(i).padStart(2, '0')}`;

const openHost = (dataDir: string) => createHost({ dataDir, mode: 'cli', settingsBackend: confBackend, log: silentLogger, bundledExtensionsDir: null });

/** Installs the copies once (each built from src/backend.ts, as Lumiverse installs), outside the timing. */
async function installCopies(dataDir: string): Promise<void> {
  const host = await openHost(dataDir);
  try {
    for (let i = 0; i < EXTENSIONS; i++) {
      const folder = path.join(tempDir('cw-bench-ext-src-'), idOf(i));
      fs.cpSync(FIXTURE, folder, { recursive: true });
      const manifestPath = path.join(folder, 'spindle.json');
      fs.writeFileSync(manifestPath, JSON.stringify({ ...JSON.parse(fs.readFileSync(manifestPath, 'utf8')), identifier: idOf(i) }));
      const result = await host.api.call('extensions.install', { folder, grant: 'requested' }, { origin: 'cli' });
      if (!result.ok) throw new Error(`install ${idOf(i)} failed: ${JSON.stringify(result.error)}`);
    }
  } finally {
    await host.dispose();
  }
}

function benchToolCount(host: Host): number {
  return host.registry.list().filter((t) => t.extensionId?.startsWith('bench_lumiverse_')).length;
}

/** Resident bytes of every direct child of this process (the host's workers; nothing else runs here). */
function childrenResident(): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 4 (ppid) follows the command name, which is in parentheses and may hold spaces.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const bytes = procResidentBytes(Number(entry));
      if (bytes !== null) out.push(bytes);
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

/** Host start → all 60 tools registered; then the resident memory of each idle worker. */
async function extensionRound(dataDir: string): Promise<{ ms: number; residentBytes: number[] }> {
  const start = performance.now();
  const host = await openHost(dataDir);
  try {
    const wanted = EXTENSIONS * TOOLS_EACH;
    if (benchToolCount(host) < wanted) {
      await new Promise<void>((resolve, reject) => {
        const limit = setTimeout(() => reject(new Error(`only ${benchToolCount(host)} of ${wanted} tools registered`)), START_LIMIT_MS);
        const stop = host.registry.onEvent(() => {
          if (benchToolCount(host) < wanted) return;
          clearTimeout(limit);
          stop();
          resolve();
        });
      });
    }
    const ms = performance.now() - start;
    await host.extensions.whenSettled();
    return { ms, residentBytes: childrenResident() };
  } finally {
    await host.dispose();
  }
}

/** 20 bare node processes with the workers' flags, pipes and process groups: spawn → each says it is up. */
async function bareRound(): Promise<{ ms: number; residentBytes: number[] }> {
  const folder = tempDir('cw-bench-bare-');
  const script = path.join(folder, 'idle.mjs');
  fs.writeFileSync(script, "process.stdout.write('up\\n');\nsetInterval(() => {}, 1 << 30);\n");
  const flags = ['--max-old-space-size=512', ...moduleDetectionFlags(), '--disable-warning=ExperimentalWarning', ...permissionFlags([folder])];
  const start = performance.now();
  const children: ChildProcess[] = [];
  try {
    await Promise.all(
      Array.from({ length: EXTENSIONS }, () => {
        const child = spawn(process.execPath, [...flags, script], { cwd: folder, env: {}, stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'], detached: true });
        children.push(child);
        return new Promise<void>((resolve, reject) => {
          child.stdout!.once('data', () => resolve());
          child.once('exit', (code) => reject(new Error(`a bare node process exited (${code})`)));
        });
      }),
    );
    const ms = performance.now() - start;
    return { ms, residentBytes: children.map((c) => procResidentBytes(c.pid) ?? 0) };
  } finally {
    for (const child of children) {
      child.removeAllListeners('exit');
      child.kill('SIGKILL');
    }
  }
}

export async function extensionsBenchmark({ json }: { json: boolean }) {
  try {
    const dataDir = tempDir('cw-bench-ext-');
    await installCopies(dataDir);
    const ext = { ms: [] as number[], resident: [] as number[] };
    const bare = { ms: [] as number[], resident: [] as number[] };
    // Alternate the two so both see the same machine; one round of each first as a warm-up (disk cache, JIT).
    for (let i = 0; i <= ROUNDS; i++) {
      const e = await extensionRound(dataDir);
      const b = await bareRound();
      if (i === 0) continue;
      ext.ms.push(e.ms);
      ext.resident.push(median(e.residentBytes));
      bare.ms.push(b.ms);
      bare.resident.push(median(b.residentBytes));
    }
    const out = {
      extensions: EXTENSIONS,
      tools: EXTENSIONS * TOOLS_EACH,
      rounds: ROUNDS,
      start_ms: { workbench: round(median(ext.ms), 0), bare_node: round(median(bare.ms), 0) },
      start_ratio: round(median(ext.ms) / median(bare.ms), 2),
      resident_mb_per_worker: { workbench: mb(median(ext.resident)), bare_node: mb(median(bare.resident)) },
    };
    if (!json) {
      console.log(`${EXTENSIONS} Lumiverse-style extensions (${EXTENSIONS * TOOLS_EACH} tools) beside ${EXTENSIONS} bare node processes with the same flags; medians of ${ROUNDS} rounds after one warm-up round.\n`);
      console.log(
        table([
          { figure: `host start → ${out.tools} tools registered (ms)`, value: out.start_ms.workbench, baseline: `${out.start_ms.bare_node} (bare node → all up)` },
          { figure: 'start ratio', value: out.start_ratio, baseline: '1' },
          { figure: 'resident memory per idle worker (MB)', value: out.resident_mb_per_worker.workbench, baseline: `${out.resident_mb_per_worker.bare_node} (bare node)` },
        ]),
      );
    }
    return out;
  } finally {
    cleanupTempDirs();
  }
}
