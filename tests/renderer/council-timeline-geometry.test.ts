// The run timeline's pure geometry: nice ticks, lanes and rows, bar x/width from times, running bars, the deadline, both scales.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TIMELINE_OPTIONS,
  formatDuration,
  layoutTimeline,
  niceDomain,
  niceStep,
  type TimelineCallInput,
  type TimelineOptions,
} from '../../renderer/src/features/council/timeline-geometry';

const options = (partial: Partial<TimelineOptions> = {}): TimelineOptions => ({
  ...DEFAULT_TIMELINE_OPTIONS,
  width: 770,
  labelWidth: 150,
  rightPad: 20,
  scale: 'fit',
  deadlineMs: 1000,
  nowMs: 0,
  ...partial,
});

const call = (partial: Partial<TimelineCallInput>): TimelineCallInput => ({
  key: `${partial.memberId ?? 'a'}\n${partial.toolName ?? 't'}`,
  memberId: 'a',
  memberName: 'Ada',
  toolName: 't',
  toolDisplayName: 'Tool',
  startMs: 0,
  durationMs: 100,
  status: 'ok',
  ...partial,
});

describe('ticks', () => {
  it('picks 1/2/5 × 10^k steps and a domain past the data', () => {
    expect(niceStep(1000, 5)).toBe(200);
    expect(niceStep(30_000, 6)).toBe(5000);
    expect(niceStep(3, 6)).toBe(0.5);
    expect(niceStep(0, 6)).toBe(1);
    expect(niceDomain(1000, 5)).toBe(1200);
    expect(niceDomain(950, 5)).toBe(1000);
    expect(niceDomain(2, 6)).toBe(2.5);
    expect(niceDomain(0, 6)).toBe(1.2);
  });

  it('formats durations compactly', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(0.5)).toBe('0.5 ms');
    expect(formatDuration(2.25)).toBe('2.3 ms');
    expect(formatDuration(250)).toBe('250 ms');
    expect(formatDuration(1500)).toBe('1.5 s');
    expect(formatDuration(30_000)).toBe('30 s');
    expect(formatDuration(90_000)).toBe('1.5 min');
  });
});

describe('layoutTimeline', () => {
  it('puts one lane per member (rows per call), bars at start/duration, ticks across the plot', () => {
    const lanes = [
      { memberId: 'a', memberName: 'Ada', active: true },
      { memberId: 'b', memberName: 'Bo', active: false, note: 'sat out' },
      { memberId: 'c', memberName: 'Cy', active: true },
    ];
    const calls = [
      call({ memberId: 'a', toolName: 't1', startMs: 0, durationMs: 500 }),
      call({ memberId: 'a', toolName: 't2', startMs: 250, durationMs: 250, status: 'error' }),
      call({ memberId: 'c', toolName: 't1', startMs: 100, durationMs: 900, status: 'ok' }),
    ];
    const layout = layoutTimeline(lanes, calls, options({ scale: 'deadline' }));
    // Axis reaches past the deadline (1000 ms) to the next nice step.
    expect(layout.domainMs).toBe(1200);
    expect(layout.plot).toEqual({ x0: 150, x1: 750, y0: DEFAULT_TIMELINE_OPTIONS.axisHeight, y1: layout.plot.y1 });
    const pxPerMs = 600 / 1200;

    expect(layout.lanes.map((l) => [l.memberId, l.rows])).toEqual([
      ['a', 2],
      ['b', 1],
      ['c', 1],
    ]);
    const [a, b, c] = layout.lanes;
    expect(b!.y).toBe(a!.y + a!.height);
    expect(c!.y).toBe(b!.y + b!.height);
    expect(a!.height).toBe(2 * DEFAULT_TIMELINE_OPTIONS.rowHeight + 2 * DEFAULT_TIMELINE_OPTIONS.lanePadding);

    const [b1, b2, b3] = layout.bars;
    expect(b1!.x).toBe(150);
    expect(b1!.width).toBeCloseTo(500 * pxPerMs);
    expect(b2!.x).toBeCloseTo(150 + 250 * pxPerMs);
    expect(b2!.width).toBeCloseTo(250 * pxPerMs);
    expect(b2!.row).toBe(1);
    expect(b2!.y).toBeGreaterThan(b1!.y);
    expect(b3!.laneIndex).toBe(2);
    expect(b3!.endMs).toBe(1000);

    expect(layout.ticks.map((t) => t.ms)).toEqual([0, 200, 400, 600, 800, 1000, 1200]);
    expect(layout.ticks[0]!.x).toBe(150);
    expect(layout.ticks.at(-1)!.x).toBe(750);
    expect(layout.ticks[5]!.label).toBe('1 s');
    expect(layout.deadline).toEqual({ ms: 1000, x: 150 + 1000 * pxPerMs, visible: true });
    expect(layout.height).toBe(layout.plot.y1 + 4);
  });

  it('fits the axis to the calls and leaves a far deadline off the plot', () => {
    const layout = layoutTimeline([{ memberId: 'a', memberName: 'Ada', active: true }], [call({ durationMs: 2 })], options({ deadlineMs: 30_000 }));
    expect(layout.domainMs).toBe(2.5);
    expect(layout.deadline.visible).toBe(false);
    expect(layout.bars[0]!.width).toBeCloseTo((2 / 2.5) * 600);
  });

  it('shows the deadline on the fitted axis when a call ran into it (timeout)', () => {
    const layout = layoutTimeline([], [call({ durationMs: 1000, status: 'timeout' })], options({ deadlineMs: 1000 }));
    expect(layout.deadline.visible).toBe(true);
    expect(layout.bars[0]!.x + layout.bars[0]!.width).toBeCloseTo(layout.deadline.x);
  });

  it('draws running calls up to now, and grows them as now moves', () => {
    const running = call({ status: 'running', startMs: 0, durationMs: 0 });
    const early = layoutTimeline([], [running], options({ scale: 'deadline', nowMs: 300 }));
    const later = layoutTimeline([], [running], options({ scale: 'deadline', nowMs: 600 }));
    expect(early.bars[0]!.endMs).toBe(300);
    expect(later.bars[0]!.width).toBeCloseTo(early.bars[0]!.width * 2);
    expect(later.domainMs).toBe(early.domainMs);
  });

  it('keeps zero-length calls visible, clamps bars to the plot, and adds lanes for calls without one', () => {
    const layout = layoutTimeline(
      [{ memberId: 'a', memberName: 'Ada', active: true }],
      [call({ durationMs: 0, status: 'missing' }), call({ memberId: 'gone', memberName: 'Gone', startMs: 1100, durationMs: 5000, status: 'cancelled' })],
      options({ scale: 'deadline', deadlineMs: 1000 }),
    );
    expect(layout.bars[0]!.width).toBe(DEFAULT_TIMELINE_OPTIONS.minBarWidth);
    expect(layout.lanes.map((l) => l.memberName)).toEqual(['Ada', 'Gone']);
    const late = layout.bars[1]!;
    expect(late.x + late.width).toBeLessThanOrEqual(layout.plot.x1 + 0.001);
    expect(layout.domainMs).toBe(8000);
  });

  it('has no float noise in tick values, and spans at least 1 ms', () => {
    const layout = layoutTimeline([], [call({ durationMs: 0.7 })], options({ deadlineMs: 30_000 }));
    expect(layout.domainMs).toBe(1.2);
    expect(layout.ticks.map((t) => t.ms)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1, 1.2]);
    expect(layout.ticks.map((t) => t.label)).toEqual(['0 ms', '0.2 ms', '0.4 ms', '0.6 ms', '0.8 ms', '1 ms', '1.2 ms']);
  });
});
