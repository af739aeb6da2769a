// The message buttons that wait while a reply is written (edit, branch, delete, the swipes). A reply's start and end
// flip them all in one pass over the chat's elements, not by re-rendering every message's actions: in a long chat
// that was 200 components drawn at the moment the stream starts, taking frames from it. Each button's own render
// sets the same state from the store, so one drawn later (a message saved meanwhile) starts out right.
import { useLayoutEffect } from 'react';

const WAITS = 'data-waits-for-reply' satisfies keyof WaitingButton;
/** On a button that is unavailable for its own reason as well (the first or the last swipe). */
const UNAVAILABLE = 'data-unavailable' satisfies keyof WaitingButton;

interface WaitingButton {
  'data-waits-for-reply': '';
  'data-unavailable': '' | undefined;
  'aria-disabled': true | undefined;
}

/** The attributes of a button that waits while `replying`. */
export function waitingButton(replying: boolean, unavailable = false): WaitingButton {
  return { [WAITS]: '', [UNAVAILABLE]: unavailable ? '' : undefined, 'aria-disabled': replying || unavailable || undefined };
}

/** Keeps the waiting buttons inside `chat` in step with `replying`. */
export function useButtonsWaitForReply(chat: HTMLElement | null, replying: boolean): void {
  useLayoutEffect(() => {
    if (!chat) return;
    for (const button of chat.querySelectorAll<HTMLElement>(`[${WAITS}]`)) {
      if (replying || button.hasAttribute(UNAVAILABLE)) button.setAttribute('aria-disabled', 'true');
      else button.removeAttribute('aria-disabled');
    }
  }, [chat, replying]);
}
