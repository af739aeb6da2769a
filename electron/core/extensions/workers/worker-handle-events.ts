// What every WorkerHandle tells its host, whatever carries the worker: its messages, a protocol violation (which
// ends the worker first) and its exit.
export abstract class WorkerHandleEvents {
  private readonly exitListeners: Array<(code: number | null, signal: string | null) => void> = [];
  private readonly messageListeners: Array<(message: Record<string, unknown>) => void> = [];
  private readonly protocolListeners: Array<(detail: string) => void> = [];

  abstract kill(): void;

  onMessage(listener: (message: Record<string, unknown>) => void): void {
    this.messageListeners.push(listener);
  }

  onProtocolError(listener: (detail: string) => void): void {
    this.protocolListeners.push(listener);
  }

  onExit(listener: (code: number | null, signal: string | null) => void): void {
    this.exitListeners.push(listener);
  }

  protected deliver(message: Record<string, unknown>): void {
    for (const listener of this.messageListeners) listener(message);
  }

  /** Nothing the worker sends after it is killed reaches the host. */
  protected dropMessages(): void {
    this.messageListeners.length = 0;
  }

  /** A message broke the protocol: the worker is killed, then the host is told why. */
  protected violated(detail: string): void {
    const listeners = [...this.protocolListeners];
    this.kill();
    for (const listener of listeners) listener(detail);
  }

  protected exitedWith(code: number | null, signal: string | null): void {
    for (const listener of this.exitListeners) listener(code, signal);
  }
}
