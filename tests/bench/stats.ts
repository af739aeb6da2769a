// Latency and throughput measurement helpers shared by the benchmarks; they report, never judge.
import type { Target } from './baselines';

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
async function warmUp(call: () => Promise<unknown>, inFlight: number, warmupMs: number): Promise<void> {
  const half = performance.now() + warmupMs / 2;
  for (let i = 0; i < WARMUP_CALLS || performance.now() < half; i++) await call();
  const until = performance.now() + warmupMs / 2;
  while (performance.now() < until) await measureThroughput(call, WARMUP_CALLS, inFlight);
}

export interface LatencyPlan {
  /** Sequential calls per target. */
  count: number;
  /** Calls per target for throughput. */
  total: number;
  inFlight: number;
  /** WARMUP_MS unless given (tests of these helpers). */
  warmupMs?: number;
}

/**
 * One row: its own warm-up, then latency, then throughput. The benchmarks measure rows one at a
 * time with only that row's processes alive, never interleaved: when one process alternates
 * between two children, the scheduler tends to keep one child on its core and move the other to
 * the idle one, and their round trips then differ by 3× for reasons unrelated to either path
 * (two identical echo children: 25 µs against 90 µs interleaved, 72–84 µs each one at a time).
 */
export async function latencyRow(name: string, call: () => Promise<unknown>, plan: LatencyPlan): Promise<LatencyRow> {
  await warmUp(call, plan.inFlight, plan.warmupMs ?? WARMUP_MS);
  const samples: number[] = [];
  await measureSequential(call, plan.count, samples);
  const seconds = await measureThroughput(call, plan.total, plan.inFlight);
  const sorted = samples.sort((a, b) => a - b);
  return { name, p50_us: round(percentile(sorted, 50)), p99_us: round(percentile(sorted, 99)), rps: round(plan.total / seconds) };
}

export interface RowSpec {
  name: string;
  make(): Promise<Target>;
  plan: LatencyPlan;
}

/**
 * Every row measured `rounds` times, with fresh processes each time; returns `[round][row]`. A
 * round measures its rows one after another, in reverse order every other round, so no row always
 * runs first or last. Rounds exist because on a small VM the same round trip can be 1.5× slower
 * for the whole life of a pair of processes (which physical cores they land on, what the
 * neighbours do): one sample of each row can land in different states, several rounds show both.
 */
export async function measureRounds(specs: RowSpec[], rounds: number, onRound?: (round: number, rows: LatencyRow[]) => void): Promise<LatencyRow[][]> {
  const results: LatencyRow[][] = [];
  for (let r = 0; r < rounds; r++) {
    const order = specs.map((_, i) => (r % 2 === 0 ? i : specs.length - 1 - i));
    const rows: LatencyRow[] = [];
    for (const i of order) {
      const spec = specs[i]!;
      const target = await spec.make();
      try {
        rows[i] = await latencyRow(spec.name, target.call, spec.plan);
        target.verify?.();
      } finally {
        await target.close();
      }
    }
    results.push(rows);
    onRound?.(r, rows);
  }
  return results;
}

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Row `index`'s figures, each the median over the rounds. */
export function medianRow(rounds: LatencyRow[][], index: number): LatencyRow {
  const rows = rounds.map((r) => r[index]!);
  const of = (field: 'p50_us' | 'p99_us' | 'rps') => round(median(rows.map((row) => row[field])));
  return { name: rows[0]!.name, p50_us: of('p50_us'), p99_us: of('p99_us'), rps: of('rps') };
}

/**
 * `field` of row `a` over row `b`, taken within each round (the two measured a few seconds apart,
 * in the same state of the machine), then the median over rounds.
 */
export function pairedRatio(rounds: LatencyRow[][], a: number, b: number, field: 'p50_us' | 'p99_us' | 'rps'): { median: number; perRound: number[] } {
  const perRound = rounds.map((r) => r[a]![field] / r[b]![field]);
  return { median: round(median(perRound), 2), perRound: perRound.map((v) => round(v, 2)) };
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
