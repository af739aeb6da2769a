// The message buttons that wait while a reply is written (edit, branch, delete, the swipes). A reply's start and end
// flip them all in one pass over the chat's elements, not by re-rendering every message's actions: in a long chat
// that was 200 components drawn at the moment the stream starts, taking frames from it. `aria-disabled` is written
// here only, never by React (two writers would disagree: React rewrites an attribute only when its own value changes).
import { useLayoutEffect, type RefObject } from 'react';

const WAITS = 'data-waits-for-reply' satisfies keyof WaitingButton;
/** On a button that is unavailable for its own reason as well (the first or the last swipe). */
const UNAVAILABLE = 'data-unavailable' satisfies keyof WaitingButton;

interface WaitingButton {
  'data-waits-for-reply': '';
  'data-unavailable': '' | undefined;
}

/** The attributes of a button that waits while a reply is written (and, when `unavailable`, also after). */
export function waitingButton(unavailable = false): WaitingButton {
  return { 'data-waits-for-reply': '', 'data-unavailable': unavailable ? '' : undefined };
}

function applyWait(root: ParentNode, replying: boolean): void {
  for (const button of root.querySelectorAll<HTMLElement>(`[${WAITS}]`)) {
    if (replying || button.hasAttribute(UNAVAILABLE)) button.setAttribute('aria-disabled', 'true');
    else button.removeAttribute('aria-disabled');
  }
}

/** Keeps the waiting buttons inside `chat` in step with `replying` as a reply starts and ends. */
export function useButtonsWaitForReply(chat: HTMLElement | null, replying: boolean): void {
  useLayoutEffect(() => {
    if (chat) applyWait(chat, replying);
  }, [chat, replying]);
}

/** One message's buttons after each of its own renders (drawn during a reply, or a swipe that reached an end). */
export function useOwnButtonsWait(actions: RefObject<HTMLElement | null>, replying: boolean): void {
  useLayoutEffect(() => {
    if (actions.current) applyWait(actions.current, replying);
  });
}
