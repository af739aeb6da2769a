// A chat's last answer, read back for a while (Lumiverse's warm cache of cortex results: about five minutes), a bounded
// number of chats at a time, the least recently answered forgotten first.
import type { Clock } from '../ports';

export class TimedCache<T> {
  private readonly entries = new Map<string, { at: number; value: T }>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly max = 200,
  ) {}

  set(key: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, { at: this.clock.now(), value });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  /** The value while it is fresh; an expired one is forgotten. */
  get(key: string): T | null {
    const entry = this.entries.get(key);
    if (entry && this.clock.now() - entry.at <= this.ttlMs) return entry.value;
    this.entries.delete(key);
    return null;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
