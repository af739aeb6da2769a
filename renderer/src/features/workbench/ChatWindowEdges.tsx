// The ends of the part of a long chat the window holds. Older messages load as the top comes near (or with the
// button, from the keyboard); newer ones the same way below, when a search result took the window back in time.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAppStoreApi, useHost } from '../../app/context';
import { loadEarlier, loadLater } from '../../stores/chat/chat-commands';

/** Loads once at a time, and again whenever `marker` comes within `margin` of the scrolling column's view. */
function useLoadNear(load: () => Promise<unknown>, margin: string, count: number) {
  const ref = useRef<HTMLButtonElement>(null);
  const [loading, setLoading] = useState(false);
  const busy = useRef(false);
  const run = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    setLoading(true);
    try {
      await load();
    } finally {
      busy.current = false;
      setLoading(false);
    }
  }, [load]);
  useEffect(() => {
    const marker = ref.current;
    if (!marker || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void run(), { root: document.getElementById('main'), rootMargin: margin });
    observer.observe(marker);
    return () => observer.disconnect();
    // Observed again after each page: a marker still in view then loads the next one.
  }, [run, margin, count]);
  return { ref, loading, run };
}

export function EarlierMessages(props: { count: number }) {
  const store = useAppStoreApi();
  const host = useHost();
  const { ref, loading, run } = useLoadNear(useCallback(() => loadEarlier(store, host), [store, host]), '800px 0px 0px 0px', props.count);
  return (
    // Not a scroll anchor: the browser keeps the first message shown in place while older ones are put above it.
    <button ref={ref} type="button" className="chat__more chat__more--earlier" data-testid="earlier-messages" onClick={() => void run()} aria-busy={loading}>
      {loading ? 'Loading earlier messages…' : `Show earlier messages (${props.count} more)`}
    </button>
  );
}

export function LaterMessages(props: { count: number }) {
  const store = useAppStoreApi();
  const host = useHost();
  const { ref, loading, run } = useLoadNear(useCallback(() => loadLater(store, host), [store, host]), '0px 0px 800px 0px', props.count);
  return (
    <div className="chat__more-row">
      <button ref={ref} type="button" className="chat__more" data-testid="later-messages" onClick={() => void run()} aria-busy={loading}>
        {loading ? 'Loading newer messages…' : `Show newer messages (${props.count} more)`}
      </button>
      <button type="button" className="chat__more" data-testid="newest-messages" onClick={() => void loadLater(store, host, true)}>
        Go to the newest
      </button>
    </div>
  );
}
