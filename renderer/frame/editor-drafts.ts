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

export class EditorDrafts<T> {
  private readonly pending = new Map<string, T>();
  private readonly inFlight = new Map<string, T>();
  private saved: { id: string; value: T; toldWas: string } | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly save: (id: string, value: T) => Promise<unknown>,
    private readonly told: () => Told<T>,
    /** How long Lumiverse waits before saving a change. */
    private readonly delayMs: number,
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

  /** A change to save: at once, or with the record's other changes after the delay. */
  change(id: string, value: T, immediate: boolean): Promise<void> {
    this.pending.set(id, value);
    clearTimeout(this.timer);
    if (immediate) return this.flush();
    this.timer = setTimeout(() => void this.flush().catch((err: unknown) => console.error(err)), this.delayMs);
    return Promise.resolve();
  }

  /** Saves every change waiting, after the saves already asked for; rejects with the first refusal (that change waits on). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    const run = this.chain.then(() => this.saveAll());
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async saveAll(): Promise<void> {
    for (const [id, value] of [...this.pending]) {
      this.pending.delete(id);
      this.inFlight.set(id, value);
      const told = this.told();
      const toldWas = told.id === id ? JSON.stringify(told.value) : '';
      try {
        await this.save(id, value);
        this.saved = { id, value, toldWas };
      } catch (err) {
        // Not saved: it waits for the next flush, unless a newer change (built on it) waits already.
        if (!this.pending.has(id)) this.pending.set(id, value);
        throw err;
      } finally {
        if (this.inFlight.get(id) === value) this.inFlight.delete(id);
      }
    }
  }
}
