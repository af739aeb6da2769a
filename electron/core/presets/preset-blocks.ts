// A preset's prompt blocks as Lumiverse keeps them: every block normalized to its full shape (its defaults, for any
// field left out or of the wrong kind; a select variable's placement binding kept; the sealed snapshot fields, which
// no input may set, dropped), categories derived from the `category` markers, and prompt variable values kept only
// for variables a block still defines.
import { randomUUID } from 'node:crypto';
import { BLOCK_POSITIONS, BLOCK_ROLES } from '../../../shared/spindle/prompt-block-fields';

export type PromptBlock = Record<string, unknown> & { id: string; name: string; marker: string | null; variables?: unknown[] };

const ROLES = new Set<string>(BLOCK_ROLES);
const POSITIONS = new Set<string>(BLOCK_POSITIONS);
const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** Lumiverse's normalizePromptBlock: the same defaults ("New Chat" for a nameless block is theirs too). */
export function normalizeBlock(input: Record<string, unknown>): PromptBlock {
  const marker = typeof input.marker === 'string' ? input.marker : null;
  const tags = strings(input.characterTagTrigger).map((t) => t.trim()).filter(Boolean);
  return {
    id: typeof input.id === 'string' && input.id.trim() ? input.id : randomUUID(),
    name: typeof input.name === 'string' && input.name.trim() ? input.name : 'New Chat',
    content: typeof input.content === 'string' ? input.content : '',
    role: ROLES.has(input.role as string) ? input.role : 'system',
    enabled: input.enabled !== undefined ? !!input.enabled : true,
    position: POSITIONS.has(input.position as string) ? input.position : 'pre_history',
    depth: typeof input.depth === 'number' && Number.isFinite(input.depth) ? input.depth : 0,
    marker,
    isLocked: input.isLocked !== undefined ? !!input.isLocked : false,
    color: typeof input.color === 'string' ? input.color : null,
    injectionTrigger: strings(input.injectionTrigger),
    ...(tags.length ? { characterTagTrigger: tags } : {}),
    group: typeof input.group === 'string' ? input.group : null,
    categoryMode: marker === 'category' && (input.categoryMode === 'radio' || input.categoryMode === 'checkbox') ? input.categoryMode : null,
    ...(Array.isArray(input.variables) ? { variables: input.variables } : {}),
    ...(placementBinding(input.placementBinding) ? { placementBinding: input.placementBinding } : {}),
  };
}

/** A select variable's placements, kept when it has Lumiverse's shape (a variable id and its options by id). */
function placementBinding(value: unknown): boolean {
  const v = value as { variableId?: unknown; options?: unknown } | null;
  return typeof v === 'object' && v !== null && typeof v.variableId === 'string' && v.variableId.trim() !== '' && typeof v.options === 'object' && v.options !== null && !Array.isArray(v.options);
}

export const normalizeBlocks = (blocks: readonly Record<string, unknown>[]) => blocks.map(normalizeBlock);

/** Groups of blocks under each category marker; blocks before the first marker are a group without one. */
export function categoryGroups(blocks: readonly PromptBlock[]): Array<{ categoryBlock: PromptBlock | null; children: PromptBlock[] }> {
  const groups: Array<{ categoryBlock: PromptBlock | null; children: PromptBlock[] }> = [];
  let current: (typeof groups)[number] = { categoryBlock: null, children: [] };
  for (const block of blocks) {
    if (block.marker === 'category') {
      if (current.categoryBlock || current.children.length) groups.push(current);
      current = { categoryBlock: block, children: [] };
    } else current.children.push(block);
  }
  if (current.categoryBlock || current.children.length) groups.push(current);
  return groups;
}

/** metadata.promptVariables without the values of variables no block defines any more (as Lumiverse's editor prunes). */
export function pruneVariableValues(blocks: readonly Record<string, unknown>[], metadata: Record<string, unknown>): Record<string, unknown> {
  const values = metadata.promptVariables;
  if (!values || typeof values !== 'object') return metadata;
  const defined = new Map<string, Set<string>>();
  for (const block of blocks) {
    const vars = Array.isArray(block.variables) ? block.variables : [];
    if (typeof block.id === 'string' && vars.length) defined.set(block.id, new Set(vars.map((v) => (v as { name?: unknown })?.name).filter((n): n is string => typeof n === 'string')));
  }
  const kept: Record<string, Record<string, unknown>> = {};
  for (const [blockId, bucket] of Object.entries(values as Record<string, unknown>)) {
    const names = defined.get(blockId);
    if (!names || !bucket || typeof bucket !== 'object') continue;
    const own = Object.fromEntries(Object.entries(bucket as Record<string, unknown>).filter(([name]) => names.has(name)));
    if (Object.keys(own).length) kept[blockId] = own;
  }
  return { ...metadata, promptVariables: kept };
}
