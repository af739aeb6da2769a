// When an extension's frontend runs: as in Lumiverse, whether its backend runs or not, once it has started or failed
// to; never while disabled or stopped, nor before its backend's first start.
import { describe, expect, it } from 'vitest';
import type { ExtensionStatus } from '../../../electron/core/extensions/extension-types';
import { frontendRuns } from '../../../electron/core/extensions/extension-entry';

describe('frontendRuns', () => {
  it('runs with its backend running, crashed, restarting after a crash or failed; not at a start by hand (no crash in the window), nor stopped or disabled', () => {
    const runs = (status: ExtensionStatus, extra: { enabled?: boolean; recentCrashes?: number } = {}) => frontendRuns({ enabled: true, status, recentCrashes: 0, ...extra });
    expect((['running', 'crashed', 'failed'] as const).map((s) => runs(s))).toEqual([true, true, true]);
    expect(runs('starting', { recentCrashes: 1 })).toBe(true);
    expect(runs('starting')).toBe(false);
    expect(runs('stopped', { recentCrashes: 1 })).toBe(false);
    expect(runs('disabled')).toBe(false);
    expect(runs('running', { enabled: false })).toBe(false);
  });
});
