// A reply's swipes: the alternatives regenerate adds, kept whole (text, tool calls, breakdown) and shown one at a time.
// The message's own fields are always the shown swipe's; `swipes` appears once there is a second.
import { HostFailure } from '../../../shared/errors';
import type { ChatMessage, ChatSwipe } from '../../../shared/types/chat';
import { ChatSwipeSchema, SESSION_LIMITS } from '../../../shared/types/chat';
import { withTextEdited } from './text-anchors';

/** A swipe's fields, from its schema: whatever a reply gains (its reasoning, an import's source) moves with it. */
const REPLY_KEYS = Object.keys(ChatSwipeSchema.properties) as Array<keyof ChatSwipe>;

/** The reply fields of a message (one swipe's worth). */
export function replyOf(message: ChatMessage | ChatSwipe): ChatSwipe {
  const out: Record<string, unknown> = {};
  for (const key of REPLY_KEYS) if (message[key] !== undefined) out[key] = message[key];
  return out as ChatSwipe;
}

/** The message's own fields, none of its reply's (its id, role, metadata, hidden flag, imported line…). */
export function messageOnly(message: ChatMessage): Omit<ChatMessage, keyof ChatSwipe> {
  const bare: Record<string, unknown> = { ...message };
  for (const key of REPLY_KEYS) delete bare[key];
  return bare as Omit<ChatMessage, keyof ChatSwipe>;
}

function withReply(message: ChatMessage, reply: ChatSwipe, swipes: ChatSwipe[], swipeId: number): ChatMessage {
  return { ...messageOnly(message), ...reply, swipes, swipeId };
}

export function swipeCount(message: ChatMessage): number {
  return message.swipes?.length ?? 1;
}

export function swipeIndex(message: ChatMessage): number {
  return message.swipes ? (message.swipeId ?? 0) : 0;
}

/** The message's swipes with the shown one as the message has it now (edits land on the message first). */
function currentSwipes(message: ChatMessage): ChatSwipe[] {
  const swipes = message.swipes ? [...message.swipes] : [replyOf(message)];
  swipes[swipeIndex(message)] = replyOf(message);
  return swipes;
}

/** A new reply becomes the last swipe of the message it regenerates, and the one shown. The oldest go past the cap. */
export function addSwipe(message: ChatMessage, reply: ChatMessage): ChatMessage {
  const swipes = [...currentSwipes(message), replyOf(reply)].slice(-SESSION_LIMITS.swipes);
  return withReply(message, swipes[swipes.length - 1]!, swipes, swipes.length - 1);
}

/** Shows another swipe; the index must exist. */
export function showSwipe(message: ChatMessage, index: number): ChatMessage {
  const swipes = currentSwipes(message);
  if (!Number.isInteger(index) || index < 0 || index >= swipes.length) {
    throw new HostFailure({ code: 'INVALID_INPUT', message: `The message has ${swipes.length} swipe${swipes.length === 1 ? '' : 's'}; there is no swipe ${index}.`, path: '/swipeId' });
  }
  return withReply(message, swipes[index]!, swipes, index);
}

/** What an imported reply's extra says of its old text (SillyTavern would show display_text instead of the edit). */
const ABOUT_THE_TEXT = ['display_text', 'token_count'];

function withoutStaleExtra(message: ChatMessage): ChatMessage {
  const extra = message.source?.extra;
  if (!extra || typeof extra !== 'object' || !ABOUT_THE_TEXT.some((key) => key in extra)) return message;
  const kept = Object.fromEntries(Object.entries(extra).filter(([key]) => !ABOUT_THE_TEXT.includes(key)));
  return { ...message, source: { ...message.source, extra: kept } };
}

/** New text for a message; with swipes, the shown swipe gets it too. */
export function editContent(message: ChatMessage, content: string): ChatMessage {
  const edited = withoutStaleExtra(withTextEdited(message, content));
  return message.swipes ? { ...edited, swipes: currentSwipes(edited) } : edited;
}

/**
 * The reply's alternatives as these texts (Lumiverse's `swipes`, replaced whole): one kept where it was keeps its
 * reasoning and time, one past the reply's count is new (made `now`), the ones past the texts go. Swipe `show` is shown
 * (by default the one shown now), so it must be among them (Lumiverse refuses too); none at all is refused.
 */
export function replaceSwipeTexts(message: ChatMessage, texts: string[], now: number, show = swipeIndex(message)): ChatMessage {
  const refuse = (code: 'INVALID_INPUT' | 'INPUT_TOO_LARGE', text: string, path = '/patch/swipes'): never => {
    throw new HostFailure({ code, message: text, path });
  };
  if (texts.length === 0) refuse('INVALID_INPUT', 'A message keeps at least one swipe.');
  if (texts.length > SESSION_LIMITS.swipes) refuse('INPUT_TOO_LARGE', `A message keeps at most ${SESSION_LIMITS.swipes} swipes; ${texts.length} were given.`);
  if (!Number.isInteger(show) || show < 0 || show >= texts.length) refuse('INVALID_INPUT', `Swipe ${show} would be shown and ${texts.length} swipe${texts.length === 1 ? ' was' : 's were'} given.`, '/patch/swipe_id');
  const current = currentSwipes(message);
  const swipes = texts.map((content, i): ChatSwipe => (current[i] ? { ...current[i], content } : { content, createdAt: now }));
  if (swipes.length === 1) {
    const { swipes: _swipes, swipeId: _swipeId, ...single } = withReply(message, swipes[0]!, swipes, 0);
    return single;
  }
  return withReply(message, swipes[show]!, swipes, show);
}

/** The shown reply's reasoning and its time (ms) set, or cleared by null; with swipes, the shown swipe gets them too. */
export function editReasoning(message: ChatMessage, change: { text?: string | null; duration?: number | null }): ChatMessage {
  const edited: ChatMessage = { ...message };
  if (change.text === null || change.text === '') delete edited.reasoning;
  else if (change.text !== undefined) edited.reasoning = change.text;
  if (change.duration === null) delete edited.reasoningMs;
  else if (change.duration !== undefined) edited.reasoningMs = change.duration;
  return message.swipes ? { ...edited, swipes: currentSwipes(edited) } : edited;
}
