// Wires the chat slice to the host outside React: turn events through the frame buffer, session-list changes, and a resync on every (re)connect.
import type { HostConnection } from '../../api/connection';
import type { AppStore } from '../app/app-store';
import { loadOpenSession, loadSessions } from './chat-commands';
import { ChatFrameBuffer, type FrameScheduler } from './chat-frame-buffer';
import { resyncOnConnect } from '../app/on-connect';

/** Runs a refresh at most once at a time; a request while one runs schedules exactly one more. */
function coalesced(run: () => Promise<unknown>): () => void {
  let running = false;
  let again = false;
  const go = () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    void run().finally(() => {
      running = false;
      if (again) {
        again = false;
        go();
      }
    });
  };
  return go;
}

export function wireChat(store: AppStore, host: HostConnection, scheduler?: FrameScheduler): () => void {
  // Text at most every 50 ms (3 frames): a 200-message chat on 2 cores then keeps 60 fps while a reply streams.
  const buffer = new ChatFrameBuffer((events) => store.getState().chatTurnEventsApplied(events), scheduler, { minTextIntervalMs: 50 });
  const refreshList = coalesced(() => loadSessions(store, host));
  const openRefreshers = new Map<string, () => void>();
  const refreshOpen = (id: string) => {
    let go = openRefreshers.get(id);
    if (!go) {
      go = coalesced(() => loadOpenSession(store, host, id));
      openRefreshers.set(id, go);
    }
    go();
  };

  const offEvents = host.onEvent((event) => {
    switch (event.type) {
      case 'chat.delta':
      case 'chat.reasoning':
      case 'chat.toolCall':
      case 'chat.council':
      case 'chat.error':
        buffer.push(event);
        return;
      case 'chat.finished':
        buffer.push(event);
        // The list's busy flag clears only once the turn has ended on the host.
        refreshList();
        return;
      case 'chat.sessions.changed': {
        const state = store.getState();
        if (event.change === 'deleted') {
          state.chatSessionGone(event.sessionId);
        } else if (state.chat.openId === event.sessionId) {
          refreshOpen(event.sessionId);
        }
        refreshList();
        return;
      }
      default:
        return;
    }
  });

  const resync = async () => {
    // Whatever was waiting belongs to before the gap; apply it before reading the host's truth.
    buffer.flush();
    const list = await loadSessions(store, host);
    const state = store.getState();
    if (list.ok) {
      // A turn whose end we missed while disconnected: the host is no longer running it.
      for (const summary of list.value) {
        const turn = Object.prototype.hasOwnProperty.call(state.chat.turns, summary.id) ? state.chat.turns[summary.id] : undefined;
        if (turn?.status === 'streaming' && !summary.busy) state.chatTurnInterrupted(summary.id);
      }
    }
    const openId = store.getState().chat.openId;
    if (openId !== null) await loadOpenSession(store, host, openId);
  };

  const offInfo = resyncOnConnect(host, resync);

  return () => {
    offEvents();
    offInfo();
    buffer.dispose();
  };
}
