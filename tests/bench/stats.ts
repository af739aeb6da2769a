// Latency and throughput measurement helpers shared by the benchmarks; they report, never judge.

export interface LatencyRow {
  name: string;
  p50_us: number;
  p99_us: number;
  rps: number;
}

export function percentile(sortedUs: number[], p: number): number {
  if (sortedUs.length === 0) return NaN;
  const index = Math.min(sortedUs.length - 1, Math.max(0, Math.ceil((p / 100) * sortedUs.length) - 1));
  return sortedUs[index]!;
}

/** Sequential round trips: each call waits for the previous one. Appends latencies in µs to `samples`. */
export async function measureSequential(call: () => Promise<unknown>, count: number, samples: number[]): Promise<void> {
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    await call();
    samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
}

/** Keeps `inFlight` calls running until `total` have finished; returns the seconds it took. */
export async function measureThroughput(call: () => Promise<unknown>, total: number, inFlight: number): Promise<number> {
  let started = 0;
  const start = process.hrtime.bigint();
  const lane = async () => {
    while (started < total) {
      started++;
      await call();
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/**
 * Every row warms up the same way before it is timed: at least this many calls and this long. The
 * time matters on a small machine: for the first seconds a process's background threads (JIT
 * compilers, the TypeScript loader) compete with it for the two cores, which shows as millisecond
 * stalls in the first few thousand calls, not in the steady state the figures describe.
 */
export const WARMUP_CALLS = 2000;
export const WARMUP_MS = 2000;

/** Both ways a row is timed, one after the other and with `inFlight` at once, each for half the time. */
async function warmUp(call: () => Promise<unknown>, inFlight: number): Promise<void> {
  const half = performance.now() + WARMUP_MS / 2;
  for (let i = 0; i < WARMUP_CALLS || performance.now() < half; i++) await call();
  const until = performance.now() + WARMUP_MS / 2;
  while (performance.now() < until) await measureThroughput(call, WARMUP_CALLS, inFlight);
}

export interface LatencyPlan {
  /** Sequential calls per target, split evenly over the rounds. */
  count: number;
  /** Throughput calls per target, split evenly over the rounds. */
  total: number;
  inFlight: number;
  rounds: number;
}

/**
 * Measures every target in interleaved rounds (a slice of each per round, the order rotating) rather
 * than one after another: on a small shared machine the speed drifts over seconds, and interleaving
 * spreads that drift over all rows alike instead of charging it to whichever row ran at the time.
 * All latency rounds come first, then all throughput rounds, so the garbage of 64 calls in flight
 * is not collected during a sequential measurement. Percentiles come from the pooled samples; rps
 * is all calls over all the time spent on them.
 */
export async function latencyRows(targets: Array<{ name: string; call: () => Promise<unknown> }>, plan: LatencyPlan): Promise<LatencyRow[]> {
  for (const t of targets) await warmUp(t.call, plan.inFlight);
  const samples = targets.map(() => [] as number[]);
  const seconds = targets.map(() => 0);
  const perRoundSeq = Math.ceil(plan.count / plan.rounds);
  const perRoundTotal = Math.ceil(plan.total / plan.rounds);
  const inRotation = (round: number) => targets.map((_t, k) => (round + k) % targets.length);
  for (let round = 0; round < plan.rounds; round++) {
    for (const i of inRotation(round)) await measureSequential(targets[i]!.call, perRoundSeq, samples[i]!);
  }
  for (let round = 0; round < plan.rounds; round++) {
    for (const i of inRotation(round)) seconds[i]! += await measureThroughput(targets[i]!.call, perRoundTotal, plan.inFlight);
  }
  return targets.map((t, i) => {
    const sorted = samples[i]!.sort((a, b) => a - b);
    return { name: t.name, p50_us: round(percentile(sorted, 50)), p99_us: round(percentile(sorted, 99)), rps: round((perRoundTotal * plan.rounds) / seconds[i]!) };
  });
}

export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export function table(rows: Array<Record<string, string | number>>): string {
  const headers = Object.keys(rows[0] ?? {});
  const widths = headers.map((h) => Math.max(h.length, ...rows.map((r) => String(r[h]).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(headers.map((h) => String(r[h]))))].join('\n');
}
