// A fake clock that also drives timers and intervals, for core services that take Clock and Timers ports.
import type { Clock, Timers } from '../../electron/core/ports';

interface Due {
  at: number;
  callback: () => void;
  /** Intervals re-arm after they fire. */
  every?: number;
}

export class FakeClock implements Clock, Timers {
  private time = 1_000_000;
  private nextId = 1;
  private readonly due = new Map<number, Due>();
  private readonly unreferenced = new Set<number>();

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, delayMs: number): unknown {
    const id = this.nextId++;
    this.due.set(id, { at: this.time + Math.max(0, delayMs), callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.due.delete(handle as number);
    this.unreferenced.delete(handle as number);
  }

  setInterval(callback: () => void, everyMs: number): unknown {
    const id = this.nextId++;
    const every = Math.max(1, everyMs);
    this.due.set(id, { at: this.time + every, callback, every });
    return id;
  }

  clearInterval(handle: unknown): void {
    this.clearTimeout(handle);
  }

  setRef(handle: unknown, ref: boolean): void {
    if (!this.due.has(handle as number)) return;
    if (ref) this.unreferenced.delete(handle as number);
    else this.unreferenced.add(handle as number);
  }

  /** Timers ever set. */
  get timersSet(): number {
    return this.nextId - 1;
  }

  get pendingTimers(): number {
    return this.due.size;
  }

  /** Pending timers that would keep a real process alive. */
  get referencedTimers(): number {
    let count = 0;
    for (const id of this.due.keys()) if (!this.unreferenced.has(id)) count++;
    return count;
  }

  /** Moves time forward, firing every timer that falls due, in order. */
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      let next: [number, Due] | undefined;
      for (const entry of this.due) if (entry[1].at <= target && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      const [id, due] = next;
      // An overdue timer (after block()) fires late, now; time never runs backwards.
      this.time = Math.max(this.time, due.at);
      // Like Node's setInterval, the next run is one period after this one ran, with no catch-up.
      if (due.every) due.at = this.time + due.every;
      else {
        this.due.delete(id);
        this.unreferenced.delete(id);
      }
      due.callback();
    }
    this.time = target;
  }

  /**
   * The host's event loop was blocked for `ms`: time jumps without any timer firing in between, as
   * when a synchronous task holds the thread; the timers that fell due fire afterwards, late.
   */
  block(ms: number): void {
    this.time += ms;
  }
}
