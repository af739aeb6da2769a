// What each council tool is told: the member snapshot (seed 000 CouncilMemberContext) and the chat context, structured and flattened.
import { activeWorldInfo } from '../lore/world-info';
import type { CouncilChat, CouncilMember, CouncilToolsSettings, LumiaItem } from '../../../shared/types/council';
import type { CouncilMemberContext, LlmMessageDTO } from '../../../shared/types/spindle';

export interface ResolvedItem {
  packName: string;
  item: LumiaItem;
  avatarUrl: string | null;
}

/** Built host-side from the settings row and the backing Lumia item; never from tool arguments. */
export function buildMemberContext(member: CouncilMember, resolved: ResolvedItem | null): CouncilMemberContext {
  return {
    memberId: member.id,
    itemId: member.itemId,
    packId: member.packId,
    packName: resolved?.packName ?? '',
    name: resolved?.item.name ?? member.itemId,
    role: member.role,
    chance: member.chance,
    avatarUrl: resolved?.avatarUrl ?? null,
    definition: resolved?.item.definition ?? '',
    personality: resolved?.item.personality ?? '',
    behavior: resolved?.item.behavior ?? '',
    genderIdentity: resolved?.item.genderIdentity ?? 3,
  };
}

export interface CouncilContext {
  messages: LlmMessageDTO[];
  /** The same content as one string: args.context (seed 000). */
  flat: string;
}

/**
 * System messages for the character, the persona and the world-info entries that apply (constant
 * entries, or a keyword found in the windowed chat), then the last `sidecarContextWindow` chat
 * messages — without the latest user message when excludeLatestUserMessage is on.
 */
export function buildCouncilContext(chat: CouncilChat, settings: CouncilToolsSettings): CouncilContext {
  let history = chat.messages.map((m) => ({ ...m }));
  if (settings.excludeLatestUserMessage) {
    for (let i = history.length - 1; i >= 0; i--) {
      if (history[i]!.role === 'user') {
        history = [...history.slice(0, i), ...history.slice(i + 1)];
        break;
      }
    }
  }
  const window = settings.sidecarContextWindow <= 0 ? [] : history.slice(-settings.sidecarContextWindow);

  const messages: LlmMessageDTO[] = [];
  const sections: string[] = [];
  const character = chat.character;
  if (settings.includeCharacterInfo && character) {
    const parts = [`Character: ${character.name}`];
    if (character.description) parts.push(`Description: ${character.description}`);
    if (character.personality) parts.push(`Personality: ${character.personality}`);
    if (character.scenario) parts.push(`Scenario: ${character.scenario}`);
    messages.push({ role: 'system', content: parts.join('\n'), name: 'character_info' });
    sections.push(`## Character\n${parts.join('\n')}`);
  }
  const persona = chat.persona;
  if (settings.includeUserPersona && persona) {
    const text = `User persona: ${persona.name}${persona.description ? `\n${persona.description}` : ''}`;
    messages.push({ role: 'system', content: text, name: 'user_persona' });
    sections.push(`## User Persona\n${text}`);
  }
  if (settings.includeWorldInfo && chat.worldInfo?.length) {
    // The chat's own activation rules (one home: chat/world-info.ts), over the windowed chat.
    const entries = activeWorldInfo(
      chat.worldInfo.map((e, i) => ({ id: String(i), enabled: true, ...e })),
      window.map((m) => m.content),
    );
    if (entries.length) {
      const text = entries.map((e) => e.content).join('\n\n');
      messages.push({ role: 'system', content: `World information:\n${text}`, name: 'world_info' });
      sections.push(`## World Information\n${text}`);
    }
  }
  for (const m of window) messages.push(m.name ? { role: m.role, content: m.content, name: m.name } : { role: m.role, content: m.content });
  if (window.length) {
    const speaker = (m: LlmMessageDTO) => m.name ?? (m.role === 'user' ? persona?.name ?? 'User' : m.role === 'assistant' ? character?.name ?? 'Assistant' : 'System');
    sections.push(`## Recent Messages\n${window.map((m) => `${speaker(m)}: ${m.content}`).join('\n\n')}`);
  }
  return { messages, flat: sections.join('\n\n') };
}
