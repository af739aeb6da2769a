// What a council cycle runs: one task per active member × assigned tool, or, for a retry, one per failed result.
// A task whose member's pack item or tool is gone carries why, so the cycle records it as failed instead of calling.
import type { CouncilMember, CouncilRun, CouncilSettings } from '../../../shared/types/council';
import { buildMemberContext } from './context';
import type { MemberLookup } from './council-view';
import type { RollOutcome } from './dice';
import type { CycleTask } from './execute-cycle';

export function taskFor(member: CouncilMember, q: string, lookup: MemberLookup): CycleTask {
  const resolved = lookup.item(member);
  const info = lookup.tool(q);
  const memberName = resolved?.item.name ?? member.itemId;
  const task: CycleTask = {
    memberId: member.id,
    memberName,
    qualifiedName: q,
    displayName: info?.displayName ?? q,
    member: buildMemberContext(member, resolved),
  };
  if (!resolved) task.missing = `Pack item ${member.packId}/${member.itemId} is missing, so ${memberName} cannot run its tools.`;
  else if (!info) task.missing = `Tool "${q}" is not registered (its extension may be removed or stopped).`;
  return task;
}

/** Every tool of every member the dice made active, in roll order. */
export function tasksOfRoll(settings: CouncilSettings, rolled: RollOutcome, lookup: MemberLookup): CycleTask[] {
  const byId = new Map(settings.members.map((m) => [m.id, m]));
  return rolled.rolls.filter((roll) => roll.active).flatMap((roll) => {
    const member = byId.get(roll.memberId)!;
    return member.tools.map((q) => taskFor(member, q, lookup));
  });
}

/** The failed results of a run, again, with the members as they are now (a removed member fails with that reason). */
export function retryTasks(source: CouncilRun, settings: CouncilSettings, lookup: MemberLookup): CycleTask[] {
  const byId = new Map(settings.members.map((m) => [m.id, m]));
  return source.results
    .filter((r) => !r.success)
    .map((r) => {
      const member = byId.get(r.memberId);
      if (member) return taskFor(member, r.toolName, lookup);
      return {
        memberId: r.memberId,
        memberName: r.memberName,
        qualifiedName: r.toolName,
        displayName: r.toolDisplayName,
        member: buildMemberContext({ id: r.memberId, packId: '', itemId: r.memberName, role: '', chance: 0, tools: [] }, null),
        missing: 'This member was removed from the council.',
      };
    });
}
