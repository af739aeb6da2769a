// A chat message as Lumiverse hands it to extensions (ChatMessageDTO): in spindle.chat.getMessages and in the
// MESSAGE_SENT / MESSAGE_EDITED / MESSAGE_SWIPED payloads. Times are in seconds, as Lumiverse stores them.

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
}

export interface MessageOwner {
  chatId: string;
  userName: string;
  characterName: string;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

export function messageDto(owner: MessageOwner, m: MessageView, index: number) {
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
    // Lumiverse keeps a message's hidden flag here (LumiBooks reads it to unhide what a deleted chapter hid).
    extra: m.hidden ? { hidden: true } : {},
    parent_message_id: null,
    branch_id: null,
    created_at: seconds(m.createdAt),
    role: m.role,
    metadata: m.metadata ?? {},
  };
}
