// A parsed character card → a new Workbench session: the character, the chosen greeting as the first reply, the
// embedded book as the session's world info, and the rest of the card kept verbatim for export.
import { randomUUID } from 'node:crypto';
import { HostFailure } from '../../../shared/errors';
import { SESSION_LIMITS, type ChatSession } from '../../../shared/types/chat';
import type { SessionStore } from '../chat/session-store';
import { parseCardJson, type ParsedCard } from './character-card';
import type { ParsedLorebook } from './lorebook';
import { mergeWorldInfo } from './world-info-merge';

export interface CardImportResult {
  session: ChatSession;
  greetings: number;
  worldInfoEntries: number;
  /** Lorebook entries that repeat the card's own book (or an earlier lorebook): kept once. */
  duplicates: number;
}

export function sessionFromCard(sessions: SessionStore, card: ParsedCard, options: { greeting?: number; now: number; lorebooks?: ParsedLorebook[] }): CardImportResult {
  const index = options.greeting ?? 0;
  if (card.greetings.length > 0 && (index < 0 || index >= card.greetings.length)) {
    throw new HostFailure({ code: 'INVALID_INPUT', message: `The card has ${card.greetings.length} greetings; choose 0 to ${card.greetings.length - 1}.`, path: '/greeting' });
  }
  // The card's own book is often imported beside it as a file too: each entry is kept once.
  const { entries: worldInfo, duplicates } = mergeWorldInfo(card.book?.entries ?? [], ...(options.lorebooks ?? []).map((book) => book.entries));
  if (worldInfo.length > SESSION_LIMITS.worldInfoEntries) {
    throw new HostFailure({ code: 'INPUT_TOO_LARGE', message: `The card and lorebooks hold ${worldInfo.length} world-info entries; a session keeps at most ${SESSION_LIMITS.worldInfoEntries}.`, path: '/lorebook' });
  }
  const created = sessions.create({
    title: card.name.slice(0, 200),
    character: { name: card.name, description: card.description, personality: card.personality, scenario: card.scenario },
    worldInfo,
  });
  const greeting = card.greetings[index];
  const session = sessions.mutate(created.id, (s) => {
    if (greeting) s.messages.push({ id: randomUUID(), role: 'assistant', content: greeting, createdAt: options.now });
    s.card = { spec: card.spec, data: card.data, ...(Object.keys(card.top).length ? { top: card.top } : {}) };
    // Which greeting opened the chat, where Lumiverse's greeting picker keeps it (Stagecoach reads it), numbered as it
    // numbers them: the card's first_mes, then its alternates, blanks counted.
    if (greeting) s.metadata = { ...s.metadata, activeGreetingIndex: greetingSlots(card.data)[index] ?? index };
    const book = options.lorebooks?.[0];
    if (book) s.worldInfoBook = book.top;
    s.titleSet = true;
  });
  return { session, greetings: card.greetings.length, worldInfoEntries: worldInfo.length, duplicates };
}

/** A session of a character's fields (spindle.characters.create), made as a card of them is imported: checked, its first_mes the first reply, the rest kept for export. */
export function sessionFromCharacterFields(sessions: SessionStore, fields: Record<string, unknown>, now: number): ChatSession {
  return sessionFromCard(sessions, parseCardJson({ spec: 'chara_card_v2', spec_version: '2.0', data: fields }), { now }).session;
}

/** Where each greeting the card offers (its non-blank ones, in order) sits among first_mes and the alternates. */
function greetingSlots(data: Record<string, unknown>): number[] {
  const all = [data.first_mes, ...(Array.isArray(data.alternate_greetings) ? data.alternate_greetings : [])];
  return all.flatMap((g, i) => (typeof g === 'string' && g.trim() !== '' ? [i] : []));
}
