// W13: how many tool calls run at once, per tool and in all. A call over either limit waits its turn instead of
// being refused; waiting tools take turns (one call each, round robin), so a burst of 1,000 calls to one tool
// cannot hold back a call to another. Waiting counts against the call's own timeout.

export interface AdmissionLimits {
  maxInFlight: number;
  maxInFlightPerTool: number;
}

export class Admission {
  private running = 0;
  private readonly perTool = new Map<string, number>();
  /** Tools with waiting calls, in turn order (a Map keeps insertion order; a tool served moves to the back). */
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(private readonly limits: AdmissionLimits) {}

  /** Runs `start` now if both limits allow, else when its turn comes. Returns how to withdraw a waiting call. */
  enter(tool: string, start: () => void): () => void {
    if (!this.waiting.has(tool) && this.fits(tool)) {
      this.take(tool);
      start();
      return () => undefined;
    }
    const queue = this.waiting.get(tool) ?? [];
    queue.push(start);
    this.waiting.set(tool, queue);
    return () => {
      const at = queue.indexOf(start);
      if (at >= 0) queue.splice(at, 1);
      if (queue.length === 0 && this.waiting.get(tool) === queue) this.waiting.delete(tool);
    };
  }

  /** A started call ended: its slots go to the waiting calls, tools taking turns. */
  leave(tool: string): void {
    this.running--;
    const left = (this.perTool.get(tool) ?? 1) - 1;
    if (left === 0) this.perTool.delete(tool);
    else this.perTool.set(tool, left);
    this.pump();
  }

  private pump(): void {
    let served = true;
    while (served && this.running < this.limits.maxInFlight) {
      served = false;
      for (const [tool, queue] of this.waiting) {
        if (!this.fits(tool)) continue;
        const start = queue.shift()!;
        this.waiting.delete(tool);
        if (queue.length > 0) this.waiting.set(tool, queue);
        this.take(tool);
        start();
        served = true;
        break;
      }
    }
  }

  private fits(tool: string): boolean {
    return this.running < this.limits.maxInFlight && (this.perTool.get(tool) ?? 0) < this.limits.maxInFlightPerTool;
  }

  private take(tool: string): void {
    this.running++;
    this.perTool.set(tool, (this.perTool.get(tool) ?? 0) + 1);
  }
}
