// A session back to a character card (V2 or V3 JSON): the session's character, its first reply as first_mes, its
// world info as character_book, and every field the imported card had (extensions included) as it was.
import type { ChatSession, WorldInfoEntry } from '../../../shared/types/chat';
import { solidPng, withPngTextChunks } from './png-text';

const LOGIC_NUMBER = { and_any: 0, not_all: 1, not_any: 2, and_all: 3 } as const;

function bookEntry(entry: WorldInfoEntry, index: number): Record<string, unknown> {
  return {
    ...(entry.extra ?? {}),
    id: index,
    keys: entry.keywords,
    secondary_keys: entry.secondaryKeywords ?? [],
    content: entry.content,
    enabled: entry.enabled,
    constant: entry.constant === true,
    selective: (entry.secondaryKeywords?.length ?? 0) > 0,
    ...(entry.selectiveLogic ? { extensions: { ...((entry.extra?.extensions as object | undefined) ?? {}), selectiveLogic: LOGIC_NUMBER[entry.selectiveLogic] } } : {}),
    insertion_order: entry.order ?? 100,
    ...(entry.caseSensitive !== undefined ? { case_sensitive: entry.caseSensitive } : {}),
  };
}

export function toCard(session: ChatSession, version: 'v2' | 'v3'): Record<string, unknown> {
  const kept = session.card?.data ?? {};
  const firstReply = session.messages.find((m) => m.role === 'assistant')?.content;
  const data: Record<string, unknown> = {
    ...kept,
    name: session.character.name,
    description: session.character.description,
    personality: session.character.personality,
    scenario: session.character.scenario,
    first_mes: typeof kept.first_mes === 'string' ? kept.first_mes : (firstReply ?? ''),
    alternate_greetings: Array.isArray(kept.alternate_greetings) ? kept.alternate_greetings : [],
    extensions: typeof kept.extensions === 'object' && kept.extensions !== null ? kept.extensions : {},
  };
  for (const field of ['mes_example', 'creator_notes', 'system_prompt', 'post_history_instructions', 'creator', 'character_version'] as const) data[field] ??= '';
  data.tags ??= [];
  if (session.worldInfo.length) data.character_book = { ...((kept.character_book as object | undefined) ?? {}), entries: session.worldInfo.map(bookEntry) };
  else delete data.character_book;
  if (version === 'v3') data.group_only_greetings ??= [];
  return version === 'v2' ? { spec: 'chara_card_v2', spec_version: '2.0', data } : { spec: 'chara_card_v3', spec_version: '3.0', data };
}

/** A PNG card: the session's picture (or a plain square) with the card as base64 JSON in `chara`; V3 adds `ccv3` and keeps a V2 `chara` for older readers. */
export function toCardPng(session: ChatSession, version: 'v2' | 'v3', picture: Buffer | null): Buffer {
  const b64 = (card: Record<string, unknown>) => Buffer.from(JSON.stringify(card), 'utf8').toString('base64');
  const chunks: Record<string, string> = { chara: b64(toCard(session, 'v2')), ...(version === 'v3' ? { ccv3: b64(toCard(session, 'v3')) } : {}) };
  return withPngTextChunks(picture ?? solidPng(256, [0x5b, 0x4b, 0x8a]), chunks, ['chara', 'ccv3']);
}
