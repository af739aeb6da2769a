// Who takes part: one seeded draw per member per run, recorded so a seed replays exactly.
import type { CouncilMember, CouncilRoll } from '../../../shared/types/council';

/** mulberry32: a tiny 32-bit PRNG; the same seed always gives the same sequence in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface RollOutcome {
  seed: number;
  rolls: CouncilRoll[];
  fallbackUsed: boolean;
}

export interface RollOptions {
  atLeastOneMember: boolean;
  nameOf(member: CouncilMember): string;
}

function participation(member: CouncilMember, roll: number): Pick<CouncilRoll, 'active' | 'reason'> {
  if (member.tools.length === 0) return { active: false, reason: 'no-tools' };
  if (member.chance >= 100) return { active: true, reason: 'always' };
  if (member.chance <= 0) return { active: false, reason: 'never' };
  return { active: roll < member.chance, reason: 'rolled' };
}

/**
 * Every member gets exactly one draw, in order, whether or not it is used (chance 0 or 100, no
 * tools): a member's draw then depends only on its position and the seed, never on the others'
 * settings. chance 0 is never in and 100 always, regardless of the draw. With at-least-one on and
 * nobody in, one more draw picks among the members that have tools and a chance above 0.
 */
export function rollMembers(members: readonly CouncilMember[], seed: number, options: RollOptions): RollOutcome {
  const next = mulberry32(seed);
  const rolls: CouncilRoll[] = members.map((member) => {
    const roll = Math.floor(next() * 100_000) / 1000; // [0, 100) with 3 decimals, stored exactly
    const { active, reason } = participation(member, roll);
    return { memberId: member.id, memberName: options.nameOf(member), chance: member.chance, roll, active, reason };
  });
  let fallbackUsed = false;
  if (options.atLeastOneMember && !rolls.some((r) => r.active)) {
    const eligible = rolls.filter((r, i) => members[i]!.tools.length > 0 && members[i]!.chance > 0);
    if (eligible.length > 0) {
      const pick = eligible[Math.floor(next() * eligible.length)]!;
      pick.active = true;
      pick.reason = 'fallback';
      fallbackUsed = true;
    }
  }
  return { seed: seed >>> 0, rolls, fallbackUsed };
}

/** A fresh 32-bit seed. */
export function randomSeed(random: () => number = Math.random): number {
  return Math.floor(random() * 4294967296) >>> 0;
}
