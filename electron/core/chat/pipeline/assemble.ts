// Prompt assembly: macros resolved in the character, persona, world info and messages, then the system prompt
// and history built from them. The council's blocks are added after resolution (tool output is never expanded),
// unless the card placed the deliberation itself with {{lumiaCouncilDeliberation}}.
import type { ChatMessage, ChatSession, PromptReport } from '../../../../shared/types/chat';
import type { LlmMessage } from '../../../../shared/types/llm';
import { buildPrompt, cardPromptTexts } from '../prompt';
import type { BudgetLimits } from '../prompt-budget';
import { MacroResolver } from './macros';
import { macroDefinitions, type MacroSources } from './macro-catalog';

export interface AssembleInput extends Omit<MacroSources, 'deliberation'> {
  deliberationBlock?: string;
  referenceBlock?: string;
  limits?: BudgetLimits;
}

export interface Assembled {
  messages: LlmMessage[];
  report: PromptReport;
  /** Names of the macros that resolved, and what went wrong with the rest. */
  macrosUsed: string[];
  notes: string[];
}

export async function assemblePrompt(input: AssembleInput): Promise<Assembled> {
  const resolver = new MacroResolver(macroDefinitions({ ...input, deliberation: input.deliberationBlock ?? '' }));
  const { session, history } = input;
  const resolve = (text: string) => resolver.resolve(text);
  const cardTexts = cardPromptTexts(session);
  const [description, personality, scenario, personaDescription, systemPrompt, examples, postHistory] = await Promise.all([
    resolve(session.character.description),
    resolve(session.character.personality),
    resolve(session.character.scenario),
    resolve(session.persona.description),
    resolve(cardTexts.systemPrompt),
    resolve(cardTexts.examples),
    resolve(cardTexts.postHistory),
  ]);
  const worldInfo = await Promise.all(session.worldInfo.map(async (entry) => ({ ...entry, content: await resolve(entry.content) })));
  const resolvedHistory: ChatMessage[] = await Promise.all(history.map(async (m) => ({ ...m, content: await resolve(m.content) })));
  const resolved: ChatSession = {
    ...session,
    character: { ...session.character, description, personality, scenario },
    persona: { ...session.persona, description: personaDescription },
    worldInfo,
  };
  const placed = resolver.used.has('lumiacouncildeliberation');
  const { messages, report } = buildPrompt({
    session: resolved,
    history: resolvedHistory,
    card: { systemPrompt, examples, postHistory },
    ...(input.deliberationBlock && !placed ? { deliberationBlock: input.deliberationBlock } : {}),
    ...(input.referenceBlock ? { referenceBlock: input.referenceBlock } : {}),
    ...(input.limits ? { limits: input.limits } : {}),
  });
  return { messages, report, macrosUsed: [...resolver.used], notes: [...resolver.notes] };
}
