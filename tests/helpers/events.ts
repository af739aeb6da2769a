// Waiting for an event without polling: checks the events seen so far, then each one as it comes.
import type { HostEvent } from '../../shared/contract/events';

/**
 * Resolves with what `match` finds in `seen` (the events a listener registered earlier keeps), now or on a
 * later event from `host`. No timer: a test that never gets it ends at the test timeout.
 */
export function eventually<T>(host: { onEvent(listener: (event: HostEvent) => void): () => void }, seen: readonly HostEvent[], match: (events: readonly HostEvent[]) => T | undefined): Promise<T> {
  const found = match(seen);
  if (found !== undefined) return Promise.resolve(found);
  return new Promise<T>((resolve) => {
    const off = host.onEvent(() => {
      const now = match(seen);
      if (now === undefined) return;
      off();
      resolve(now);
    });
  });
}
