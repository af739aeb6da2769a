// Loads more of a long list when its marker comes near the view: once at a time, and again while the marker stays
// near after a load (a page that did not fill the view). The marker is a button, so the keyboard loads it too.
import { useCallback, useEffect, useRef, useState } from 'react';

export function useLoadNear<T extends HTMLElement>(load: () => unknown, options: { root: () => Element | null; margin: string; shown: number }) {
  const ref = useRef<T>(null);
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
  const { root, margin, shown } = options;
  useEffect(() => {
    const marker = ref.current;
    if (!marker || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void run(), { root: root(), rootMargin: margin });
    observer.observe(marker);
    return () => observer.disconnect();
    // Observed again after each load (`shown` changed): a marker still near then loads the next part.
  }, [run, root, margin, shown]);
  return { ref, loading, run };
}
