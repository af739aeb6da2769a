// How the conversation moves in the main scroll area: it stays at the bottom while it was there, and a message asked
// for (a search result) is brought into the list, marked and focused.
import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import type { VirtuosoHandle } from 'react-virtuoso';
import { useAppStoreApi } from '../../app/context';

/** Keys that scroll the view up (outside a text field). */
const UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);

/**
 * Keeps the main scroll area at the bottom while it already was there (new text pushes it along; scrolling up
 * stops that). Everything happens in a ResizeObserver callback, which runs after layout: whether the view was at
 * the bottom of the chat's previous height is read there, and the new position written, with nothing laid out
 * twice in a frame (a scroll listener reading scrollHeight would force a layout while a reply streams). Growth
 * above (an older page put before the first message, which the list keeps in place itself) is not "the bottom":
 * the chat names its first message, and a change of it is such a page. The virtualized list changes height as it
 * draws rows during a scroll: a person scrolling up (wheel, touch, keys, the scroll bar) has left the bottom even
 * while still near it, until they scroll back to it.
 */
export function useStickToBottom(chat: HTMLElement | null, turnId: string | undefined) {
  const left = useRef(false);
  /**
   * Where a started turn put the view, while it holds it at the end: in a long chat the list knows its height only for
   * the rows it has drawn, so the jump lands on an estimate and the rows drawn there move the end away. Until the view
   * is moved up by anything else (the person, a search, a script), each change of height takes it to the end again,
   * however far that went.
   */
  const holding = useRef<number | null>(null);
  // A turn the person starts (a message sent, a reply asked again) goes to the bottom and holds there, as in any chat.
  useEffect(() => {
    const main = document.getElementById('main');
    if (!main || !turnId) return;
    left.current = false;
    main.scrollTop = main.scrollHeight;
    holding.current = main.scrollTop;
  }, [turnId]);
  useEffect(() => {
    const main = document.getElementById('main');
    if (!main || !chat || typeof ResizeObserver === 'undefined') return;
    main.scrollTop = main.scrollHeight;
    left.current = false;
    holding.current = null;
    let height = main.scrollHeight;
    let first = chat.dataset.firstMessage;
    const observer = new ResizeObserver(() => {
      const before = first;
      first = chat.dataset.firstMessage;
      const distance = height - main.scrollTop - main.clientHeight;
      height = main.scrollHeight;
      if (holding.current !== null && main.scrollTop < holding.current - 2) holding.current = null;
      if (before === first && !left.current && (distance < 80 || holding.current !== null)) {
        main.scrollTop = height;
        if (holding.current !== null) holding.current = main.scrollTop;
      }
    });
    const leave = () => void (left.current = true);
    // Back at the bottom, it holds again (read only after leaving it: a streamed reply's own scrolls read nothing).
    const onScroll = () => {
      if (left.current && main.scrollHeight - main.scrollTop - main.clientHeight < 2) left.current = false;
    };
    main.addEventListener('scroll', onScroll, { passive: true });
    const onWheel = (event: WheelEvent) => event.deltaY < 0 && leave();
    const onKey = (event: KeyboardEvent) => UP_KEYS.has(event.key) && !(event.target as HTMLElement).closest('textarea, input, [contenteditable]') && leave();
    // The scroll bar: a press on the scroll area itself, not on anything in it.
    const onPointer = (event: PointerEvent) => event.target === main && leave();
    main.addEventListener('wheel', onWheel, { passive: true });
    main.addEventListener('touchmove', leave, { passive: true });
    main.addEventListener('keydown', onKey);
    main.addEventListener('pointerdown', onPointer);
    observer.observe(chat);
    return () => {
      observer.disconnect();
      main.removeEventListener('scroll', onScroll);
      main.removeEventListener('wheel', onWheel);
      main.removeEventListener('touchmove', leave);
      main.removeEventListener('keydown', onKey);
      main.removeEventListener('pointerdown', onPointer);
    };
  }, [chat]);
}

/** The message `id` where the chat draws it (undefined: not drawn). */
const drawn = (chat: HTMLElement, id: string) => [...chat.querySelectorAll<HTMLElement>('[data-message-id]')].find((el) => el.dataset.messageId === id);

/**
 * The first message at least partly in view, and how far its top is below the view's top (negative: above it).
 * With none drawn in view (the list has not drawn what a jump brought there yet) it is the list's first row, which
 * starts where the list does.
 */
function topInView(first: string): { id: string; offset: number } | null {
  const main = document.getElementById('main');
  const chat = main?.querySelector<HTMLElement>('[data-testid="chat"]');
  if (!main || !chat) return null;
  const top = main.getBoundingClientRect().top;
  const bottom = top + main.clientHeight;
  for (const message of chat.querySelectorAll<HTMLElement>('[data-message-id]')) {
    const box = message.getBoundingClientRect();
    if (box.bottom > top && box.top < bottom) return { id: message.dataset.messageId!, offset: box.top - top };
  }
  const list = chat.querySelector('[data-testid="virtuoso-item-list"]');
  return list ? { id: first, offset: list.getBoundingClientRect().top - top } : null;
}

/**
 * Rows put above the ones shown (an older page) leave what is on screen where it was. The list shifts the view by
 * its estimate of the new rows' heights, and the rows it then draws and measures near the view move it again: the
 * message at the top of the view is noted before the rows change (while rendering, the document still shows them)
 * and held in place for the frames the list takes to settle, unless the person scrolls meanwhile.
 */
export function useKeepInView(list: RefObject<VirtuosoHandle | null>, ids: string[], jumping: boolean) {
  const seen = useRef(ids);
  const anchor = useRef<{ id: string; offset: number } | null>(null);
  if (seen.current !== ids) {
    const first = seen.current[0];
    // Rows that came with a jump to a message (a search result) go where that message is, not where the view was.
    if (!jumping && first !== undefined && ids.indexOf(first) > 0) anchor.current = topInView(first);
    seen.current = ids;
  }
  useLayoutEffect(() => {
    const kept = anchor.current;
    anchor.current = null;
    const main = document.getElementById('main');
    if (!kept || !main) return;
    let frames = 0;
    let still = 0;
    let frame = 0;
    const pin = () => {
      const chat = main.querySelector<HTMLElement>('[data-testid="chat"]');
      const message = chat ? drawn(chat, kept.id) : undefined;
      if (!message) list.current?.scrollToIndex({ index: ids.indexOf(kept.id), align: 'start', offset: -kept.offset });
      const moved = message ? message.getBoundingClientRect().top - main.getBoundingClientRect().top - kept.offset : Infinity;
      if (Math.abs(moved) >= 1) {
        if (message) main.scrollTop += moved;
        still = 0;
      } else still += 1;
      // Settled (three frames without a move) or given up after half a second.
      if (++frames < 30 && still < 3) frame = requestAnimationFrame(pin);
    };
    const stop = () => cancelAnimationFrame(frame);
    pin();
    main.addEventListener('wheel', stop, { passive: true, once: true });
    main.addEventListener('touchmove', stop, { passive: true, once: true });
    main.addEventListener('keydown', stop, { once: true });
    return () => {
      stop();
      main.removeEventListener('wheel', stop);
      main.removeEventListener('touchmove', stop);
      main.removeEventListener('keydown', stop);
    };
  }, [ids, list]);
}

/**
 * A message someone asked to see (a search result): the list scrolls to it, then, drawn, it is marked and focused.
 * `drawnAt` changes whenever the list draws other messages, so a message out of the drawn range is looked for again.
 */
export function useFocusRequested(chat: HTMLElement | null, wanted: string | null, list: RefObject<VirtuosoHandle | null>, ids: string[], drawnAt: unknown, mark: (id: string) => void) {
  const store = useAppStoreApi();
  useEffect(() => {
    if (!chat || !wanted) return;
    const target = drawn(chat, wanted);
    if (!target) {
      const index = ids.indexOf(wanted);
      if (index >= 0) list.current?.scrollToIndex({ index, align: 'center' });
      return;
    }
    // Marked until another is asked for: the person sees which message the search found, wherever focus goes next.
    mark(wanted);
    // A message just drawn may not have its roving tabindex yet (it comes in a microtask), and an article without
    // one takes no focus; focused, it becomes the current message.
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus({ preventScroll: true });
    target.scrollIntoView?.({ block: 'center' });
    store.getState().chatMessageFocusRequested(null);
  }, [chat, wanted, ids, list, drawnAt, mark, store]);
}
