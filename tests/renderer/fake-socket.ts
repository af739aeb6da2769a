// A hand-driven WebSocket and timer queue for transport tests: the test decides when things open, arrive and expire.
import type { SocketLike, Timers } from '../../renderer/src/api/ws-transport';

export class FakeSocket implements SocketLike {
  readyState = 0;
  readonly sent: Array<{ kind: string; id: number; method: string; input: unknown }> = [];
  closedWith: { code?: number; reason?: string } | null = null;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    if (this.readyState !== 1) throw new Error('InvalidStateError: not open');
    this.sent.push(JSON.parse(data));
  }

  close(code?: number, reason?: string): void {
    this.closedWith = { code, reason };
    this.readyState = 3;
  }

  /** Server side: accept the connection. */
  accept(): void {
    this.readyState = 1;
    this.onopen?.({});
  }

  /** Server side: send a message (an object is JSON-encoded, a string goes as is). */
  deliver(message: unknown): void {
    this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) });
  }

  /** The connection ends (1006 = abnormal, what a refused or dropped connection looks like). */
  drop(code = 1006, reason = ''): void {
    this.readyState = 3;
    this.onerror?.({});
    this.onclose?.({ code, reason });
  }
}

export class FakeTimers implements Timers {
  now = 0;
  private seq = 0;
  private readonly queue = new Map<number, { at: number; fn: () => void; ms: number }>();

  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.queue.set(id, { at: this.now + ms, fn, ms });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.queue.delete(handle as number);
  }

  /** Delays of the timers still waiting, in scheduling order. */
  pendingDelays(): number[] {
    return [...this.queue.values()].map((t) => t.ms);
  }

  /** Moves time forward, firing due timers in order (including ones they schedule). */
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.queue) if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      this.queue.delete(next[0]);
      this.now = next[1].at;
      next[1].fn();
    }
    this.now = end;
  }
}

/** Lets queued promise callbacks run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}
