// What a run trace means for the timeline and the controls: lanes (one per rolled member), calls (finished and running), progress.
import type { CouncilToolResult } from '../../../../shared/types/council';
import type { RunTrace } from '../../stores/council/runs-slice';
import type { BarStatus, TimelineCallInput, TimelineLaneInput } from './timeline-geometry';

export interface TimelineCall extends TimelineCallInput {
  /** The finished result; absent while the call runs. */
  result?: CouncilToolResult;
}

export const callKey = (memberId: string, toolName: string) => `${memberId}\n${toolName}`;

function rollNote(roll: RunTrace['rolls'][number]): string {
  if (roll.reason === 'no-tools') return 'sat out: no tools';
  if (roll.reason === 'never') return 'sat out: chance 0%';
  return `sat out: rolled ${roll.roll.toFixed(1)}, needed under ${roll.chance}`;
}

export function lanesOf(trace: RunTrace): TimelineLaneInput[] {
  return trace.rolls.map((r) => ({
    memberId: r.memberId,
    memberName: r.memberName,
    active: r.active,
    ...(r.active ? {} : { note: rollNote(r) }),
  }));
}

export function callsOf(trace: RunTrace): TimelineCall[] {
  const calls: TimelineCall[] = [];
  const seen = new Set<string>();
  const fromResult = (r: CouncilToolResult): TimelineCall => ({
    key: callKey(r.memberId, r.toolName),
    memberId: r.memberId,
    memberName: r.memberName,
    toolName: r.toolName,
    toolDisplayName: r.toolDisplayName,
    startMs: r.startedAt,
    durationMs: r.durationMs,
    status: r.status as BarStatus,
    // Dry run: a simulated write, and whether only the placeholder answered (Luker's simulation review).
    ...(r.simulated ? { simulated: true } : {}),
    ...(r.unvalidated ? { unvalidated: true } : {}),
    ...(r.unplanned ? { unplanned: true } : {}),
    result: r,
  });
  const byKey = new Map(trace.results.map((r) => [callKey(r.memberId, r.toolName), r]));
  // Planned order first (member order, then each member's tools), so rows do not jump as results arrive.
  for (const p of trace.planned) {
    const key = callKey(p.memberId, p.toolName);
    if (seen.has(key)) continue;
    seen.add(key);
    const done = byKey.get(key);
    if (done) calls.push(fromResult(done));
    else if (trace.run === null) {
      // Every tool of a cycle starts together at the run start; a call still out is running since then.
      calls.push({ key, memberId: p.memberId, memberName: p.memberName, toolName: p.toolName, toolDisplayName: p.toolDisplayName, startMs: 0, durationMs: 0, status: 'running' });
    }
  }
  for (const r of trace.results) {
    const key = callKey(r.memberId, r.toolName);
    if (seen.has(key)) continue;
    seen.add(key);
    calls.push(fromResult(r));
  }
  return calls;
}

export interface RunProgress {
  done: number;
  total: number;
  running: boolean;
}

export function progressOf(trace: RunTrace): RunProgress {
  if (trace.run) return { done: trace.run.results.length, total: trace.run.results.length, running: false };
  const planned = new Set(trace.planned.map((p) => callKey(p.memberId, p.toolName)));
  const done = trace.results.filter((r) => planned.has(callKey(r.memberId, r.toolName))).length;
  return { done, total: planned.size, running: true };
}

export const STATUS_LABELS: Record<BarStatus, string> = {
  ok: 'OK',
  error: 'Error',
  timeout: 'Timed out',
  cancelled: 'Cancelled',
  missing: 'Missing',
  running: 'Running',
};

/** A glyph per status, so the bars do not rely on colour alone. */
export const STATUS_GLYPHS: Record<BarStatus, string> = {
  ok: '✓',
  error: '✕',
  timeout: '◔',
  cancelled: '⊘',
  missing: '?',
  running: '…',
};

export const STATUS_HELP: Record<BarStatus, string> = {
  ok: 'The tool answered; its output is in the deliberation block.',
  error: 'The tool (or its argument planning) failed; left out of the block.',
  timeout: 'No answer before the council deadline.',
  cancelled: 'Stopped by Abort.',
  missing: 'The member’s pack item or the tool is not there; nothing ran.',
  running: 'Still running.',
};

/** A run's start time, as the Runs tab lists it. */
export function when(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
}
