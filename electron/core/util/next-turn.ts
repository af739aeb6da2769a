/** A turn of the event loop: the thread answers what waits, then the work goes on. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
