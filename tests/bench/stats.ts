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

/** Sequential round trips: each call waits for the previous one. Returns sorted latencies in µs. */
export async function measureSequential(call: () => Promise<unknown>, count: number, warmup = Math.ceil(count / 10)): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await call();
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    await call();
    samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  return samples.sort((a, b) => a - b);
}

/** Keeps `inFlight` calls running until `total` have finished; returns calls per second. */
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
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return total / seconds;
}

/** Every row warms up the same way, so the JIT has optimized each path before it is timed. */
export const WARMUP_CALLS = 2000;

export async function latencyRow(name: string, call: () => Promise<unknown>, opts: { count: number; total: number; inFlight: number }): Promise<LatencyRow> {
  const sorted = await measureSequential(call, opts.count, WARMUP_CALLS);
  const rps = await measureThroughput(call, opts.total, opts.inFlight);
  return { name, p50_us: round(percentile(sorted, 50)), p99_us: round(percentile(sorted, 99)), rps: round(rps) };
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
