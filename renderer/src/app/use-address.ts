// Keeps the address in step with the window: the section and open session write it (a new history entry, so back and
// forward move between places), and an address read at start, or reached by back/forward, takes the window there.
import { useEffect } from 'react';
import { openAtMessage } from '../stores/chat/chat-commands';
import type { AppStore } from '../stores/app/app-store';
import type { HostConnection } from '../api/connection';
import { addressOf, placeOf, type Place } from './address';

export function useAddress(store: AppStore, host: HostConnection): void {
  useEffect(() => {
    // Taking the window to an address changes the store; those changes are the address's own, not new places.
    let arriving = false;
    const go = (place: Place) => {
      arriving = true;
      try {
        if (place.sessionId) void openAtMessage(store, host, place.sessionId, place.messageId ?? null);
        store.getState().sectionSelected(place.section);
      } finally {
        arriving = false;
      }
    };
    const start = placeOf(location.hash);
    if (start) go(start);
    const current = (): Place => {
      const { section, chat } = store.getState();
      return section === 'workbench' && chat.openId ? { section, sessionId: chat.openId } : { section };
    };
    const unsubscribe = store.subscribe((state, previous) => {
      if (arriving) return;
      // A message asked for (a search result, a reload at its address) is a place: its address names it.
      const asked = state.chat.focusMessageId;
      if (asked && asked !== previous.chat.focusMessageId && state.chat.openId) {
        const address = addressOf({ section: 'workbench', sessionId: state.chat.openId, messageId: asked });
        if (location.hash !== address) history.pushState(history.state, '', address);
        return;
      }
      if (state.section === previous.section && state.chat.openId === previous.chat.openId) return;
      const here = placeOf(location.hash);
      const next = current();
      // A message's address stays while its session is the open one.
      if (here && here.section === next.section && here.sessionId === next.sessionId) return;
      const address = addressOf(next);
      // The Workbench opening its newest session by itself is no place of its own: it takes the entry it was shown in.
      const opened = previous.chat.openId === null && state.section === previous.section;
      if (opened || !location.hash.startsWith('#/')) history.replaceState(history.state, '', address);
      else history.pushState(history.state, '', address);
    });
    const onPop = () => {
      const place = placeOf(location.hash);
      if (place) go(place);
    };
    window.addEventListener('popstate', onPop);
    return () => {
      unsubscribe();
      window.removeEventListener('popstate', onPop);
    };
  }, [store, host]);
}
