// Wires the council and runs slices to the host outside React: council.*, packs.* and council.run.* events, and a
// read of the council, packs and stored runs on every (re)connect.
import type { HostEvent } from '../../../../shared/contract/events';
import type { HostConnection } from '../../api/connection';
import type { AppState, AppStore } from '../app/app-store';
import { resyncOnConnect } from '../app/on-connect';

/** Applies a council.* / packs.* event; false for any other event type. */
export function applyCouncilEvent(state: AppState, event: HostEvent): boolean {
  switch (event.type) {
    case 'council.changed':
      state.councilLoaded(event.council);
      return true;
    case 'packs.changed':
      state.packsReplaced(event.packs);
      return true;
    case 'council.run.started':
      state.runStarted(event);
      return true;
    case 'council.run.result':
      state.runResult(event.runId, event.result);
      return true;
    case 'council.run.finished':
      state.runFinished(event.run);
      return true;
    default:
      return false;
  }
}

/**
 * Reads the council, packs and stored runs. Failures stay in the slices (the Council panel shows
 * them inline) rather than becoming notices: an older host without the council is not an alarm.
 */
export async function resyncCouncil(store: AppStore, host: HostConnection): Promise<void> {
  const [view, packs, runs] = await Promise.all([
    host.invoke('council.get', {}),
    host.invoke('packs.list', {}),
    host.invoke('runs.list', { limit: 50 }),
  ]);
  const state = store.getState();
  if (view.ok) state.councilLoaded(view.value);
  else if (view.error.code !== 'HOST_SHUTDOWN') state.councilLoadFailed(view.error);
  if (packs.ok) state.packsReplaced(packs.value);
  if (runs.ok) {
    state.runsReplaced(runs.value);
    // Runs that finished while the connection was down: read them, so their timelines complete.
    const stored = new Set(runs.value.map((r) => r.id));
    const stale = Object.values(store.getState().runs.traces).filter((t) => t.run === null && stored.has(t.id));
    for (const trace of stale) {
      const got = await host.invoke('runs.get', { runId: trace.id });
      if (got.ok) store.getState().runFinished(got.value);
    }
  } else if (runs.error.code !== 'HOST_SHUTDOWN') {
    state.runsLoadFailed(runs.error);
  }
}

export function wireCouncil(store: AppStore, host: HostConnection): () => void {
  const offEvents = host.onEvent((event) => void applyCouncilEvent(store.getState(), event));
  const offInfo = resyncOnConnect(host, () => resyncCouncil(store, host));
  return () => {
    offEvents();
    offInfo();
  };
}
