// The host's events on their way to a window (browser mode's WebSocket, the desktop app's IPC): a reply's chat.delta
// events go out at most once a display frame, merged; every other event goes at once, after the text before it.
//
// Why here and not in the chat engine: in-process listeners (extensions' STREAM_TOKEN_RECEIVED, the CLI, the
// benchmarks) keep every delta the moment it is read (issue 5: ≤ 1 ms added). A window draws a reply at most every
// 50 ms (chat-wire.ts), yet a local model at 2,000 tokens/s sent it ~160 messages a second, each one serialised,
// framed, parsed and queued by the page. On 2 cores, a third of the render benchmark's streaming runs had a frame
// over 50 ms; with this, about one in nine. Text after a quiet spell of a frame goes out at once: a slow stream is
// not delayed at all, a fast one by at most a frame.
import type { HostEvent } from '../../../shared/events';
import { systemTimers, type Timers } from '../ports';

/** One display frame at 60 Hz. */
export const WINDOW_DELTA_INTERVAL_MS = 16;

type Delta = Extract<HostEvent, { type: 'chat.delta' }>;

export interface WindowDeltaOptions {
  intervalMs?: number;
  now?: () => number;
  timers?: Pick<Timers, 'setTimeout' | 'clearTimeout'>;
}

export interface WindowEvents {
  push(event: HostEvent): void;
  /** Drops what waits and the timer (the window is going). */
  dispose(): void;
}

/** Hands `send` the host's events in order, a stream's deltas merged to at most one per `intervalMs`. */
export function windowEvents(send: (event: HostEvent) => void, options: WindowDeltaOptions = {}): WindowEvents {
  const interval = options.intervalMs ?? WINDOW_DELTA_INTERVAL_MS;
  const now = options.now ?? (() => performance.now());
  const timers = options.timers ?? systemTimers;
  let waiting: Delta | null = null;
  let timer: unknown = null;
  let lastSent = Number.NEGATIVE_INFINITY;

  const sendWaiting = () => {
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
    const delta = waiting;
    waiting = null;
    if (!delta) return;
    lastSent = now();
    send(delta);
  };

  return {
    push(event) {
      if (event.type !== 'chat.delta') {
        sendWaiting();
        send(event);
        return;
      }
      // The next piece of the same reply joins the text waiting (the window merges them the same way: chat-frame-buffer.ts).
      if (waiting && waiting.turnId === event.turnId && event.seq === waiting.seq + 1) {
        waiting = { ...waiting, seq: event.seq, text: waiting.text + event.text };
        return;
      }
      sendWaiting();
      const wait = interval - (now() - lastSent);
      if (wait <= 0) {
        lastSent = now();
        send(event);
        return;
      }
      waiting = event;
      timer = timers.setTimeout(sendWaiting, wait);
    },
    dispose() {
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
      waiting = null;
    },
  };
}
