// What an editor's extension tab changes (the character editor's card extensions, the preset editor's preset), saved
// as Lumiverse saves it: each record's latest change after a pause, or at once; one save at a time, in the order
// asked. What the editor shows is the change waiting, else the one being saved, else the one saved (until the app
// tells of the record changing: the save itself, or another's), else the record as the app told it, so no change is
// built on a stale record.

/** The record the editor shows, as the app last told it (`id` null: none). */
export interface Told<T> {
  id: string | null;
  value: T;
}

export interface DraftsOptions<T> {
  /** How long Lumiverse waits before saving a change. */
  delayMs: number;
  /** A change waiting, built on what was sent, made again over what the host stored instead (a save rebased). */
  rebase?: (waiting: T, sent: T, stored: T) => T;
  /** A refusal after which the change is dropped rather than kept for the next flush (it can never be saved). */
  drops?: (err: unknown) => boolean;
}

export class EditorDrafts<T> {
  private readonly pending = new Map<string, T>();
  private readonly inFlight = new Map<string, T>();
  private saved: { id: string; value: T; toldWas: string } | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The last flush, and whether it has ended: a flush asked while one runs waits for it and reports its refusal too. */
  private last = { run: Promise.resolve(), ended: true };

  /** `save` answers the record as stored, when that may differ from what was sent. */
  constructor(
    private readonly save: (id: string, value: T) => Promise<T | void | unknown>,
    private readonly told: () => Told<T>,
    private readonly options: DraftsOptions<T>,
  ) {}

  /** The record as this frontend last made it, else as the app told it. */
  current(told: Told<T>): T {
    const { id } = told;
    if (id === null) return told.value;
    if (this.pending.has(id)) return this.pending.get(id)!;
    if (this.inFlight.has(id)) return this.inFlight.get(id)!;
    if (this.saved?.id === id && this.saved.toldWas === JSON.stringify(told.value)) return this.saved.value;
    return told.value;
  }

  /** Whether a change of `id` waits or is being saved. */
  busy(id: string): boolean {
    return this.pending.has(id) || this.inFlight.has(id);
  }

  /** Whether a change of `id` waits (not the one being saved). */
  waiting(id: string): boolean {
    return this.pending.has(id);
  }

  /** A change to save: at once, or with the record's other changes after the delay. */
  change(id: string, value: T, immediate: boolean): Promise<void> {
    this.pending.set(id, value);
    clearTimeout(this.timer);
    if (immediate) return this.flush();
    this.timer = setTimeout(() => void this.flush().catch((err: unknown) => console.error(err)), this.options.delayMs);
    return Promise.resolve();
  }

  /**
   * Saves every change waiting, after the saves already on their way; rejects with the first refusal, theirs included
   * (a refused change waits for the next flush, unless it never can be saved).
   */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    const before = this.last.ended ? Promise.resolve() : this.last.run;
    const run = before.then(
      () => this.saveAll(),
      async (err: unknown) => {
        await this.saveAll();
        throw err;
      },
    );
    const entry = { run, ended: false };
    const end = () => void (entry.ended = true);
    run.then(end, end);
    this.last = entry;
    return run;
  }

  private async saveAll(): Promise<void> {
    for (const [id, value] of [...this.pending]) {
      this.pending.delete(id);
      this.inFlight.set(id, value);
      const told = this.told();
      const toldWas = told.id === id ? JSON.stringify(told.value) : '';
      try {
        const answer = await this.save(id, value);
        const stored = answer === undefined || answer === null ? value : (answer as T);
        this.saved = { id, value: stored, toldWas };
        // A change made meanwhile was built on what was sent: made again over what was stored.
        const waiting = this.pending.get(id);
        const { rebase } = this.options;
        if (waiting !== undefined && rebase && stored !== value && JSON.stringify(stored) !== JSON.stringify(value)) this.pending.set(id, rebase(waiting, value, stored));
      } catch (err) {
        // Not saved: it waits for the next flush, unless a newer change (built on it) waits already, or it never can be.
        if (!this.pending.has(id) && !this.options.drops?.(err)) this.pending.set(id, value);
        throw err;
      } finally {
        if (this.inFlight.get(id) === value) this.inFlight.delete(id);
      }
    }
  }
}
