// Council actions: ask the host, mirror its answer into the store (the matching event may also arrive), and hand the
// result back so the panel can show a failure next to the control that caused it.
import type { MethodInput, MethodOutput } from '../../../../shared/contract';
import type { HostError, Result } from '../../../../shared/errors';
import type { CouncilChat, CouncilRun, CouncilView, ProfileSummary } from '../../../../shared/types/council';
import type { HostConnection } from '../../api/connection';
import type { AppStore } from '../app/app-store';
import { avatarKey } from './council-slice';

type CouncilPatch = MethodInput<'council.update'>['patch'];
type MemberPatch = MethodInput<'council.setMember'>['patch'];

function mirrorView(store: AppStore, result: Result<CouncilView>): Result<CouncilView> {
  if (result.ok) store.getState().councilLoaded(result.value);
  return result;
}

export async function reloadCouncil(store: AppStore, host: HostConnection): Promise<Result<CouncilView>> {
  const result = await host.invoke('council.get', {});
  if (result.ok) store.getState().councilLoaded(result.value);
  else store.getState().councilLoadFailed(result.error);
  return result;
}

export async function updateCouncil(store: AppStore, host: HostConnection, patch: CouncilPatch): Promise<Result<CouncilView>> {
  return mirrorView(store, await host.invoke('council.update', { patch }));
}

export async function setMember(store: AppStore, host: HostConnection, memberId: string, patch: MemberPatch): Promise<Result<CouncilView>> {
  return mirrorView(store, await host.invoke('council.setMember', { memberId, patch }));
}

export async function addMember(store: AppStore, host: HostConnection, input: MethodInput<'council.addMember'>): Promise<Result<MethodOutput<'council.addMember'>>> {
  const result = await host.invoke('council.addMember', input);
  if (result.ok) store.getState().councilLoaded(result.value.council);
  return result;
}

export async function removeMember(store: AppStore, host: HostConnection, memberId: string): Promise<Result<CouncilView>> {
  return mirrorView(store, await host.invoke('council.removeMember', { memberId }));
}

/** Moves one member by `delta` places (−1 up, +1 down); the host gets the whole new order. */
export async function moveMember(store: AppStore, host: HostConnection, memberId: string, delta: number): Promise<Result<CouncilView> | null> {
  const members = store.getState().council.view?.members ?? [];
  const from = members.findIndex((m) => m.id === memberId);
  const to = from + delta;
  if (from < 0 || to < 0 || to >= members.length) return null;
  const ids = members.map((m) => m.id);
  ids.splice(from, 1);
  ids.splice(to, 0, memberId);
  return mirrorView(store, await host.invoke('council.reorderMembers', { memberIds: ids }));
}

export async function quickAddPack(store: AppStore, host: HostConnection, input: MethodInput<'council.quickAddPack'>): Promise<Result<CouncilView>> {
  return mirrorView(store, await host.invoke('council.quickAddPack', input));
}

export async function reloadPacks(store: AppStore, host: HostConnection): Promise<Result<MethodOutput<'packs.list'>>> {
  const result = await host.invoke('packs.list', {});
  if (result.ok) store.getState().packsReplaced(result.value);
  return result;
}

export function importPack(host: HostConnection, content: string, choice?: 'overwrite' | 'keepBoth') {
  return host.invoke('packs.import', { content, ...(choice ? { [choice]: true } : {}) });
}

export function exportPack(host: HostConnection, id: string, format: MethodInput<'packs.export'>['format']) {
  return host.invoke('packs.export', { id, format });
}

export function removePack(host: HostConnection, id: string) {
  return host.invoke('packs.remove', { id });
}

const avatarsInFlight = new WeakMap<AppStore, Set<string>>();

/** Reads one avatar once (per store) and keeps it; a failure is remembered as "no avatar". */
export async function loadAvatar(store: AppStore, host: HostConnection, packId: string, itemId: string): Promise<void> {
  const key = avatarKey(packId, itemId);
  if (Object.prototype.hasOwnProperty.call(store.getState().council.avatars, key)) return;
  const pending = avatarsInFlight.get(store) ?? new Set<string>();
  avatarsInFlight.set(store, pending);
  if (pending.has(key)) return;
  pending.add(key);
  try {
    const result = await host.invoke('packs.avatar', { packId, itemId });
    const url = result.ok ? result.value.dataUrl : null;
    // Only image data URLs go into <img src> / <image href>; anything else is treated as no avatar.
    store.getState().avatarLoaded(key, url !== null && /^data:image\/(png|jpeg|webp|gif|svg\+xml);base64,/.test(url) ? url : null);
  } finally {
    pending.delete(key);
  }
}

// ---------------------------------------------------------------------------------------------
// Profiles

export async function reloadProfiles(store: AppStore, host: HostConnection): Promise<Result<ProfileSummary[]>> {
  const result = await host.invoke('council.profiles.list', {});
  if (result.ok) store.getState().profilesReplaced(result.value);
  return result;
}

async function thenReloadProfiles<T>(store: AppStore, host: HostConnection, result: Result<T>): Promise<Result<T>> {
  if (result.ok) await reloadProfiles(store, host);
  return result;
}

export async function saveProfile(store: AppStore, host: HostConnection, name: string): Promise<Result<ProfileSummary>> {
  return thenReloadProfiles(store, host, await host.invoke('council.profiles.save', { name }));
}

export async function loadProfile(store: AppStore, host: HostConnection, name: string): Promise<Result<CouncilView>> {
  return mirrorView(store, await host.invoke('council.profiles.load', { name }));
}

export async function removeProfile(store: AppStore, host: HostConnection, name: string): Promise<Result<{ removed: boolean }>> {
  return thenReloadProfiles(store, host, await host.invoke('council.profiles.remove', { name }));
}

export async function importProfile(store: AppStore, host: HostConnection, content: string, name?: string): Promise<Result<ProfileSummary>> {
  return thenReloadProfiles(store, host, await host.invoke('council.profiles.import', name ? { content, name } : { content }));
}

export function exportProfile(host: HostConnection, name: string) {
  return host.invoke('council.profiles.export', { name });
}

/** Who would take part with this seed (or a random one); nothing runs. */
export function testRoll(host: HostConnection, seed: number | null) {
  return host.invoke('council.testRoll', seed === null ? {} : { seed });
}

// ---------------------------------------------------------------------------------------------
// Runs

export function newRunId(): string {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return `ui-${Date.now().toString(36)}-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** The host stops waiting on our side after the transport's call timeout, but the run goes on: its events finish the timeline. */
export function stillRunning(error: HostError): boolean {
  return error.code === 'HOST_TIMEOUT';
}

/**
 * Starts a run and opens its timeline at once (the id is ours, so Abort works before the answer).
 * Resolves with the stored run, or the error; HOST_TIMEOUT means "still running, follow the events".
 */
export async function startRun(
  store: AppStore,
  host: HostConnection,
  chat: CouncilChat,
  options: { seed?: number; dryRun?: boolean } = {},
): Promise<Result<CouncilRun>> {
  const runId = newRunId();
  const before = store.getState().runs.openId;
  store.getState().runOpened(runId);
  const input: MethodInput<'council.run'> = { chat, runId };
  if (options.seed !== undefined) input.seed = options.seed;
  if (options.dryRun !== undefined) input.dryRun = options.dryRun;
  const result = await host.invoke('council.run', input);
  const state = store.getState();
  if (result.ok) state.runFinished(result.value);
  else if (!stillRunning(result.error) && !Object.prototype.hasOwnProperty.call(state.runs.traces, runId) && state.runs.openId === runId) {
    // It never started: show what was open before.
    state.runOpened(before);
  }
  return result;
}

export async function abortRun(host: HostConnection, runId: string): Promise<Result<{ aborted: boolean }>> {
  return host.invoke('council.abort', { runId });
}

/** Re-runs the failed tools of a run; the new run (its id chosen by the host) opens when it starts. */
export async function retryFailed(store: AppStore, host: HostConnection, runId: string): Promise<Result<CouncilRun>> {
  store.getState().retryFollowed(runId);
  const result = await host.invoke('council.retryFailed', { runId });
  if (result.ok) {
    store.getState().runFinished(result.value);
    store.getState().runOpened(result.value.id);
  }
  if (!result.ok || store.getState().runs.followRetryOf === runId) store.getState().retryFollowed(null);
  return result;
}

export async function reloadRuns(store: AppStore, host: HostConnection): Promise<Result<MethodOutput<'runs.list'>>> {
  const result = await host.invoke('runs.list', { limit: 50 });
  if (result.ok) store.getState().runsReplaced(result.value);
  else store.getState().runsLoadFailed(result.error);
  return result;
}

/** Shows a stored run: from memory when its trace is complete, else runs.get. */
export async function openRun(store: AppStore, host: HostConnection, runId: string): Promise<Result<unknown>> {
  const known = store.getState().runs.traces[runId];
  if (known && Object.prototype.hasOwnProperty.call(store.getState().runs.traces, runId) && known.run) {
    store.getState().runOpened(runId);
    return { ok: true, value: known.run };
  }
  const result = await host.invoke('runs.get', { runId });
  if (result.ok) {
    store.getState().runFinished(result.value);
    store.getState().runOpened(runId);
  }
  return result;
}
