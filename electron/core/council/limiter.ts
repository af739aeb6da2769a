// A counting semaphore per key: at most N sidecar LLM calls in flight per connection.

export class KeyedLimiter {
  private readonly active = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(private readonly limit: number) {}

  /** Resolves with a release function once a slot is free; rejects if the signal aborts first. */
  acquire(key: string, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
    const count = this.active.get(key) ?? 0;
    if (count < this.limit) {
      this.active.set(key, count + 1);
      return Promise.resolve(this.releaser(key));
    }
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(key) ?? [];
      this.waiting.set(key, queue);
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(this.releaser(key));
      };
      const onAbort = () => {
        const at = queue.indexOf(grant);
        if (at >= 0) queue.splice(at, 1);
        reject(signal?.reason ?? new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(grant);
    });
  }

  inFlight(key: string): number {
    return this.active.get(key) ?? 0;
  }

  private releaser(key: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.get(key)?.shift();
      // The slot passes straight to the next waiter; the count only drops when nobody waits.
      if (next) next();
      else {
        const count = (this.active.get(key) ?? 1) - 1;
        if (count <= 0) this.active.delete(key);
        else this.active.set(key, count);
      }
    };
  }
}
