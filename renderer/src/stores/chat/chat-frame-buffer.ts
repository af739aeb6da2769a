// Holds chat turn events outside React and the store, and hands them over once per animation frame: one store update, one render.
//
// Token streams arrive as many small chat.delta events. Applying each one to the store would
// re-render the chat per token; instead events wait here (consecutive deltas merged as they
// arrive, so the queue stays short even while the page is hidden and frames are paused) and the
// whole batch goes to the store in one update on the next frame, in arrival order.
import type { ChatTurnEvent } from './chat-turns';

export interface FrameScheduler {
  /** `time`: the frame's time (requestAnimationFrame's timestamp, in performance.now()'s terms). */
  request(callback: (time: number) => void): unknown;
  cancel(handle: unknown): void;
}

/** requestAnimationFrame when there is one (looked up per call, so tests can stub it), else a 16 ms timer. */
export const animationFrames: FrameScheduler = {
  request(callback) {
    if (typeof globalThis.requestAnimationFrame === 'function') return { frame: globalThis.requestAnimationFrame((time) => callback(time)) };
    return { timer: setTimeout(() => callback(performance.now()), 16) };
  },
  cancel(handle) {
    const h = handle as { frame?: number; timer?: ReturnType<typeof setTimeout> };
    if (h.frame !== undefined && typeof globalThis.cancelAnimationFrame === 'function') globalThis.cancelAnimationFrame(h.frame);
    if (h.timer !== undefined) clearTimeout(h.timer);
  },
};

export interface FrameBufferOptions {
  /**
   * While only text is waiting, it is drawn at most this often (ms); any other event goes at the next frame with the
   * text before it. Drawing a growing reply costs a frame most of its budget on a small machine: text at ~20 Hz
   * leaves the frames between free, so scrolling and typing stay at the display's rate. Measured in frame time.
   * Default 0 (every frame).
   */
  minTextIntervalMs?: number;
}

export class ChatFrameBuffer {
  private queue: ChatTurnEvent[] = [];
  private handle: unknown = null;
  private lastApplied = Number.NEGATIVE_INFINITY;
  private readonly minTextInterval: number;
  /** The last delta seq taken per turn: a repeated delta is dropped here, before it could be merged with a new one. */
  private readonly seqs = new Map<string, number>();

  constructor(
    private readonly apply: (events: readonly ChatTurnEvent[]) => void,
    private readonly scheduler: FrameScheduler = animationFrames,
    options: FrameBufferOptions = {},
  ) {
    this.minTextInterval = options.minTextIntervalMs ?? 0;
  }

  get pending(): number {
    return this.queue.length;
  }

  push(event: ChatTurnEvent): void {
    if (event.type === 'chat.delta') {
      const seen = this.seqs.get(event.turnId);
      if (seen !== undefined && event.seq <= seen) return;
      this.seqs.delete(event.turnId);
      this.seqs.set(event.turnId, event.seq);
      // Only recent turns matter; the oldest entry goes first (Map keeps insertion order).
      if (this.seqs.size > 32) this.seqs.delete(this.seqs.keys().next().value!);
    }
    const last = this.queue[this.queue.length - 1];
    if (event.type === 'chat.delta' && last?.type === 'chat.delta' && last.turnId === event.turnId && event.seq === last.seq + 1) {
      this.queue[this.queue.length - 1] = { ...last, seq: event.seq, text: last.text + event.text };
    } else if (event.type === 'chat.reasoning' && last?.type === 'chat.reasoning' && last.turnId === event.turnId) {
      this.queue[this.queue.length - 1] = { ...last, text: last.text + event.text };
    } else {
      this.queue.push(event);
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.handle !== null) return;
    this.handle = this.scheduler.request((time) => {
      this.handle = null;
      const onlyText = this.queue.every((event) => event.type === 'chat.delta' || event.type === 'chat.reasoning');
      if (onlyText && time - this.lastApplied < this.minTextInterval) return this.schedule();
      this.lastApplied = time;
      this.flush();
    });
  }

  /** Applies everything waiting now (and cancels the scheduled frame). */
  flush(): void {
    if (this.handle !== null) {
      this.scheduler.cancel(this.handle);
      this.handle = null;
    }
    if (this.queue.length === 0) return;
    const events = this.queue;
    this.queue = [];
    this.apply(events);
  }

  dispose(): void {
    if (this.handle !== null) this.scheduler.cancel(this.handle);
    this.handle = null;
    this.queue = [];
  }
}
