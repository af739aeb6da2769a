// Where the open chat shows, as every running frontend hears it: the place of its stand-in of Lumiverse's ChatView
// (renderer/frame/chat-view.ts), where ambient extensions put their weather and light. Only the place: no text.
import { useEffect } from 'react';
import type { FrameBroker } from './frame-broker';
import { useFrontends } from './frontends-context';
import type { ChatViewPlace, FrontendsState } from './frontends-store';
import { watchLayout } from './layout-watch';

/** Tells the brokers where the chat shows now (a frame never told hears of it once there is a chat to show). */
export function tellChatView(brokers: Iterable<FrameBroker>, state: Pick<FrontendsState, 'chatView'>): void {
  for (const broker of brokers) {
    if (!broker.heard('chatView') && !state.chatView) continue;
    broker.notifyChanged('chatView', { place: state.chatView });
  }
}

/** The visible part of `chat` within the scroll area that holds it, in whole pixels (null: none of it shows). */
export function visibleChat(chat: Element, scroller: Element | null): ChatViewPlace | null {
  const a = chat.getBoundingClientRect();
  const b = scroller?.getBoundingClientRect() ?? a;
  const left = Math.max(a.left, b.left);
  const top = Math.max(a.top, b.top);
  const right = Math.min(a.right, b.right);
  const bottom = Math.min(a.bottom, b.bottom);
  if (right <= left || bottom <= top) return null;
  return { x: Math.ceil(left), y: Math.ceil(top), width: Math.floor(right - left), height: Math.floor(bottom - top) };
}

const same = (a: ChatViewPlace | null, b: ChatViewPlace | null) => a === b || (a !== null && b !== null && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height);

/** Keeps the store's chatView at the open chat's visible box while `chat` is shown; null once it goes. */
export function useChatViewPlace(chat: HTMLElement | null): void {
  const { store } = useFrontends();
  useEffect(() => {
    if (!chat) return;
    const scroller = chat.closest('#main');
    const publish = () => {
      const place = visibleChat(chat, scroller);
      if (!same(store.getState().chatView, place)) store.setState({ chatView: place });
    };
    publish();
    const stop = watchLayout([chat, scroller], publish);
    return () => {
      stop();
      store.setState({ chatView: null });
    };
  }, [chat, store]);
}
