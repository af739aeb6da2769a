// Inline mode: the functions the main model is offered, one per member × tool it can call now, named and described
// once here for both the chat (which offers them) and council.inlineTools (which shows them).
import type { CouncilSettings, InlineTool } from '../../../shared/types/council';
import type { MemberLookup } from './council-view';

const MAX_FUNCTIONS = 128;
const NAME_MAX = 64;

function memberPrefix(memberId: string): string {
  const clean = memberId.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 8);
  return clean || 'member';
}

function unique(name: string, taken: Set<string>): string {
  let candidate = name.slice(0, NAME_MAX);
  for (let i = 2; taken.has(candidate) && i < 1000; i++) {
    const suffix = `_${i}`;
    candidate = name.slice(0, NAME_MAX - suffix.length) + suffix;
  }
  taken.add(candidate);
  return candidate;
}

/**
 * Every member's available tool except prompt tools (those need the sidecar). Seed 000: in inline mode a member's
 * council tool goes to the main model whether or not it sets inline_available (that flag offers a tool outside the
 * council). A tool serving one member keeps its alias; one serving several becomes `<member8>_<alias>`, one each.
 */
export function inlineFunctions(settings: CouncilSettings, lookup: MemberLookup): InlineTool[] {
  const usable = settings.members.flatMap((member) =>
    member.tools.flatMap((q) => {
      const info = lookup.tool(q);
      return info && info.status === 'available' && !lookup.isPromptTool(info) ? [{ member, info }] : [];
    }),
  );
  const membersPerTool = new Map<string, Set<string>>();
  for (const { member, info } of usable) membersPerTool.set(info.qualifiedName, (membersPerTool.get(info.qualifiedName) ?? new Set()).add(member.id));
  const taken = new Set<string>();
  const seen = new Set<string>();
  const out: InlineTool[] = [];
  for (const { member, info } of usable) {
    const key = `${member.id}\u0000${info.qualifiedName}`;
    if (seen.has(key) || out.length >= MAX_FUNCTIONS) continue;
    seen.add(key);
    const shared = (membersPerTool.get(info.qualifiedName)?.size ?? 0) > 1;
    const memberName = lookup.item(member)?.item.name ?? member.itemId;
    const label = member.role ? `[${memberName} – ${member.role}]` : `[${memberName}]`;
    out.push({
      name: unique(shared ? `${memberPrefix(member.id)}_${info.alias}` : info.alias, taken),
      description: `${label} ${info.description}`.slice(0, 4000),
      parameters: info.parameters,
      qualifiedName: info.qualifiedName,
      memberId: member.id,
      memberName,
      role: member.role,
    });
  }
  return out;
}
