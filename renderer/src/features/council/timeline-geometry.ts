// Run timeline geometry, pure: lanes per member, one row per tool call, bar x/width from start offset and duration, axis ticks, the deadline.
import type { ToolResultStatus } from '../../../../shared/types/council';

/** A finished call's status, or `running` for a planned call with no result yet. */
export type BarStatus = ToolResultStatus | 'running';

export interface TimelineLaneInput {
  memberId: string;
  memberName: string;
  /** False for a member who sat out this run (lost the roll, or has no tools). */
  active: boolean;
  /** One line shown in an empty lane (why the member sat out). */
  note?: string;
}

export interface TimelineCallInput {
  key: string;
  memberId: string;
  memberName: string;
  toolName: string;
  toolDisplayName: string;
  /** ms from the run start. */
  startMs: number;
  /** ms; ignored for running calls (they last until `nowMs`). */
  durationMs: number;
  status: BarStatus;
  simulated?: boolean;
  unvalidated?: boolean;
  /** Called without planned arguments (Lumiverse's call); the reason is on the result. */
  unplanned?: boolean;
}

export interface TimelineOptions {
  /** Total SVG width in px. */
  width: number;
  /** Width of the member column at the left. */
  labelWidth: number;
  rowHeight: number;
  /** Space above and below the rows of one lane. */
  lanePadding: number;
  axisHeight: number;
  /** Right margin, so the last tick label fits. */
  rightPad: number;
  /** Narrowest bar drawn, so a 0 ms call is still visible and focusable. */
  minBarWidth: number;
  /** fit: the axis spans the calls (the deadline shows only when it falls inside); deadline: the axis always reaches the deadline. */
  scale: 'fit' | 'deadline';
  deadlineMs: number;
  /** Elapsed ms of the run (running bars end here); for a finished run, its total duration. */
  nowMs: number;
  /** About how many ticks to draw. */
  targetTicks: number;
}

export const DEFAULT_TIMELINE_OPTIONS: Omit<TimelineOptions, 'width' | 'scale' | 'deadlineMs' | 'nowMs'> = {
  labelWidth: 170,
  rowHeight: 26,
  lanePadding: 7,
  axisHeight: 26,
  rightPad: 22,
  minBarWidth: 4,
  targetTicks: 6,
};

export interface LaneLayout extends TimelineLaneInput {
  index: number;
  y: number;
  height: number;
  rows: number;
}

export interface BarLayout extends TimelineCallInput {
  laneIndex: number;
  row: number;
  x: number;
  y: number;
  width: number;
  height: number;
  /** ms from the run start where the bar ends (start + duration, or now for running calls). */
  endMs: number;
}

export interface TickLayout {
  ms: number;
  x: number;
  label: string;
}

export interface TimelineLayout {
  width: number;
  height: number;
  plot: { x0: number; x1: number; y0: number; y1: number };
  domainMs: number;
  lanes: LaneLayout[];
  bars: BarLayout[];
  ticks: TickLayout[];
  deadline: { ms: number; x: number; visible: boolean };
}

/** A 1, 2 or 5 × 10^k step giving about `target` intervals over `range`. */
export function niceStep(range: number, target: number): number {
  if (!(range > 0) || !Number.isFinite(range)) return 1;
  const raw = range / Math.max(1, target);
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const eps = 1e-9;
  const nice = fraction <= 1 + eps ? 1 : fraction <= 2 + eps ? 2 : fraction <= 5 + eps ? 5 : 10;
  return roundTo(nice * power, power);
}

/** The axis length for data reaching `maxMs`: the next step boundary above it (never exactly at it, so the longest bar has room). */
export function niceDomain(maxMs: number, target: number): number {
  const max = Math.max(1, Number.isFinite(maxMs) ? maxMs : 1);
  const step = niceStep(max, target);
  return roundTo((Math.floor(max / step + 1e-9) + 1) * step, step);
}

/** Compact duration for ticks and labels: 0 ms, 0.5 ms, 250 ms, 1.5 s, 30 s, 2 min. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '';
  if (ms === 0) return '0 ms';
  if (ms < 1) return `${trim(ms.toFixed(2))} ms`;
  if (ms < 10) return `${trim(ms.toFixed(1))} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${trim((ms / 1000).toFixed(ms < 10_000 ? 2 : 1))} s`;
  return `${trim((ms / 60_000).toFixed(1))} min`;
}

function trim(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

export function barEnd(call: Pick<TimelineCallInput, 'startMs' | 'durationMs' | 'status'>, nowMs: number): number {
  const start = Math.max(0, call.startMs);
  return call.status === 'running' ? Math.max(start, nowMs) : start + Math.max(0, call.durationMs);
}

export function layoutTimeline(lanesIn: readonly TimelineLaneInput[], calls: readonly TimelineCallInput[], options: TimelineOptions): TimelineLayout {
  const o = options;
  // Lanes: the given order, then any member that has calls but no lane (a retried member since removed).
  const laneInputs: TimelineLaneInput[] = [...lanesIn];
  const known = new Set(laneInputs.map((l) => l.memberId));
  for (const c of calls) {
    if (known.has(c.memberId)) continue;
    known.add(c.memberId);
    laneInputs.push({ memberId: c.memberId, memberName: c.memberName, active: true });
  }
  const callsByLane = new Map<string, TimelineCallInput[]>();
  for (const c of calls) {
    const list = callsByLane.get(c.memberId) ?? [];
    list.push(c);
    callsByLane.set(c.memberId, list);
  }

  const maxEnd = calls.reduce((m, c) => Math.max(m, barEnd(c, o.nowMs)), o.nowMs > 0 ? o.nowMs : 0);
  const reach = o.scale === 'deadline' ? Math.max(maxEnd, o.deadlineMs) : maxEnd;
  const domainMs = niceDomain(reach, o.targetTicks);

  const x0 = o.labelWidth;
  const x1 = Math.max(x0 + 40, o.width - o.rightPad);
  const plotWidth = x1 - x0;
  const xOf = (ms: number) => x0 + (Math.min(Math.max(ms, 0), domainMs) / domainMs) * plotWidth;

  const y0 = o.axisHeight;
  let y = y0;
  const lanes: LaneLayout[] = [];
  const bars: BarLayout[] = [];
  laneInputs.forEach((lane, index) => {
    const laneCalls = callsByLane.get(lane.memberId) ?? [];
    const rows = Math.max(1, laneCalls.length);
    const height = rows * o.rowHeight + 2 * o.lanePadding;
    lanes.push({ ...lane, index, y, height, rows });
    laneCalls.forEach((call, row) => {
      const endMs = barEnd(call, o.nowMs);
      const start = Math.max(0, call.startMs);
      const bx = xOf(start);
      const width = Math.min(Math.max(o.minBarWidth, xOf(endMs) - bx), Math.max(o.minBarWidth, x1 - bx));
      const barHeight = Math.round(o.rowHeight * 0.7);
      bars.push({
        ...call,
        laneIndex: index,
        row,
        x: bx,
        y: y + o.lanePadding + row * o.rowHeight + (o.rowHeight - barHeight) / 2,
        width,
        height: barHeight,
        endMs,
      });
    });
    y += height;
  });
  const y1 = y;

  const step = niceStep(domainMs, o.targetTicks);
  const ticks: TickLayout[] = [];
  for (let i = 0; i * step <= domainMs + step * 1e-9; i += 1) {
    const ms = roundTo(i * step, step);
    ticks.push({ ms, x: xOf(ms), label: formatDuration(ms) });
  }

  const deadlineVisible = o.deadlineMs > 0 && o.deadlineMs <= domainMs;
  return {
    width: o.width,
    height: y1 + 4,
    plot: { x0, x1, y0, y1 },
    domainMs,
    lanes,
    bars,
    ticks,
    deadline: { ms: o.deadlineMs, x: deadlineVisible ? xOf(o.deadlineMs) : x1, visible: deadlineVisible },
  };
}

/** Removes float noise (0.1 + 0.2) from tick values. */
function roundTo(value: number, step: number): number {
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 2);
  return Number(value.toFixed(Math.min(10, decimals)));
}

/** The hover tip's box: at most this wide, about this tall (two lines of 12 px text with padding). */
export const TIP_SIZE = { width: 240, height: 52 } as const;

/**
 * Where the hover tip goes: below its bar, or above it when below would run past the chart's bottom (the tip
 * of the last lane was cut off there), and never past either side.
 */
export function tipPosition(bar: Pick<BarLayout, 'x' | 'y' | 'height'>, layout: Pick<TimelineLayout, 'width' | 'height'>, size = TIP_SIZE): { left: number; top: number } {
  const left = Math.min(Math.max(0, bar.x), Math.max(0, layout.width - size.width));
  const below = bar.y + bar.height + 6;
  const top = below + size.height <= layout.height ? below : Math.max(0, bar.y - size.height - 6);
  return { left, top };
}
