// Where a reply's tool cards sit after its text is edited. A card is anchored to an offset in the text; an edit moves
// the text around it, so each anchor is carried through the edit: text the edit kept before it and after it stays on
// its side. (Keeping the old offsets put a card inside a word the edit had shifted: "*Seraphina sm" [card] "iles…")
import type { ChatMessage } from '../../../shared/types/chat';

/** `offset` in `before` carried to `after`: through the unchanged start and end; one inside the change goes after it. */
export function carryOffset(before: string, after: string, offset: number): number {
  let prefix = 0;
  const max = Math.min(before.length, after.length);
  while (prefix < max && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < max - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
  if (offset <= prefix) return offset;
  if (offset >= before.length - suffix) return offset + (after.length - before.length);
  // Inside the text the edit replaced: after what replaced it, where the kept text resumes.
  return after.length - suffix;
}

/** The message with `content` as its text and its tool cards carried to where that text put them. */
export function withTextEdited(message: ChatMessage, content: string): ChatMessage {
  const calls = message.toolCalls;
  if (!calls?.some((c) => c.textOffset !== undefined)) return { ...message, content };
  return {
    ...message,
    content,
    toolCalls: calls.map((c) => (c.textOffset === undefined ? c : { ...c, textOffset: carryOffset(message.content, content, c.textOffset) })),
  };
}
