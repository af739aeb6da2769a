// The message list as one stop in the Tab order (roving focus): the current message is focusable and its own controls
// stay in the Tab order; every other message, and its controls, is reached with the arrow keys instead. Without this a
// long chat costs one Tab per control of every message before the message box.
import { useEffect } from 'react';

const MESSAGE = '[data-testid="message"]';
const FOCUSABLE = 'a[href], button, input, select, textarea, iframe, summary, [tabindex]';
/** Where a control's own tabindex is kept while its message is not the current one ('' = it had none). */
const SAVED = 'data-roving-tabindex';

function messages(chat: HTMLElement): HTMLElement[] {
  return [...chat.querySelectorAll<HTMLElement>(`:scope > ${MESSAGE}`)];
}

/** Takes the controls of `message` out of the Tab order, or puts them back. */
function setControls(message: HTMLElement, reachable: boolean): void {
  for (const el of message.querySelectorAll<HTMLElement>(FOCUSABLE)) {
    if (reachable) {
      const saved = el.getAttribute(SAVED);
      if (saved === null) continue;
      if (saved === '') el.removeAttribute('tabindex');
      else el.setAttribute('tabindex', saved);
      el.removeAttribute(SAVED);
    } else if (!el.hasAttribute(SAVED) && el.getAttribute('tabindex') !== '-1') {
      el.setAttribute(SAVED, el.getAttribute('tabindex') ?? '');
      el.setAttribute('tabindex', '-1');
    }
  }
}

export function useRovingMessages(chat: HTMLElement | null): void {
  useEffect(() => {
    if (!chat) return;
    // The current message: the newest until the person moves (then theirs, while it exists).
    let current: HTMLElement | null = null;
    let chosen = false;
    /** Message elements are the chat's own children; anything else (a dry-run preview) is left alone. */
    const isMessage = (el: Element | null): el is HTMLElement => el instanceof HTMLElement && el.parentElement === chat && el.matches(MESSAGE);
    const mark = (message: HTMLElement) => {
      // Written only when it changes: rewriting 200 messages' tabindex restyles them all for nothing. (The
      // attribute, not the property: a div without one reads -1 and is not focusable.)
      const tabIndex = message === current ? '0' : '-1';
      if (message.getAttribute('tabindex') !== tabIndex) message.setAttribute('tabindex', tabIndex);
      setControls(message, message === current);
    };
    /**
     * Brings `touched` messages in line, and the current one and the one it replaces. Only these: going through every
     * message's controls at each new message cost a long chat ~15 ms when a reply started and again when it ended.
     */
    const apply = (touched: Iterable<HTMLElement>) => {
      const dirty = new Set(touched);
      if (current) dirty.add(current);
      if (!chosen || !isMessage(current)) {
        current = messages(chat).at(-1) ?? null;
        if (current) dirty.add(current);
      }
      for (const message of dirty) if (isMessage(message)) mark(message);
    };
    /** The person moved to `message` (arrow keys, a click, a search). */
    const choose = (message: HTMLElement) => {
      const previous = current;
      current = message;
      chosen = true;
      apply(previous ? [previous] : []);
    };
    const moveTo = (message: HTMLElement | undefined) => {
      if (!message) return;
      choose(message);
      message.focus();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (!target.matches(MESSAGE) || event.altKey || event.ctrlKey || event.metaKey) return;
      const all = messages(chat);
      const at = all.indexOf(target);
      const moves: Record<string, HTMLElement | undefined> = { ArrowDown: all[at + 1], ArrowUp: all[at - 1], Home: all[0], End: all[all.length - 1] };
      if (!(event.key in moves)) return;
      event.preventDefault();
      moveTo(moves[event.key] ?? target);
    };
    // Focus that lands in a message some other way (a click, a search) makes it the current one.
    const onFocusIn = (event: FocusEvent) => {
      const message = (event.target as HTMLElement).closest<HTMLElement>(MESSAGE);
      if (!isMessage(message) || message === current) return;
      choose(message);
    };
    // New messages and controls (a card, an opened deliberation) and a removed current message; not streamed text.
    const observer = new MutationObserver((records) => {
      const touched = new Set<HTMLElement>();
      for (const record of records) {
        for (const node of record.addedNodes) {
          // Streamed text adds paragraphs: only messages and controls matter.
          if (!(node instanceof HTMLElement) || !(node.matches(`${MESSAGE}, ${FOCUSABLE}`) || node.querySelector(`${MESSAGE}, ${FOCUSABLE}`) !== null)) continue;
          const message = node.closest<HTMLElement>(MESSAGE);
          if (message) touched.add(message);
          else for (const inner of node.querySelectorAll<HTMLElement>(MESSAGE)) touched.add(inner);
        }
      }
      // A removed current message (deleted) hands the Tab stop on.
      if (touched.size > 0 || !isMessage(current)) apply(touched);
    });
    apply(messages(chat));
    chat.addEventListener('keydown', onKeyDown);
    chat.addEventListener('focusin', onFocusIn);
    observer.observe(chat, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      chat.removeEventListener('keydown', onKeyDown);
      chat.removeEventListener('focusin', onFocusIn);
    };
  }, [chat]);
}
