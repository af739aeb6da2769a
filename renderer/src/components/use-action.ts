// One host call at a time for a control or a card: what is in flight, and the failure to show beside it (dropped once the component is gone).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { HostError, Result } from '../../../shared/errors';

export interface ActionError {
  title: string;
  error: HostError;
}

export function useAction<K extends string = string>() {
  const [busy, setBusy] = useState<K | null>(null);
  const [error, setError] = useState<ActionError | null>(null);
  const mounted = useRef(true);
  const inFlight = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => void (mounted.current = false);
  }, []);

  const run = useCallback(async <T>(what: K, title: string, call: () => Promise<Result<T> | null>): Promise<Result<T> | null> => {
    if (inFlight.current) return null;
    inFlight.current = true;
    setBusy(what);
    setError(null);
    try {
      const result = await call();
      if (mounted.current && result && !result.ok) setError({ title, error: result.error });
      return result;
    } finally {
      inFlight.current = false;
      if (mounted.current) setBusy(null);
    }
  }, []);

  return { busy, error, setError, run };
}
