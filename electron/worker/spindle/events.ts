// spindle.on / off: event handlers by name, called as Lumiverse calls them, `(payload, userId)`; a failing handler is logged, never thrown.

export type SpindleHandler = (payload: unknown, userId: string, context: { signal: AbortSignal }) => unknown;

export class EventHandlers {
  private readonly byEvent = new Map<string, Set<SpindleHandler>>();

  private reportQueued = false;

  /** `onNamesChanged` hears the set of event names with handlers, once per change (a burst of on/off is one report). */
  constructor(
    private readonly userId: string,
    private readonly logFailure: (event: string, error: unknown) => void,
    private readonly onNamesChanged: (names: string[]) => void = () => undefined,
  ) {}

  /** The events that have at least one handler now. */
  names(): string[] {
    return [...this.byEvent].filter(([, set]) => set.size > 0).map(([name]) => name);
  }

  private changed(): void {
    if (this.reportQueued) return;
    this.reportQueued = true;
    queueMicrotask(() => {
      this.reportQueued = false;
      this.onNamesChanged(this.names());
    });
  }

  on(event: string, handler: SpindleHandler): () => void {
    if (typeof event !== 'string' || event === '') throw new TypeError('spindle.on expects an event name.');
    if (typeof handler !== 'function') throw new TypeError('spindle.on expects a handler function.');
    let set = this.byEvent.get(event);
    if (!set) this.byEvent.set(event, (set = new Set()));
    if (set.size === 0) this.changed();
    set.add(handler);
    return () => this.off(event, handler);
  }

  off(event: string, handler: SpindleHandler): void {
    const set = this.byEvent.get(event);
    if (set?.delete(handler) && set.size === 0) {
      this.byEvent.delete(event);
      this.changed();
    }
  }

  /** The handlers of `event` as they are now (a handler added during a call waits for the next one). */
  list(event: string): SpindleHandler[] {
    const set = this.byEvent.get(event);
    return set ? [...set] : [];
  }

  /** Calls every handler of a notification event, one after another. */
  async emit(event: string, payload: unknown): Promise<void> {
    for (const handler of this.list(event)) {
      try {
        await handler(payload, this.userId, { signal: new AbortController().signal });
      } catch (err) {
        this.logFailure(event, err);
      }
    }
  }
}
