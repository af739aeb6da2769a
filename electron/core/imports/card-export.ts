// A session back to a character card (V2 or V3 JSON): the session's character, its first reply as first_mes, its
// world info as character_book, and every field the imported card had — in `data` and outside it — as it was.
import type { ChatSession } from '../../../shared/types/chat';
import { solidPng, withPngTextChunks } from './png-text';
import { isRecord } from '../lore/world-info-shapes';
import { toCharacterBook } from './world-info-export';

/** The V1 fields SillyTavern also writes at a V2 card's top: where the card had them, they follow the edited data. */
const V1_COPIES = ['name', 'description', 'personality', 'scenario', 'first_mes', 'mes_example'] as const;

export function toCard(session: ChatSession, version: 'v2' | 'v3'): Record<string, unknown> {
  const kept = session.card?.data ?? {};
  const firstReply = session.messages.find((m) => m.role === 'assistant')?.content;
  const data: Record<string, unknown> = { ...kept };
  // Edited text is written; unedited text stays as the card had it (a null stays null).
  for (const field of ['name', 'description', 'personality', 'scenario'] as const) {
    const had = typeof kept[field] === 'string' ? kept[field] : '';
    if (session.character[field] !== had || !(field in kept)) data[field] = session.character[field];
  }
  // What the spec requires and the card lacked is added; what it had stays, null included.
  if (!('first_mes' in data)) data.first_mes = firstReply ?? '';
  if (!('alternate_greetings' in data)) data.alternate_greetings = [];
  if (!('extensions' in data)) data.extensions = {};
  for (const field of ['mes_example', 'creator_notes', 'system_prompt', 'post_history_instructions', 'creator', 'character_version'] as const) if (!(field in data)) data[field] = '';
  if (!('tags' in data)) data.tags = [];
  // A book the card had stays (its own fields, with the entries left); a null stays null.
  if (session.worldInfo.length || isRecord(kept.character_book)) data.character_book = toCharacterBook(session);
  if (version === 'v3' && !('group_only_greetings' in data)) data.group_only_greetings = [];
  const top: Record<string, unknown> = { ...(session.card?.top ?? {}) };
  for (const field of V1_COPIES) if (field in top) top[field] = data[field];
  const spec = version === 'v2' ? { spec: 'chara_card_v2', spec_version: '2.0' } : { spec: 'chara_card_v3', spec_version: '3.0' };
  return { ...top, ...spec, data };
}

/** A PNG card: the session's picture (or a plain square) with the card as base64 JSON in `chara`; V3 adds `ccv3` and keeps a V2 `chara` for older readers. */
export function toCardPng(session: ChatSession, version: 'v2' | 'v3', picture: Buffer | null): Buffer {
  const b64 = (card: Record<string, unknown>) => Buffer.from(JSON.stringify(card), 'utf8').toString('base64');
  const chunks: Record<string, string> = { chara: b64(toCard(session, 'v2')), ...(version === 'v3' ? { ccv3: b64(toCard(session, 'v3')) } : {}) };
  return withPngTextChunks(picture ?? solidPng(256, [0x5b, 0x4b, 0x8a]), chunks, ['chara', 'ccv3']);
}
