// Builds the main generation's prompt: the system prompt from character, persona, matching world info and the council's
// blocks, then the history — fitted to the context budget, with a report of its parts and the world-info activation log.
import type { ChatMessage, ChatSession, PromptReport, WorldInfoHit } from '../../../shared/types/chat';
import type { LlmMessage } from '../../../shared/types/llm';
import { cutHistory, estimateTokens, fitWorldInfo, promptBudget, type BudgetLimits } from './prompt-budget';
import { scanWorldInfo, type WorldInfoTrigger } from '../lore/world-info';

export interface PromptParts {
  session: ChatSession;
  /** The history to send, oldest first, ending with the user's message (or the reply a continue goes on from). */
  history: ChatMessage[];
  deliberationBlock?: string;
  referenceBlock?: string;
  /** The imported card's own prompt texts, macros resolved. */
  card?: CardPrompts;
  limits?: BudgetLimits;
  /** The history's texts world info scans for its keywords, when not the history's own (before regex scripts ran). */
  loreScan?: string[];
}

export interface CardPrompts {
  /** Replaces the opening line; {{original}} in it stands for that line. */
  systemPrompt: string;
  /** mes_example: sample dialogue showing the character's voice. */
  examples: string;
  postHistory: string;
}

/** The texts a character card carries for the prompt (kept verbatim in session.card.data at import). */
export function cardPromptTexts(session: ChatSession): CardPrompts {
  const data = session.card?.data ?? {};
  const text = (field: string) => (typeof data[field] === 'string' ? data[field] : '');
  return { systemPrompt: text('system_prompt'), examples: text('mes_example'), postHistory: text('post_history_instructions') };
}

const ORIGINAL = /\{\{original\}\}/gi;

type Part = keyof PromptReport['parts'];
interface Section {
  part: Part;
  text: string;
}

/** The system prompt's sections in order, each with the report part it counts toward; `lore` is the world info that fits. */
function systemSections({ session, deliberationBlock, referenceBlock, card }: PromptParts, lore: string[]): Section[] {
  const { character, persona } = session;
  const sections: Section[] = [];
  const add = (part: Part, text: string | undefined) => text && sections.push({ part, text });
  const intro = `You are ${character.name || 'the assistant'}. Stay in character and reply to ${persona.name || 'the user'}.`;
  add('system', card?.systemPrompt.trim() ? card.systemPrompt.replace(ORIGINAL, intro).trim() : intro);
  if (character.description.trim()) add('character', `## Character: ${character.name}\n${character.description.trim()}`);
  if (character.personality.trim()) add('character', `## Personality\n${character.personality.trim()}`);
  if (character.scenario.trim()) add('character', `## Scenario\n${character.scenario.trim()}`);
  if (persona.description.trim()) add('system', `## The user: ${persona.name}\n${persona.description.trim()}`);
  if (card?.examples.trim()) add('character', `## Example dialogue\n${card.examples.trim()}`);
  if (lore.length) add('worldInfo', `## World info\n${lore.join('\n\n')}`);
  add('deliberation', referenceBlock?.trim());
  add('deliberation', deliberationBlock?.trim());
  // SillyTavern sends these after the history as a system turn; Anthropic and Gemini refuse a system turn there,
  // so they close the system prompt instead, for every provider alike.
  const after = card?.postHistory.replace(ORIGINAL, '').trim();
  if (after) add('system', `## Instructions\n${after}`);
  return sections;
}

export function buildSystemPrompt(parts: PromptParts): string {
  return systemSections(parts, scanWorldInfo(parts.session.worldInfo, parts.history.map((m) => m.content)).map((x) => x.entry.content.trim())).map((s) => s.text).join('\n\n');
}

function hit(id: string, label: string, trigger: WorldInfoTrigger, history: ChatMessage[], included: boolean, tokens: number): WorldInfoHit {
  const at = trigger.kind === 'keyword' && trigger.message !== null ? { messageIndex: trigger.message, role: history[trigger.message]!.role } : {};
  return { id, label, trigger: trigger.kind, ...(trigger.kind === 'keyword' ? { keyword: trigger.keyword.slice(0, 1000) } : {}), ...at, included, tokens };
}

/** The world-info activation log of a prompt: each entry that fired, why, and whether it fit (`fits`, by the same index). */
export function worldInfoHits(fired: ReturnType<typeof scanWorldInfo>, fits: readonly boolean[], texts: readonly string[], history: ChatMessage[]): WorldInfoHit[] {
  const label = (e: (typeof fired)[number]['entry']) => (e.keywords[0] ?? e.content.trim().split('\n', 1)[0]!).slice(0, 120);
  return fired.map((x, i) => hit(x.entry.id, label(x.entry), x.trigger, history, fits[i]!, estimateTokens(texts[i]!)));
}

/** What a prompt kept: indices into its parts' history, and into the session's world info (in the order placed). */
export interface KeptParts {
  history: number[];
  worldInfo: number[];
}

/**
 * The history's messages the main prompt may send, each with its index: not a reply that wrote nothing, and not one an
 * extension hid (spindle.chat.setMessageHidden), which Lumiverse's assembly skips (SummaryPlus hides what it summarized).
 * The council's sidecar still reads them, as Lumiverse's council context does.
 */
export function sendableHistory(history: readonly ChatMessage[]): Array<readonly [ChatMessage, number]> {
  return history.map((m, i) => [m, i] as const).filter(([m]) => !m.hidden && !(m.role === 'assistant' && m.content === ''));
}

/** System prompt, then the conversation, fitted to the budget. Stopped or failed replies are sent as what was said. */
export function buildPrompt(parts: PromptParts): { messages: LlmMessage[]; report: PromptReport; kept: KeptParts } {
  const sendable = sendableHistory(parts.history);
  const history = sendable.map(([m]) => m);
  const budget = promptBudget(parts.limits ?? {});
  const fired = scanWorldInfo(parts.session.worldInfo, parts.loreScan ?? parts.history.map((m) => m.content));
  const loreTexts = fired.map((x) => x.entry.content.trim());
  const fits = fitWorldInfo(loreTexts.map(estimateTokens), budget);
  const sections = systemSections(parts, loreTexts.filter((_, i) => fits[i]));
  const tally: PromptReport['parts'] = { system: 0, character: 0, worldInfo: 0, deliberation: 0, history: 0 };
  for (const s of sections) tally[s.part] += estimateTokens(s.text);
  const fixed = tally.system + tally.character + tally.worldInfo + tally.deliberation;
  const { cut, tokens } = cutHistory(history, budget === undefined ? undefined : Math.max(0, budget - fixed));
  tally.history = tokens;
  const messages: LlmMessage[] = [{ role: 'system', content: sections.map((s) => s.text).join('\n\n') }];
  for (const message of history.slice(cut)) messages.push({ role: message.role, content: message.content });
  const place = new Map(parts.session.worldInfo.map((e, i) => [e, i]));
  const kept = { history: sendable.slice(cut).map(([, i]) => i), worldInfo: fired.filter((_, i) => fits[i]).map((x) => place.get(x.entry)!) };
  const report: PromptReport = {
    parts: tally,
    total: fixed + tokens,
    ...(budget !== undefined ? { budget, contextSize: parts.limits!.contextSize! } : {}),
    cutMessages: cut,
    worldInfo: worldInfoHits(fired, fits, loreTexts, parts.history),
  };
  return { messages, report, kept };
}

/** The prompt's messages alone (no budget). */
export function buildMessages(parts: PromptParts): LlmMessage[] {
  return buildPrompt(parts).messages;
}
