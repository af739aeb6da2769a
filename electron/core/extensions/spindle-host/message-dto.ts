// A chat message as Lumiverse hands it to extensions (ChatMessageDTO): its wire shape in the MESSAGE_SENT /
// MESSAGE_EDITED / MESSAGE_SWIPED payloads (extensions' metadata under extra.spindle_metadata, no role), and in
// spindle.chat.getMessages that shape plus its normalized `role` and `metadata`. An extension that tells a reply by
// `role` in an event never sees one there, as in Lumiverse. Times are in seconds, as Lumiverse stores them.

export interface MessageView {
  id: string;
  role: 'user' | 'assistant' | 'system';
  content: string;
  createdAt: number;
  /** Every alternative's text and time, and the shown one's index (absent: the message is its only swipe). */
  swipes?: Array<{ content: string; createdAt: number }>;
  swipeId?: number;
  metadata?: Record<string, unknown>;
  hidden?: boolean;
  /** The shown reply's reasoning and its time in ms (Lumiverse's extra.reasoning, extra.reasoningDuration). */
  reasoning?: string;
  reasoningMs?: number;
  /** Its extra: what an import kept (SillyTavern's api, token_count…), then what processors added (chat-reads.ts). */
  extra?: Record<string, unknown>;
}

export interface MessageOwner {
  chatId: string;
  userName: string;
  characterName: string;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * Lumiverse's free-form bag: what an import kept there, the hidden flag (LumiBooks reads it to unhide what a deleted
 * chapter hid) and the reasoning, which it keeps there too. Extensions' own metadata is `metadata`, as Lumiverse splits it.
 */
const HOST_OWNED = new Set(['spindle_metadata', 'hidden', 'reasoning', 'reasoningDuration']);

function extraOf(m: MessageView): Record<string, unknown> {
  const kept = Object.fromEntries(Object.entries(m.extra ?? {}).filter(([key]) => !HOST_OWNED.has(key)));
  return {
    ...kept,
    ...(m.hidden ? { hidden: true } : {}),
    ...(m.reasoning ? { reasoning: m.reasoning } : {}),
    ...(m.reasoningMs !== undefined ? { reasoningDuration: m.reasoningMs } : {}),
    ...(m.metadata && Object.keys(m.metadata).length ? { spindle_metadata: m.metadata } : {}),
  };
}

/** The message as Lumiverse's events carry it. */
export function messageWire(owner: MessageOwner, m: MessageView, index: number) {
  const swipes = m.swipes ?? [{ content: m.content, createdAt: m.createdAt }];
  return {
    id: m.id,
    chat_id: owner.chatId,
    index_in_chat: index,
    is_user: m.role === 'user',
    name: m.role === 'user' ? owner.userName : owner.characterName,
    content: m.content,
    send_date: seconds(m.createdAt),
    swipe_id: m.swipes ? (m.swipeId ?? 0) : 0,
    swipes: swipes.map((s) => s.content),
    swipe_dates: swipes.map((s) => seconds(s.createdAt)),
    extra: extraOf(m),
    parent_message_id: null,
    branch_id: null,
    created_at: seconds(m.createdAt),
  };
}

/** The message as spindle.chat.getMessages answers it: the wire shape with its normalized role and metadata (which Lumiverse then leaves out of extra). */
export function messageDto(owner: MessageOwner, m: MessageView, index: number) {
  const wire = messageWire(owner, m, index);
  const { spindle_metadata: _normalized, ...extra } = wire.extra;
  return { ...wire, extra, role: m.role, metadata: m.metadata ?? {} };
}
