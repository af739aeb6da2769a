// A process's resident memory as the OS reports it: VmRSS from /proc on Linux, nothing elsewhere.
//
// Read by the host, not reported by the worker: a worker runs a stranger's code and could under-report,
// and a worker whose event loop is blocked reports nothing while it grows. Resident memory counts
// what the V8 heap cap does not (Buffers, native allocations). Where there is no /proc, the host
// falls back to the figure the worker sends with each heartbeat.
import fs from 'node:fs';

const VM_RSS = /^VmRSS:\s+(\d+)\s+kB$/m;

export function procResidentBytes(pid: number | undefined): number | null {
  if (pid === undefined || process.platform !== 'linux') return null;
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'latin1');
  } catch {
    return null; // gone, or no procfs
  }
  const match = VM_RSS.exec(status);
  return match ? Number(match[1]) * 1024 : null;
}
