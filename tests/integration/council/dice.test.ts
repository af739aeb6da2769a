import { afterEach, describe, expect, it } from 'vitest';
import { mulberry32, rollMembers } from '../../../electron/core/council/dice';
import type { CouncilMember } from '../../../shared/types/council';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { addMember, call, councilHost, sampleChat } from './helpers';

afterEach(cleanupTempDirs);

const member = (id: string, chance: number, tools = ['council:pacing_review']): CouncilMember => ({ id, packId: 'p', itemId: id, role: '', chance, tools });
const opts = { atLeastOneMember: false, nameOf: (m: CouncilMember) => m.itemId };

describe('dice', () => {
  it('the same seed gives the same sequence; different seeds differ', () => {
    const a = mulberry32(12345);
    const b = mulberry32(12345);
    const c = mulberry32(54321);
    const sa = Array.from({ length: 20 }, a);
    expect(Array.from({ length: 20 }, b)).toEqual(sa);
    expect(Array.from({ length: 20 }, c)).not.toEqual(sa);
    expect(sa.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('chance 0 is never in and 100 always, over many seeds; members without tools are skipped', () => {
    const members = [member('zero', 0), member('hundred', 100), member('none', 100, []), member('half', 50)];
    let halfIn = 0;
    for (let seed = 0; seed < 2000; seed++) {
      const { rolls } = rollMembers(members, seed, opts);
      expect(rolls[0]).toMatchObject({ active: false, reason: 'never' });
      expect(rolls[1]).toMatchObject({ active: true, reason: 'always' });
      expect(rolls[2]).toMatchObject({ active: false, reason: 'no-tools' });
      expect(rolls[3]!.active).toBe(rolls[3]!.roll < 50);
      if (rolls[3]!.active) halfIn++;
    }
    expect(halfIn).toBeGreaterThan(850);
    expect(halfIn).toBeLessThan(1150);
  });

  it("a member's draw depends only on the seed and its position", () => {
    const base = rollMembers([member('a', 30), member('b', 60)], 7, opts);
    const changed = rollMembers([member('a', 0), member('b', 60)], 7, opts);
    expect(changed.rolls[1]!.roll).toBe(base.rolls[1]!.roll);
  });

  it('the at-least-one fallback picks one eligible member only when nobody passed, and only when on', () => {
    const members = [member('a', 0), member('b', 1), member('c', 1, [])];
    const seed = [...Array(1000).keys()].find((s) => !rollMembers(members, s, opts).rolls.some((r) => r.active))!;
    expect(rollMembers(members, seed, opts).fallbackUsed).toBe(false);
    const withFallback = rollMembers(members, seed, { ...opts, atLeastOneMember: true });
    expect(withFallback.fallbackUsed).toBe(true);
    expect(withFallback.rolls.filter((r) => r.active).map((r) => [r.memberId, r.reason])).toEqual([['b', 'fallback']]);
    // chance 0 and no-tools members are never picked
    expect(rollMembers([member('a', 0), member('c', 50, [])], seed, { ...opts, atLeastOneMember: true }).fallbackUsed).toBe(false);
  });

  it('two runs with the same seed and settings take the same rolls, recorded in the run', async () => {
    const host = await councilHost({ extensions: false });
    host.council.setSidecar({ isConfigured: () => true, connectionKey: () => 'k', complete: async () => 'ok', planArguments: async () => ({ args: {}, constrained: false, repaired: false }) });
    for (const chance of [10, 35, 50, 65, 90]) await addMember(host, { chance, tools: ['council:pacing_review'] });
    const preview = await call<{ seed: number; rolls: unknown[] }>(host, 'council.testRoll', { seed: 987654321 });
    const one = await call<{ seed: number; rolls: unknown[]; results: Array<{ memberId: string }> }>(host, 'council.run', { chat: sampleChat(), seed: 987654321 });
    const two = await call<{ seed: number; rolls: unknown[]; results: Array<{ memberId: string }> }>(host, 'council.run', { chat: sampleChat(), seed: 987654321 });
    expect(one.seed).toBe(987654321);
    expect(two.rolls).toEqual(one.rolls);
    expect(preview.rolls).toEqual(one.rolls);
    expect(two.results.map((r) => r.memberId)).toEqual(one.results.map((r) => r.memberId));
    for (const roll of one.rolls as Array<Record<string, unknown>>) {
      expect(Object.keys(roll).sort()).toEqual(['active', 'chance', 'memberId', 'memberName', 'reason', 'roll']);
    }
    // a stored run replays: its seed gives its rolls again
    const stored = await call<{ seed: number; rolls: unknown[] }>(host, 'runs.get', { runId: (one as unknown as { id: string }).id });
    expect((await call<{ rolls: unknown[] }>(host, 'council.testRoll', { seed: stored.seed })).rolls).toEqual(stored.rolls);
    await host.dispose();
  });
});
