// spindle.on / off: event handlers by name, called as Lumiverse calls them, `(payload, userId)`; a failing handler is logged, never thrown.

export type SpindleHandler = (payload: unknown, userId: string, context: { signal: AbortSignal }) => unknown;

export class EventHandlers {
  private readonly byEvent = new Map<string, Set<SpindleHandler>>();

  constructor(
    private readonly userId: string,
    private readonly logFailure: (event: string, error: unknown) => void,
  ) {}

  on(event: string, handler: SpindleHandler): () => void {
    if (typeof event !== 'string' || event === '') throw new TypeError('spindle.on expects an event name.');
    if (typeof handler !== 'function') throw new TypeError('spindle.on expects a handler function.');
    let set = this.byEvent.get(event);
    if (!set) this.byEvent.set(event, (set = new Set()));
    set.add(handler);
    return () => this.off(event, handler);
  }

  off(event: string, handler: SpindleHandler): void {
    this.byEvent.get(event)?.delete(handler);
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
