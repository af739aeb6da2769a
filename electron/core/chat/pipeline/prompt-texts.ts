// The texts of a prompt that macros expand in — the character, the persona, the card's prompts, world info and
// the history — taken out of a session as one, mapped, and put back into the parts a prompt is built from.
import type { ChatMessage, ChatSession } from '../../../../shared/types/chat';
import { cardPromptTexts, type CardPrompts } from '../prompt';
import type { TextOrigin } from './macros';

export interface PromptTexts {
  description: string;
  personality: string;
  scenario: string;
  persona: string;
  card: CardPrompts;
  worldInfo: string[];
  history: string[];
}

export function textsOf(session: ChatSession, history: ChatMessage[]): PromptTexts {
  const { character, persona, worldInfo } = session;
  return {
    description: character.description,
    personality: character.personality,
    scenario: character.scenario,
    persona: persona.description,
    card: cardPromptTexts(session),
    worldInfo: worldInfo.map((e) => e.content),
    history: history.map((m) => m.content),
  };
}

/** Where each of the card's texts comes from, as Lumiverse hints it to macro interceptors (`prompt_source:…`). */
const HINTS = ['character.description', 'character.personality', 'character.scenario', 'persona.description', 'character.system_prompt', 'character.mes_example', 'character.post_history_instructions'].map((field) => `prompt_source:${field}`);

/** Every text through `f`, side by side; the card's texts with the hint of where they come from, the history as chat text. */
export async function mapTexts(texts: PromptTexts, f: (text: string, origin: TextOrigin) => Promise<string>): Promise<PromptTexts> {
  const [description, personality, scenario, persona, systemPrompt, examples, postHistory] = await Promise.all(
    [texts.description, texts.personality, texts.scenario, texts.persona, texts.card.systemPrompt, texts.card.examples, texts.card.postHistory].map((text, i) => f(text, { hint: HINTS[i], chatText: false })),
  );
  const [worldInfo, history] = await Promise.all([Promise.all(texts.worldInfo.map((text) => f(text, { chatText: false }))), Promise.all(texts.history.map((text) => f(text, { chatText: true })))]);
  return { description: description!, personality: personality!, scenario: scenario!, persona: persona!, card: { systemPrompt: systemPrompt!, examples: examples!, postHistory: postHistory! }, worldInfo, history };
}

/** The session, history and card prompts with `texts` in place of their own. */
export function withTexts(session: ChatSession, history: ChatMessage[], texts: PromptTexts): { session: ChatSession; history: ChatMessage[]; card: CardPrompts } {
  return {
    session: {
      ...session,
      character: { ...session.character, description: texts.description, personality: texts.personality, scenario: texts.scenario },
      persona: { ...session.persona, description: texts.persona },
      worldInfo: session.worldInfo.map((entry, i) => ({ ...entry, content: texts.worldInfo[i]! })),
    },
    history: history.map((m, i) => ({ ...m, content: texts.history[i]! })),
    card: texts.card,
  };
}
