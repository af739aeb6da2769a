// What a backend sent its frontend before the frontend's page had loaded (a tracker's first sheet at start): kept, the
// newest few, and handed to its frame once its broker starts, as Lumiverse's page queues them until setup is ready.

/** Messages kept per extension while its frame loads (Lumiverse's queue holds 100); older ones go first. */
export const MAX_EARLY_MESSAGES = 100;

export class EarlyBackendMessages {
  private readonly held = new Map<string, unknown[]>();

  hold(extensionId: string, payload: unknown): void {
    const list = this.held.get(extensionId) ?? [];
    list.push(payload);
    if (list.length > MAX_EARLY_MESSAGES) list.splice(0, list.length - MAX_EARLY_MESSAGES);
    this.held.set(extensionId, list);
  }

  /** Everything held for it, in the order sent; none is kept after. */
  take(extensionId: string): unknown[] {
    const list = this.held.get(extensionId) ?? [];
    this.held.delete(extensionId);
    return list;
  }

  /** Its frontend is not to run (stopped, no frontend): what it was sent is not for a later start. */
  forget(extensionId: string): void {
    this.held.delete(extensionId);
  }
}
