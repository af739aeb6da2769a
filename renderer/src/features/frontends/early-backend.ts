// What a backend sent its frontend before the frontend's page had loaded (a tracker's first sheet at start): kept, the
// newest few, and handed to its frame once its broker starts, as Lumiverse's page queues them until setup is ready.
import { checkJsonBudget } from '../../../../shared/json-budget';

/** Messages kept per extension while its frame loads (Lumiverse's queue holds 100); older ones go first. */
export const MAX_EARLY_MESSAGES = 100;
/** And at most this much of them, as JSON (a bootstrap of 48 M fits; a hundred of them do not). */
export const MAX_EARLY_CHARS = 64 * 1024 * 1024;

export class EarlyBackendMessages {
  private readonly held = new Map<string, { list: Array<{ payload: unknown; size: number }>; size: number }>();

  hold(extensionId: string, payload: unknown): void {
    const measured = { bytes: 0 };
    if (checkJsonBudget(payload, { maxBytes: MAX_EARLY_CHARS, maxDepth: Number.POSITIVE_INFINITY }, measured)) return;
    const kept = this.held.get(extensionId) ?? { list: [], size: 0 };
    kept.list.push({ payload, size: measured.bytes });
    kept.size += measured.bytes;
    while (kept.list.length > MAX_EARLY_MESSAGES || kept.size > MAX_EARLY_CHARS) kept.size -= kept.list.shift()!.size;
    this.held.set(extensionId, kept);
  }

  /** Everything held for it, in the order sent; none is kept after. */
  take(extensionId: string): unknown[] {
    const kept = this.held.get(extensionId);
    this.held.delete(extensionId);
    return kept?.list.map((m) => m.payload) ?? [];
  }

  /** Its frontend is not to run (stopped, no frontend): what it was sent is not for a later start. */
  forget(extensionId: string): void {
    this.held.delete(extensionId);
  }
}
