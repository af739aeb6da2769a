// The benchmark's arithmetic: medians, ratios paired within a round, and the order rows run in.
import { describe, expect, it } from 'vitest';
import { measureRounds, median, medianRow, pairedRatio, type LatencyRow } from '../../bench/stats';

const row = (name: string, p50_us: number, p99_us: number, rps: number): LatencyRow => ({ name, p50_us, p99_us, rps });

describe('benchmark statistics', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('pairs a ratio within each round before taking the median', () => {
    // Round 2 ran in a slow state of the machine for both rows: paired, it is an ordinary round.
    const rounds = [
      [row('host', 120, 200, 100), row('fork', 100, 190, 200)],
      [row('host', 360, 600, 40), row('fork', 300, 570, 80)],
      [row('host', 130, 210, 90), row('fork', 100, 200, 150)],
    ];
    const p50 = pairedRatio(rounds, 0, 1, 'p50_us');
    expect(p50.perRound).toEqual([1.2, 1.2, 1.3]);
    expect(p50.median).toBe(1.2);
    expect(pairedRatio(rounds, 0, 1, 'rps').median).toBe(0.5);
    // The ratio of the medians would read 130 / 100.
    expect(medianRow(rounds, 0)).toEqual({ name: 'host', p50_us: 130, p99_us: 210, rps: 90 });
  });

  it('runs every row once per round with its own processes, in reverse order every other round', async () => {
    const events: string[] = [];
    const spec = (name: string) => ({
      name,
      plan: { count: 1, total: 1, inFlight: 1, warmupMs: 0 },
      make: async () => {
        events.push(`start ${name}`);
        return {
          call: async () => {},
          close: async () => {
            events.push(`close ${name}`);
          },
        };
      },
    });
    const rounds = await measureRounds([spec('a'), spec('b'), spec('c')], 3);
    expect(rounds.map((r) => r.map((x) => x.name))).toEqual([
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
    ]);
    const starts = events.filter((e) => e.startsWith('start')).map((e) => e.slice(6));
    expect(starts).toEqual(['a', 'b', 'c', 'c', 'b', 'a', 'a', 'b', 'c']);
    // A row's processes are gone before the next row starts.
    expect(events.slice(0, 4)).toEqual(['start a', 'close a', 'start b', 'close b']);
  });
});
