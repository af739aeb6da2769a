// One small typed event emitter: listeners in a set, a failing listener logged and skipped, never thrown to the emitter.

export class Emitter<E> {
  private readonly listeners = new Set<(event: E) => void>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => undefined) {}

  /** Returns the function that removes the listener again. */
  on(listener: (event: E) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: E): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }

  clear(): void {
    this.listeners.clear();
  }
}
