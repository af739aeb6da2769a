// How much of the CPU time a benchmark asked for went to other guests of the hypervisor (Linux's
// /proc/stat "steal"). On a shared VM it can move a figure by more than the difference it is meant
// to show, so the benchmarks print it beside their figures.
import { readFileSync } from 'node:fs';

interface CpuTimes {
  /** user + nice + system + irq + softirq + steal: the time the VM's CPUs wanted. */
  wanted: number;
  steal: number;
}

/** The first (all-CPU) line of /proc/stat; null when it is not that. */
export function parseCpuLine(text: string): CpuTimes | null {
  const fields = text.split('\n', 1)[0]!.trim().split(/\s+/);
  if (fields[0] !== 'cpu' || fields.length < 9) return null;
  const [user, nice, system, , , irq, softirq, steal] = fields.slice(1, 9).map(Number) as number[];
  const wanted = user! + nice! + system! + irq! + softirq! + steal!;
  return Number.isFinite(wanted) ? { wanted, steal: steal! } : null;
}

function readCpu(): CpuTimes | null {
  try {
    return parseCpuLine(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return null; // not Linux
  }
}

/** Starts measuring; the returned function gives the stolen share (0–1) since then, or null where unknown. */
export function stealMeter(read: () => CpuTimes | null = readCpu): () => number | null {
  const start = read();
  return () => {
    const end = read();
    if (!start || !end) return null;
    const wanted = end.wanted - start.wanted;
    return wanted > 0 ? (end.steal - start.steal) / wanted : 0;
  };
}
