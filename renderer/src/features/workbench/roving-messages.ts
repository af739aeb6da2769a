// The message list as one stop in the Tab order (roving focus): the current message is focusable and its own controls
// stay in the Tab order; every other message, and its controls, is reached with the arrow keys instead. Without this a
// long chat costs one Tab per control of every message before the message box.
import { useEffect, useRef } from 'react';

const MESSAGE = '[data-testid="message"]';
const FOCUSABLE = 'a[href], button, input, select, textarea, iframe, summary, [tabindex]';
/** Where a control's own tabindex is kept while its message is not the current one ('' = it had none). */
const SAVED = 'data-roving-tabindex';

/** A message's place in the virtualized list (ChatView's slot); `data-index` is its row in the list. */
const SLOT = '.chat__slot';

/** The messages drawn, in order (a virtualized list draws those near the view). */
function messages(chat: HTMLElement): HTMLElement[] {
  return [...chat.querySelectorAll<HTMLElement>(`${SLOT} > ${MESSAGE}`)];
}

/** Brings the list's first or last row into view; answers that row's message id. */
export type ReachEdge = (edge: 'first' | 'last') => string | undefined;

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

export function useRovingMessages(chat: HTMLElement | null, reach: ReachEdge): void {
  const reachRef = useRef(reach);
  reachRef.current = reach;
  useEffect(() => {
    if (!chat) return;
    // The current message: the newest until the person moves (then theirs, while it exists).
    let current: HTMLElement | null = null;
    let chosen = false;
    /** Messages are the list's rows; anything else (a dry-run preview) is left alone. */
    const isMessage = (el: Element | null): el is HTMLElement => el instanceof HTMLElement && el.matches(MESSAGE) && el.parentElement?.matches(SLOT) === true && chat.contains(el);
    /** Home or End asked for a row not drawn yet: focus goes to it once the list draws it. */
    let awaited: string | null = null;
    /** Focus is in the chat (a message or its controls) — kept when the list takes its message away. */
    let holding = false;
    const rowAt = (id: string) => messages(chat).find((m) => m.dataset.messageId === id) ?? null;
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
      awaited = null;
      if (event.key === 'Home' || event.key === 'End') {
        const id = reachRef.current(event.key === 'Home' ? 'first' : 'last');
        const row = id === undefined ? null : rowAt(id);
        // Not drawn yet: focus stays until the list draws it (moving it now would scroll the view back).
        if (id !== undefined && !row) awaited = id;
        else moveTo(row ?? moves[event.key] ?? target);
        return;
      }
      moveTo(moves[event.key] ?? target);
    };
    // Focus that lands in a message some other way (a click, a search) makes it the current one.
    const onFocusIn = (event: FocusEvent) => {
      holding = true;
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
      // A removed current message (deleted, or scrolled out of the drawn range) hands the Tab stop on; focus it held
      // goes with it to the message taking its place, not to the page.
      const lost = holding && current !== null && !current.isConnected && (document.activeElement === document.body || document.activeElement === null);
      if (touched.size > 0 || !isMessage(current)) apply(touched);
      const reached = awaited === null || !holding ? null : rowAt(awaited);
      if (reached) {
        awaited = null;
        moveTo(reached);
      } else if (lost && current) current.focus({ preventScroll: true });
    });
    apply(messages(chat));
    chat.addEventListener('keydown', onKeyDown);
    chat.addEventListener('focusin', onFocusIn);
    // Focus leaving the chat (for another control, or for nothing: a click on the page) lets go of it; focus lost
    // because its message left the document (the list scrolled it away) does not.
    const onFocusOut = (event: FocusEvent) => {
      const from = event.target as Node;
      queueMicrotask(() => {
        if (from.isConnected && !chat.contains(document.activeElement)) {
          holding = false;
          awaited = null;
        }
      });
    };
    chat.addEventListener('focusout', onFocusOut);
    observer.observe(chat, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      chat.removeEventListener('keydown', onKeyDown);
      chat.removeEventListener('focusin', onFocusIn);
      chat.removeEventListener('focusout', onFocusOut);
    };
  }, [chat]);
}
