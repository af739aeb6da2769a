// Inline mode: turns members' inline-callable tools into provider-safe function schemas and maps the model's calls back to registry tools.
import type { LlmToolDefinition } from '../../../shared/types/llm';
import type { ToolInfo } from '../../../shared/types/tools';
import type { InlineToolBinding } from './council-port';

export interface InlineFunction {
  /** The function name the model sees: the tool's alias, or `<member8>_<alias>` when one tool serves several members. */
  name: string;
  qualifiedName: string;
  memberId: string;
  memberName: string;
  role: string;
  definition: LlmToolDefinition;
}

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

/** Members' settings rows as the chat reads them when the council service does not list inline tools itself. */
export function bindingsFromSettings(council: unknown): InlineToolBinding[] {
  const members = (council as { members?: unknown } | undefined)?.members;
  if (!Array.isArray(members)) return [];
  const out: InlineToolBinding[] = [];
  for (const raw of members) {
    const m = raw as { id?: unknown; name?: unknown; itemId?: unknown; role?: unknown; tools?: unknown; enabled?: unknown };
    if (typeof m.id !== 'string' || !Array.isArray(m.tools) || m.enabled === false) continue;
    const memberName = typeof m.name === 'string' && m.name ? m.name : typeof m.itemId === 'string' && m.itemId ? m.itemId : m.id;
    for (const tool of m.tools) {
      if (typeof tool === 'string') out.push({ memberId: m.id, memberName, role: typeof m.role === 'string' ? m.role : '', qualifiedName: tool });
    }
  }
  return out;
}

/** The functions to offer: every member's available tool (prompt tools are not bound); one function per member when a tool serves several. */
export function inlineFunctions(bindings: InlineToolBinding[], lookup: (qualifiedName: string) => ToolInfo | undefined): InlineFunction[] {
  const usable = bindings.filter((b) => {
    const info = lookup(b.qualifiedName);
    // Seed 000: in inline mode a member's council tool goes to the main model as a function, whether or not it
    // sets inline_available (that flag offers a tool outside the council).
    return info !== undefined && info.status === 'available';
  });
  const membersPerTool = new Map<string, Set<string>>();
  for (const b of usable) {
    const set = membersPerTool.get(b.qualifiedName) ?? new Set<string>();
    set.add(b.memberId);
    membersPerTool.set(b.qualifiedName, set);
  }
  const taken = new Set<string>();
  const seen = new Set<string>();
  const out: InlineFunction[] = [];
  for (const b of usable) {
    const key = `${b.memberId}\u0000${b.qualifiedName}`;
    if (seen.has(key) || out.length >= MAX_FUNCTIONS) continue;
    seen.add(key);
    const info = lookup(b.qualifiedName)!;
    const shared = (membersPerTool.get(b.qualifiedName)?.size ?? 0) > 1;
    const name = unique(shared ? `${memberPrefix(b.memberId)}_${info.alias}` : info.alias, taken);
    const label = b.role ? `[${b.memberName} – ${b.role}]` : `[${b.memberName}]`;
    out.push({
      name,
      qualifiedName: info.qualifiedName,
      memberId: b.memberId,
      memberName: b.memberName,
      role: b.role,
      definition: { name, description: `${label} ${info.description}`.slice(0, 4000), parameters: info.parameters },
    });
  }
  return out;
}
