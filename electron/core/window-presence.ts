// Whether the person has a Workbench window in view, for extensions that act only while they are away (Lumiverse's
// spindle.users.isVisible: Character Nudges writes "you have been away" messages). Each window says so when its
// visibility changes and again while it stays in view; a word older than LEASE_MS has lapsed, so a window that closed
// or crashed without saying so counts as gone within that time.
import type { Clock } from './ports';

export const PRESENCE_LEASE_MS = 90_000;
/** Windows remembered at once (a browser tab reloaded many times leaves its old ids to lapse). */
const MAX_WINDOWS = 64;

export class WindowPresence {
  private readonly seen = new Map<string, { visible: boolean; at: number }>();

  constructor(private readonly clock: Clock) {}

  report(windowId: string, visible: boolean): void {
    this.seen.delete(windowId);
    this.seen.set(windowId, { visible, at: this.clock.now() });
    if (this.seen.size > MAX_WINDOWS) this.seen.delete(this.seen.keys().next().value!);
  }

  /** Some window said it is in view, within the lease. */
  visible(): boolean {
    const now = this.clock.now();
    for (const [id, word] of this.seen) {
      if (now - word.at > PRESENCE_LEASE_MS) this.seen.delete(id);
      else if (word.visible) return true;
    }
    return false;
  }
}
