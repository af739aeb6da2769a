// The counts each extension is held to, one home for them: what it did in a recent window (toasts, moves of the
// window, replies it started) and what it has under way (page requests, images, replies being written).

/** What one extension did in the last `windowMs`. */
export class RecentWindow {
  private readonly times = new Map<string, number[]>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** It has used up its window (nothing counted). */
  full(extensionId: string): boolean {
    return this.current(extensionId).length >= this.max;
  }

  /** Counts one more for it now. */
  add(extensionId: string): void {
    this.times.set(extensionId, [...this.current(extensionId), this.now()]);
  }

  /** Counts one more unless the window is full; false when it is (nothing counted). */
  take(extensionId: string): boolean {
    if (this.full(extensionId)) return false;
    this.add(extensionId);
    return true;
  }

  private current(extensionId: string): number[] {
    const at = this.now();
    return (this.times.get(extensionId) ?? []).filter((t) => at - t < this.windowMs);
  }
}

/** How much one extension sent in the last `windowMs` (its frontend's messages to its backend, in characters). */
export class RecentAmount {
  private readonly sent = new Map<string, Array<{ at: number; amount: number }>>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Counts `amount` for it now unless that would pass the window's max; false when it would (nothing counted). */
  take(extensionId: string, amount: number): boolean {
    const at = this.now();
    const recent = (this.sent.get(extensionId) ?? []).filter((s) => at - s.at < this.windowMs);
    if (recent.reduce((sum, s) => sum + s.amount, amount) > this.max) {
      this.sent.set(extensionId, recent);
      return false;
    }
    this.sent.set(extensionId, [...recent, { at, amount }]);
    return true;
  }
}

/** What one extension has under way at once. */
export class UnderWay {
  private readonly counts = new Map<string, number>();

  constructor(private readonly max: number) {}

  full(extensionId: string): boolean {
    return (this.counts.get(extensionId) ?? 0) >= this.max;
  }

  /** Whether it has anything under way. */
  busy(extensionId: string): boolean {
    return this.counts.has(extensionId);
  }

  /** One more under way unless it is full; false when it is (nothing counted). */
  begin(extensionId: string): boolean {
    if (this.full(extensionId)) return false;
    this.counts.set(extensionId, (this.counts.get(extensionId) ?? 0) + 1);
    return true;
  }

  end(extensionId: string): void {
    const left = (this.counts.get(extensionId) ?? 1) - 1;
    if (left > 0) this.counts.set(extensionId, left);
    else this.counts.delete(extensionId);
  }
}
