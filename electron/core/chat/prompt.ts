// Builds the main generation's prompt: the system prompt from character, persona, matching world info and the council's blocks, then the history.
import type { ChatMessage, ChatSession } from '../../../shared/types/chat';
import type { LlmMessage } from '../../../shared/types/llm';
import { activeWorldInfo } from './world-info';

export interface PromptParts {
  session: ChatSession;
  /** The history to send, oldest first, ending with the user's message. */
  history: ChatMessage[];
  deliberationBlock?: string;
  referenceBlock?: string;
  /** The imported card's own prompt texts, macros resolved. */
  card?: CardPrompts;
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

export function buildSystemPrompt({ session, history, deliberationBlock, referenceBlock, card }: PromptParts): string {
  const { character, persona } = session;
  const sections: string[] = [];
  const intro = `You are ${character.name || 'the assistant'}. Stay in character and reply to ${persona.name || 'the user'}.`;
  sections.push(card?.systemPrompt.trim() ? card.systemPrompt.replace(ORIGINAL, intro).trim() : intro);
  if (character.description.trim()) sections.push(`## Character: ${character.name}\n${character.description.trim()}`);
  if (character.personality.trim()) sections.push(`## Personality\n${character.personality.trim()}`);
  if (character.scenario.trim()) sections.push(`## Scenario\n${character.scenario.trim()}`);
  if (persona.description.trim()) sections.push(`## The user: ${persona.name}\n${persona.description.trim()}`);
  if (card?.examples.trim()) sections.push(`## Example dialogue\n${card.examples.trim()}`);
  // The deepest scan any entry asks for; each entry looks at its own depth.
  const lore = activeWorldInfo(session.worldInfo, history.map((m) => m.content));
  if (lore.length) sections.push(`## World info\n${lore.map((e) => e.content.trim()).join('\n\n')}`);
  if (referenceBlock?.trim()) sections.push(referenceBlock.trim());
  if (deliberationBlock?.trim()) sections.push(deliberationBlock.trim());
  // SillyTavern sends these after the history as a system turn; Anthropic and Gemini refuse a system turn there,
  // so they close the system prompt instead, for every provider alike.
  const after = card?.postHistory.replace(ORIGINAL, '').trim();
  if (after) sections.push(`## Instructions\n${after}`);
  return sections.join('\n\n');
}

/** System prompt, then the conversation. Stopped or failed replies are sent as what was said. */
export function buildMessages(parts: PromptParts): LlmMessage[] {
  const messages: LlmMessage[] = [{ role: 'system', content: buildSystemPrompt(parts) }];
  for (const message of parts.history) {
    if (message.role === 'assistant' && message.content === '') continue;
    messages.push({ role: message.role, content: message.content });
  }
  return messages;
}
