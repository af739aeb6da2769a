// When an extension's frontend frames run, for the host (its frame calls) and the window (the frames it loads) alike.

/**
 * Whether an enabled extension's frontend runs in the window. As in Lumiverse, its backend need not: it runs once the
 * backend has started, and stays while the backend has crashed, restarts or has failed (a frontend that never talks
 * to its backend still works); before the backend's first start, it waits for it (its first messages need it).
 */
export function frontendRuns(e: { enabled: boolean; status: string; lastCrash?: string | null }): boolean {
  if (!e.enabled) return false;
  return e.status === 'running' || e.status === 'crashed' || e.status === 'failed' || (e.status === 'starting' && !!e.lastCrash);
}
