// A turn's prompt built from a Lumiverse preset's blocks, as Lumiverse's assemblePrompt walks them: blocks in their
// order (one that belongs after the history but sits before it moves after, and the reverse), each enabled block that
// its trigger lets in becoming a message of its role; markers standing for the chat's parts (the history, the world
// info that fired, the card's fields); blocks placed in the history at their depth; `*_append` blocks joined to the
// last message of their role. World info without a marker goes just before the history, the council's deliberation
// there too, the card's post-history instructions after it. The history is cut to what the rest leaves of the budget.
// Texts come in with their macros already resolved (the caller's); nothing here runs a macro.
import type { ChatMessage, ChatSession, PromptReport } from '../../../shared/types/chat';
import type { LlmMessage } from '../../../shared/types/llm';
import { cutHistory, estimateTokens, fitWorldInfo, promptBudget, type BudgetLimits } from './prompt-budget';
import { sendableHistory, worldInfoHits, type CardPrompts, type KeptParts } from './prompt';
import { scanWorldInfo } from '../lore/world-info';
import type { PromptBlock } from '../presets/preset-blocks';

export interface PresetPromptInput {
  /** The preset's blocks, normalized (preset-blocks.ts). */
  blocks: readonly PromptBlock[];
  /** Each block's content with its macros resolved, by block id. */
  contents: ReadonlyMap<string, string>;
  session: ChatSession;
  history: ChatMessage[];
  card: CardPrompts;
  generationType: string;
  deliberationBlock?: string;
  referenceBlock?: string;
  limits?: BudgetLimits;
  loreScan?: string[];
  /** The preset's Start Reply With, macros resolved: the prompt's last message, the assistant's. */
  prefill?: string;
}

type Role = 'system' | 'user' | 'assistant';
/** A message of the prompt and what it counts toward; `history` is its index in the input's history. */
type Piece = { role: Role; content: string; part: keyof PromptReport['parts']; history?: number };

/** Markers that stand for a field of the chat (Lumiverse's structural markers and the macros they mean). */
const FIELD_MARKERS: Record<string, (input: PresetPromptInput) => string> = {
  char_description: (i) => i.session.character.description,
  char_personality: (i) => i.session.character.personality,
  persona_description: (i) => i.session.persona.description,
  scenario: (i) => i.session.character.scenario,
  dialogue_examples: (i) => i.card.examples,
};
const HISTORY = 'chat_history';
const LORE_MARKERS = new Set(['world_info_before', 'world_info_after']);

const isAppend = (block: PromptBlock) => String(block.role).endsWith('_append');
const roleOf = (block: PromptBlock): Role => String(block.role).replace('_append', '') as Role;
const position = (block: PromptBlock) => String(block.position ?? 'pre_history');

/** In a radio category only its first enabled child stays on (Lumiverse's normalization). */
function radioNormalized(blocks: readonly PromptBlock[]): PromptBlock[] {
  const out: PromptBlock[] = [];
  let radio = false;
  let chosen = false;
  for (const block of blocks) {
    if (block.marker === 'category') {
      radio = block.categoryMode === 'radio';
      chosen = false;
      out.push(block);
      continue;
    }
    if (radio && block.enabled) {
      out.push(chosen ? { ...block, enabled: false } : block);
      chosen = true;
    } else out.push(block);
  }
  return out;
}

/** Lumiverse's reorderBlocksByPosition: non-marker blocks on the wrong side of the history move to its side. */
function reordered(blocks: PromptBlock[]): PromptBlock[] {
  const at = blocks.findIndex((b) => b.marker === HISTORY);
  if (at < 0) return blocks;
  const before = blocks.slice(0, at);
  const after = blocks.slice(at + 1);
  // Markers and append blocks stay where they are.
  const movable = (b: PromptBlock) => !b.marker && !isAppend(b);
  const late = (b: PromptBlock) => movable(b) && position(b) !== 'pre_history';
  const early = (b: PromptBlock) => movable(b) && position(b) === 'pre_history';
  return [...before.filter((b) => !late(b)), ...after.filter(early), blocks[at]!, ...before.filter(late), ...after.filter((b) => !early(b))];
}

/** Where a block `depth` messages from the end of the history goes, counting the history's own messages only. */
function historyInsertion(pieces: Piece[], depth: number): number {
  const at = pieces.flatMap((p, i) => (p.history !== undefined ? [i] : []));
  if (at.length === 0) return pieces.length;
  const offset = Math.max(0, at.length - depth);
  return offset >= at.length ? at.at(-1)! + 1 : at[offset]!;
}

export function buildPresetPrompt(input: PresetPromptInput): { messages: LlmMessage[]; report: PromptReport; kept: KeptParts; sources: Array<number | null> } {
  const tags = new Set((Array.isArray(input.session.card?.data?.tags) ? (input.session.card!.data.tags as unknown[]) : []).map((t) => String(t).toLowerCase()));
  const lets = (b: PromptBlock) => {
    const triggers = Array.isArray(b.injectionTrigger) ? (b.injectionTrigger as string[]) : [];
    const tagged = Array.isArray(b.characterTagTrigger) ? (b.characterTagTrigger as string[]) : [];
    return b.enabled !== false && (triggers.length === 0 || triggers.includes(input.generationType)) && (tagged.length === 0 || tagged.some((t) => tags.has(t.toLowerCase())));
  };
  const blocks = reordered(radioNormalized(input.blocks)).filter(lets);
  const text = (b: PromptBlock) => (input.contents.get(b.id) ?? String(b.content ?? '')).trim();

  // World info: what fires, within its share of the budget.
  const budget = promptBudget(input.limits ?? {});
  const fired = scanWorldInfo(input.session.worldInfo, input.loreScan ?? input.history.map((m) => m.content));
  const loreTexts = fired.map((x) => x.entry.content.trim());
  const fits = fitWorldInfo(loreTexts.map(estimateTokens), budget);
  const lore = loreTexts.filter((_, i) => fits[i]);

  const sendable = sendableHistory(input.history);
  const council = [input.referenceBlock?.trim(), input.deliberationBlock?.trim()].filter((t): t is string => !!t);
  const hasLoreMarker = blocks.some((b) => b.marker && LORE_MARKERS.has(b.marker));
  const hasHistory = blocks.some((b) => b.marker === HISTORY);

  // The sequence, the history a placeholder in it until the budget says how much of it goes.
  const sequence: Array<Piece | 'history'> = [];
  const inHistory: Array<{ depth: number; piece: Piece }> = [];
  const appends: Array<{ role: Role; depth: number; content: string }> = [];
  const depthOf = (b: PromptBlock) => Math.max(0, Math.floor(Number(b.depth) || 0));
  const beforeHistory = () => {
    if (!hasLoreMarker) for (const content of lore) sequence.push({ role: 'system', content, part: 'worldInfo' });
    for (const content of council) sequence.push({ role: 'system', content, part: 'deliberation' });
  };
  for (const block of blocks) {
    const role = roleOf(block);
    if (block.marker === HISTORY) {
      beforeHistory();
      sequence.push('history');
      continue;
    }
    if (block.marker && LORE_MARKERS.has(block.marker)) {
      // The Workbench's entries have no position: all of them go where "before" is.
      if (block.marker === 'world_info_before' || !blocks.some((b) => b.marker === 'world_info_before')) for (const content of lore) sequence.push({ role, content, part: 'worldInfo' });
      continue;
    }
    // An append keeps its whitespace (a lone newline between appends is meant).
    if (isAppend(block)) {
      const raw = input.contents.get(block.id) ?? String(block.content ?? '');
      if (raw) appends.push({ role, depth: depthOf(block), content: raw });
      continue;
    }
    const field = block.marker ? FIELD_MARKERS[block.marker] : undefined;
    const content = field ? field(input).trim() : text(block);
    if (!content) continue;
    const piece: Piece = { role, content, part: field ? 'character' : 'system' };
    if (!block.marker && position(block) === 'in_history') inHistory.push({ depth: depthOf(block), piece });
    else sequence.push(piece);
  }
  if (!hasHistory) {
    beforeHistory();
    sequence.push('history');
  }
  // The card's post-history instructions close the prompt, as in Lumiverse.
  const post = input.card.postHistory.trim();
  if (post) sequence.push({ role: 'system', content: post, part: 'system' });
  // Then the preset's Start Reply With, the assistant's (what the reply goes on from), within the budget.
  if (input.prefill) sequence.push({ role: 'assistant', content: input.prefill, part: 'system' });

  // The budget: the history gets what the rest leaves (its newest message always stays).
  const fixed = [...sequence, ...inHistory.map((x) => x.piece), ...appends].reduce((n, p) => n + (p === 'history' ? 0 : estimateTokens(p.content)), 0);
  const history = sendable.map(([m]) => m);
  const { cut, tokens } = cutHistory(history, budget === undefined ? undefined : Math.max(0, budget - fixed));
  const keptHistory = sendable.slice(cut);
  const pieces = sequence.flatMap((p): Piece[] => (p === 'history' ? keptHistory.map(([m, i]) => ({ role: m.role, content: m.content, part: 'history', history: i })) : [p]));
  // In-history blocks at their depth among the history's own messages, the last first, as Lumiverse's
  // insertBlocksIntoTaggedHistory does (blocks at one depth keep their order at depth 0 and come out reversed above it).
  for (const { depth, piece } of [...inHistory].reverse()) pieces.splice(historyInsertion(pieces, depth), 0, piece);
  // Appends join the history message of their role at their depth from the newest, those at one place together;
  // with no such message they are left out (Lumiverse's applyAppendGroup).
  const groups = new Map<string, { role: Role; depth: number; content: string }>();
  let landed = 0;
  for (const a of appends) {
    const key = `${a.role}:${a.depth}`;
    const group = groups.get(key);
    if (group) group.content += a.content;
    else groups.set(key, { ...a });
  }
  for (const { role, depth, content } of groups.values()) {
    const target = pieces.filter((p) => p.role === role && p.history !== undefined).at(-1 - depth);
    if (!target) continue;
    target.content = `${target.content}\n${content}`;
    landed += estimateTokens(content);
  }
  const tally: PromptReport['parts'] = { system: 0, character: 0, worldInfo: 0, deliberation: 0, history: 0 };
  for (const p of pieces) tally[p.part] += p.part === 'history' ? 0 : estimateTokens(p.content);
  tally.history = tokens;
  // What appends added to history messages counts as the preset's own text.
  tally.system += landed;
  const place = new Map(input.session.worldInfo.map((e, i) => [e, i]));
  return {
    messages: pieces.map((p) => ({ role: p.role, content: p.content })),
    sources: pieces.map((p) => p.history ?? null),
    kept: { history: keptHistory.map(([, i]) => i), worldInfo: fired.filter((_, i) => fits[i]).map((x) => place.get(x.entry)!) },
    report: {
      parts: tally,
      total: Object.values(tally).reduce((a, b) => a + b, 0),
      ...(budget !== undefined ? { budget, contextSize: input.limits!.contextSize! } : {}),
      cutMessages: cut,
      worldInfo: worldInfoHits(fired, fits, loreTexts, input.history),
    },
  };
}
