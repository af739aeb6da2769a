// When an extension's frontend runs: as in Lumiverse, whether its backend runs or not, once it has started or failed
// to; never while disabled or stopped, nor before its backend's first start.
import { describe, expect, it } from 'vitest';
import { frontendRuns } from '../../../shared/frames/frontend-runs';

describe('frontendRuns', () => {
  it('runs with its backend running, crashed, restarting after a crash or failed; not otherwise', () => {
    const runs = (status: string, extra: { enabled?: boolean; lastCrash?: string } = {}) => frontendRuns({ enabled: true, status, ...extra });
    expect(['running', 'crashed', 'failed'].map((s) => runs(s))).toEqual([true, true, true]);
    expect(runs('starting', { lastCrash: 'Error: boom' })).toBe(true);
    expect(runs('starting')).toBe(false);
    expect(runs('stopped', { lastCrash: 'Error: boom' })).toBe(false);
    expect(runs('disabled')).toBe(false);
    expect(runs('running', { enabled: false })).toBe(false);
  });
});
