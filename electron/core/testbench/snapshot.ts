// A case's snapshot on disk (tests/__snapshots__/<case>.snap.json) and how a run differs from it: a unified diff,
// and which parts changed — a stage named by what it is and who ran it, a request, the tool calls, the reply, the log.
import { createTwoFilesPatch } from 'diff';
import type { CaseSnapshot } from './run-case';

/** JSON with every object's keys in sorted order, two spaces, a newline at the end: the same run writes the same bytes. */
export function stableJson(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
    return v;
  };
  return `${JSON.stringify(sorted(value), null, 2)}\n`;
}

export interface SnapshotDifference {
  /** What changed, in the order of a turn: e.g. `stage "interceptor" (by my-ext)`, `request 1`, `reply`. */
  where: string[];
  /** The unified diff, saved snapshot first. */
  diff: string;
}

const same = (a: unknown, b: unknown) => stableJson(a) === stableJson(b);

function changedParts(saved: CaseSnapshot, now: CaseSnapshot): string[] {
  const where: string[] = [];
  const stages = Math.max(saved.stages?.length ?? 0, now.stages.length);
  for (let i = 0; i < stages; i++) {
    const a = saved.stages?.[i];
    const b = now.stages[i];
    if (!same(a, b)) where.push(`stage "${(b ?? a)!.stage}" (by ${(b ?? a)!.by})`);
  }
  const requests = Math.max(saved.requests?.length ?? 0, now.requests.length);
  for (let i = 0; i < requests; i++) if (!same(saved.requests?.[i], now.requests[i])) where.push(`request ${i + 1} (the prompt the model received)`);
  if (!same(saved.toolCalls, now.toolCalls)) where.push('tool calls');
  if (!same(saved.reply, now.reply)) where.push('reply');
  if (!same(saved.council, now.council)) where.push('council (seed, rolls, block)');
  if (!same(saved.sidecarRequests, now.sidecarRequests)) where.push('sidecar requests');
  if (!same(saved.log, now.log)) where.push('extension log');
  if (saved.case !== now.case) where.push('case name');
  return where;
}

/** Null when the run matches the saved snapshot. */
export function compareSnapshot(savedText: string, now: CaseSnapshot, fileName: string): SnapshotDifference | null {
  const nowText = stableJson(now);
  if (savedText === nowText) return null;
  let saved: CaseSnapshot;
  try {
    saved = JSON.parse(savedText) as CaseSnapshot;
  } catch {
    saved = { case: '', requests: [], stages: [], toolCalls: [], reply: { text: '', finishReason: '' }, log: [] };
  }
  const where = changedParts(saved, now);
  return { where: where.length ? where : ['formatting of the saved file'], diff: createTwoFilesPatch(`${fileName} (saved)`, `${fileName} (this run)`, savedText, nowText, '', '', { context: 3 }) };
}
