// At most so many requests of one kind from here at once (a frame, a worker): the host answers that many per extension,
// so the rest wait here, in order, instead of being refused there.
export function inTurns(atOnce: number) {
  let running = 0;
  const queued: Array<() => void> = [];
  return async function inTurn<T>(work: () => Promise<T>): Promise<T> {
    if (running >= atOnce) await new Promise<void>((resolve) => queued.push(resolve));
    running++;
    try {
      return await work();
    } finally {
      running--;
      queued.shift()?.();
    }
  };
}
