import { describe, expect, it } from 'vitest';
import { parseCpuLine, stealMeter } from '../../bench/cpu-steal';

describe('cpu steal meter', () => {
  it('reads the all-CPU line of /proc/stat: user, nice, system, irq, softirq and steal are wanted time; idle and iowait are not', () => {
    expect(parseCpuLine('cpu  100 5 20 900 7 3 2 40 0 0\ncpu0 50 2 10 450 3 1 1 20 0 0\n')).toEqual({ wanted: 170, steal: 40 });
  });

  it('answers null for text that is not /proc/stat', () => {
    expect(parseCpuLine('cpu0 1 2 3 4 5 6 7 8')).toBeNull();
    expect(parseCpuLine('cpu  1 2 3')).toBeNull();
    expect(parseCpuLine('')).toBeNull();
  });

  it('gives the stolen share of the time wanted between start and end, and null when a reading is missing', () => {
    const readings = [{ wanted: 1000, steal: 100 }, { wanted: 1400, steal: 300 }];
    expect(stealMeter(() => readings.shift() ?? null)()).toBe(0.5);
    const none = [null, { wanted: 5, steal: 1 }];
    expect(stealMeter(() => none.shift() ?? null)()).toBeNull();
    const idle = [{ wanted: 10, steal: 0 }, { wanted: 10, steal: 0 }];
    expect(stealMeter(() => idle.shift() ?? null)()).toBe(0);
  });
});
