// Waits (bounded) until a condition holds, re-checking it whenever something announces a change.

/** Resolves true once `holds()` is true, or false after `timeoutMs`; `onChange` subscribes and returns the unsubscribe. */
export function waitUntil(holds: () => boolean, onChange: (listener: () => void) => () => void, timeoutMs: number): Promise<boolean> {
  if (holds()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const finish = (result: boolean) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(result);
    };
    const timer = setTimeout(() => finish(holds()), timeoutMs);
    const unsubscribe = onChange(() => {
      if (holds()) finish(true);
    });
  });
}
