// Council benchmark: 100 members × 3 extension tools of 50 ms each in one cycle (overhead over the ideal 50 ms), a tool that never answers under a 500 ms timeout (overshoot), and the same 300 calls one after another.
import path from 'node:path';
import { createHost, type Host } from '../../electron/core/host';
import { silentLogger } from '../../electron/core/ports';
import { confBackend } from '../../electron/core/settings/conf-backend';
import type { CouncilChat, CouncilMember, CouncilRun } from '../../shared/types/council';
import { cleanupTempDirs, tempDir } from '../helpers/temp-dir';
import { round, table, WARMUP_MS } from './stats';

const MEMBERS = 100;
const TOOLS = ['bench-wait-a:wait', 'bench-wait-b:wait', 'bench-wait-c:wait'];
const TOOL_MS = 50;
const RUNS = 21;
const HANG_TIMEOUT_MS = 500;
const HANG_RUNS = 5;

const chat: CouncilChat = {
  chatId: 'bench',
  character: { name: 'Mara', description: 'A lighthouse keeper.' },
  messages: Array.from({ length: 30 }, (_, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content: `Message ${i}: the storm keeps rising over the cliffs.` })),
};

async function setMembers(host: Host, members: CouncilMember[], timeoutMs: number) {
  await host.settings.update((s) => ({
    ...s,
    council: { ...s.council, members, toolsSettings: { ...host.council.settings().toolsSettings, timeoutMs } },
  }));
}

async function runOnce(host: Host): Promise<{ wallMs: number; run: CouncilRun }> {
  const start = process.hrtime.bigint();
  const result = await host.api.call('council.run', { chat, seed: 1 }, { origin: 'cli' });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (!result.ok) throw new Error(`council.run failed: ${JSON.stringify(result.error)}`);
  return { wallMs, run: result.value as CouncilRun };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function councilBenchmark({ json }: { json: boolean }) {
  const host = await createHost({
    dataDir: tempDir('cw-bench-council-'),
    mode: 'cli',
    settingsBackend: confBackend,
    log: silentLogger,
    bundledExtensionsDir: path.join(import.meta.dirname, 'fixtures', 'council-extensions'),
  });
  try {
    await host.extensions.whenSettled();
    for (const q of [...TOOLS, 'bench-hang:hang']) if (!host.registry.get(q)) throw new Error(`bench tool ${q} did not register`);

    // 1. 100 members × 3 tools, all concurrent.
    const members: CouncilMember[] = Array.from({ length: MEMBERS }, (_, i) => ({ id: `m${i}`, packId: 'story-council', itemId: 'plot-enforcer', role: `Member ${i}`, chance: 100, tools: TOOLS }));
    await setMembers(host, members, 30_000);
    // Warm-up, as for every benchmark row: at least 3 cycles and WARMUP_MS (JIT, worker pipes, background compilation).
    const warmUntil = performance.now() + WARMUP_MS;
    for (let i = 0; i < 3 || performance.now() < warmUntil; i++) await runOnce(host);
    const walls: number[] = [];
    let check: CouncilRun | undefined;
    for (let i = 0; i < RUNS; i++) {
      const { wallMs, run } = await runOnce(host);
      walls.push(wallMs);
      check = run;
    }
    if (!check || check.results.length !== MEMBERS * TOOLS.length || !check.results.every((r) => r.status === 'ok')) {
      throw new Error(`parallel cycle did not succeed: ${JSON.stringify(check?.results.find((r) => r.status !== 'ok'))}`);
    }

    // 2. One tool that never answers, timeoutMs 500.
    await setMembers(host, [{ id: 'hang', packId: 'story-council', itemId: 'plot-enforcer', role: '', chance: 100, tools: ['bench-hang:hang'] }], HANG_TIMEOUT_MS);
    const hangWalls: number[] = [];
    for (let i = 0; i < HANG_RUNS; i++) {
      const { wallMs, run } = await runOnce(host);
      if (run.results[0]?.status !== 'timeout') throw new Error('the hanging tool did not time out');
      hangWalls.push(wallMs);
    }

    // 3. The same 300 calls one after another (what a sequential council, as in Lumiverse, costs).
    const seqStart = process.hrtime.bigint();
    for (let m = 0; m < MEMBERS; m++) {
      for (const q of TOOLS) {
        const outcome = await host.registry.invoke(q, {}, { timeoutMs: 30_000, context: 'bench' });
        if (!outcome.ok) throw new Error(`sequential call failed: ${outcome.error.code}`);
      }
    }
    const sequentialMs = Number(process.hrtime.bigint() - seqStart) / 1e6;

    const wall = median(walls);
    const hang = median(hangWalls);
    const out = {
      overhead_ms: round(wall - TOOL_MS, 1),
      overshoot_ms: round(hang - HANG_TIMEOUT_MS, 1),
      parallel: {
        members: MEMBERS,
        tools_per_member: TOOLS.length,
        calls: MEMBERS * TOOLS.length,
        tool_ms: TOOL_MS,
        runs: RUNS,
        wall_ms_median: round(wall, 1),
        wall_ms_min: round(Math.min(...walls), 1),
        wall_ms_max: round(Math.max(...walls), 1),
      },
      timeout: { timeout_ms: HANG_TIMEOUT_MS, runs: HANG_RUNS, wall_ms_median: round(hang, 1), wall_ms_max: round(Math.max(...hangWalls), 1) },
      sequential: { calls: MEMBERS * TOOLS.length, wall_ms: round(sequentialMs, 0), speedup: round(sequentialMs / wall, 1) },
      targets: { overhead_ms: '≤ 15', overshoot_ms: '≤ 20' },
    };
    if (!json) {
      console.log(`${MEMBERS} members × ${TOOLS.length} tools of ${TOOL_MS} ms (3 extensions, so no worker's 128-call cap queues them); median of ${RUNS} cycles after a ${WARMUP_MS / 1000} s warm-up.\n`);
      console.log(
        table([
          { figure: 'cycle wall time (ms)', value: out.parallel.wall_ms_median, target: '' },
          { figure: 'overhead_ms (wall − 50)', value: out.overhead_ms, target: out.targets.overhead_ms },
          { figure: `overshoot_ms (hang, timeout ${HANG_TIMEOUT_MS})`, value: out.overshoot_ms, target: out.targets.overshoot_ms },
          { figure: 'one after another (ms)', value: out.sequential.wall_ms, target: '' },
          { figure: 'speed-up', value: out.sequential.speedup, target: '' },
        ]),
      );
    }
    return out;
  } finally {
    await host.council.runs.flush();
    await host.dispose();
    cleanupTempDirs();
  }
}
