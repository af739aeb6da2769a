// A frontend's messages to its backend: large ones go through (Lumiverse's socket takes 4 MB), a stream of them is
// refused with RATE_LIMITED once FRONTEND_MESSAGE_BUDGET's characters are spent in its window, until the window moves on.
import { describe, expect, it } from 'vitest';
import { extensionPipeline, FRONTEND_MESSAGE_BUDGET } from '../../../electron/core/extensions/pipeline/pipeline-bridge';
import { RecentAmount } from '../../../electron/core/extensions/per-extension-limits';
import type { Entry } from '../../../electron/core/extensions/extension-entry';
import type { PipelineRegistrations } from '../../../electron/core/extensions/spindle-host/registrations';

describe("a frontend's messages to its backend", () => {
  it('are refused past the budget in its window, for that extension only, and go again once the window has moved on', () => {
    let now = 0;
    const delivered: string[] = [];
    const entry = (id: string) => ({ id, granted: new Set(), worker: { state: 'running', sendFrontendMessage: () => void delivered.push(id) } }) as unknown as Entry;
    const entries = [entry('a'), entry('b')];
    const registrations = { of: () => ({ macros: new Map(), pipeline: new Map(), frontend: [], promptRegexChats: new Set() }) } as unknown as PipelineRegistrations;
    const budget = new RecentAmount(FRONTEND_MESSAGE_BUDGET.chars, FRONTEND_MESSAGE_BUDGET.windowMs, () => now);
    const pipeline = extensionPipeline(() => entries, registrations, { now: () => now }, undefined, budget);
    const big = { media: 'x'.repeat(4 * 1024 * 1024 - 64) };
    const fits = Math.floor(FRONTEND_MESSAGE_BUDGET.chars / (4 * 1024 * 1024));
    for (let i = 0; i < fits; i++) expect(pipeline.sendFrontend('a', big)).toBe(true);
    expect(() => pipeline.sendFrontend('a', big)).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'RATE_LIMITED', path: '/payload' }) }));
    expect(pipeline.sendFrontend('b', big)).toBe(true);
    now += FRONTEND_MESSAGE_BUDGET.windowMs;
    expect(pipeline.sendFrontend('a', big)).toBe(true);
    expect(delivered.filter((id) => id === 'a')).toHaveLength(fits + 1);
  });
});
