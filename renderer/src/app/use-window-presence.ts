// Tells the host whether the person can see this window (the host's WindowPresence): when that changes, and every
// RENEW_MS while it is in view, so a window closed without a word lapses there. Extensions ask it whether the person
// is away (spindle.users.isVisible, as Lumiverse answers it from its pages' visibility) before writing "you have been
// gone" messages.
import { useEffect } from 'react';
import type { HostConnection } from '../api/connection';

/** Under the host's lease (90 s), with room for a late tick. */
export const RENEW_MS = 30_000;

export function useWindowPresence(host: HostConnection): void {
  useEffect(() => {
    const windowId = crypto.randomUUID();
    const say = (visible = document.visibilityState === 'visible') => {
      // A host not (yet) reached hears it once connected: a host that restarted learns it again then.
      if (host.getInfo().state !== 'connected') return;
      void Promise.resolve()
        .then(() => host.invoke('app.visibility', { windowId, visible }))
        .catch(() => undefined);
    };
    const changed = () => say();
    say();
    const renew = window.setInterval(() => document.visibilityState === 'visible' && say(), RENEW_MS);
    document.addEventListener('visibilitychange', changed);
    const stopInfo = host.onInfo((info) => info.state === 'connected' && say());
    return () => {
      stopInfo();
      window.clearInterval(renew);
      document.removeEventListener('visibilitychange', changed);
      say(false);
    };
  }, [host]);
}
