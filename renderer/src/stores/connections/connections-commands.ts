// Connection and sidecar actions: ask the host, mirror its answer, and return it for the panel to show in place.
// API keys pass through here on their way to the host and are never put in the store.
import type { MethodInput, MethodOutput } from '../../../../shared/contract';
import type { Result } from '../../../../shared/errors';
import type { HostConnection } from '../../api/connection';
import type { AppStore } from '../app/app-store';

export type ProfileInput = MethodInput<'connections.save'>['profile'];
export type TestOutcome = Result<MethodOutput<'connections.test'>> & { latencyMs: number };

export async function loadConnections(store: AppStore, host: HostConnection) {
  const result = await host.invoke('connections.list', {});
  if (result.ok) store.getState().connectionsReplaced(result.value);
  else store.getState().connectionsLoadFailed(result.error);
  return result;
}

export async function loadSecretsInfo(store: AppStore, host: HostConnection) {
  const result = await host.invoke('connections.secretsInfo', {});
  if (result.ok) store.getState().connectionSecretsLoaded(result.value);
  return result;
}

/** S10: the person chooses to keep keys obfuscated where the machine has no keyring. */
export async function allowObfuscatedKeys(store: AppStore, host: HostConnection) {
  const result = await host.invoke('connections.allowObfuscatedKeys', {});
  if (result.ok) store.getState().connectionSecretsLoaded(result.value);
  return result;
}

export async function loadSidecar(store: AppStore, host: HostConnection) {
  const result = await host.invoke('sidecar.get', {});
  if (result.ok) store.getState().sidecarLoaded(result.value);
  else store.getState().sidecarLoadFailed(result.error);
  return result;
}

export async function saveConnection(store: AppStore, host: HostConnection, profile: ProfileInput, key?: string) {
  const result = await host.invoke('connections.save', key === undefined ? { profile } : { profile, key });
  if (result.ok) {
    store.getState().connectionSaved(result.value.profile);
    // The sidecar's usability may depend on this profile.
    void loadSidecar(store, host);
  }
  return result;
}

export async function removeConnection(store: AppStore, host: HostConnection, id: string) {
  const result = await host.invoke('connections.remove', { id });
  if (result.ok) {
    store.getState().connectionRemoved(id);
    void loadSidecar(store, host);
  }
  return result;
}

/** Takes into use a connection a backup restore held. */
export async function confirmConnection(store: AppStore, host: HostConnection, id: string) {
  const result = await host.invoke('connections.confirm', { id });
  if (result.ok) {
    store.getState().connectionSaved(result.value);
    void loadSidecar(store, host);
  }
  return result;
}

export async function clearConnectionKey(store: AppStore, host: HostConnection, id: string) {
  const result = await host.invoke('connections.clearKey', { id });
  if (result.ok) store.getState().connectionSaved(result.value);
  return result;
}

/** Tests a saved profile ({id}) or the form's unsaved one; latency is measured here, round trip included. */
export async function testConnection(store: AppStore, host: HostConnection, input: MethodInput<'connections.test'>): Promise<TestOutcome> {
  const started = performance.now();
  const result = await host.invoke('connections.test', input);
  const latencyMs = performance.now() - started;
  if (result.ok && result.value.ok && 'id' in input) store.getState().connectionModelsLoaded(input.id, result.value.models);
  return { ...result, latencyMs };
}

export async function listModels(store: AppStore, host: HostConnection, id: string) {
  const result = await host.invoke('connections.models', { id });
  if (result.ok) store.getState().connectionModelsLoaded(id, result.value.models);
  return result;
}

export function detectServers(host: HostConnection) {
  return host.invoke('connections.detect', {});
}

export async function updateSidecar(store: AppStore, host: HostConnection, patch: MethodInput<'sidecar.update'>['patch']) {
  const result = await host.invoke('sidecar.update', { patch });
  if (result.ok) store.getState().sidecarLoaded(result.value);
  return result;
}

/** The local model library (models the built-in engine runs). */
export function listLocalModels(host: HostConnection) {
  return host.invoke('models.list', {});
}

export function addLocalModel(host: HostConnection, path: string) {
  return host.invoke('models.add', { path });
}

export function removeLocalModel(host: HostConnection, id: string) {
  return host.invoke('models.remove', { id });
}

export function pullLocalModel(host: HostConnection, source: string) {
  return host.invoke('models.pull', { source });
}

/** Pause, resume or cancel a download. */
export function steerDownload(host: HostConnection, action: 'models.pause' | 'models.resume' | 'models.cancel', id: string) {
  return host.invoke(action, { id });
}

/** The capability cards the tool-calling probe kept. */
export function listProbeCards(host: HostConnection) {
  return host.invoke('models.probes', {});
}

export function probeToolCalling(host: HostConnection, connectionId: string, model?: string) {
  return host.invoke('models.probe', model ? { connectionId, model } : { connectionId });
}

/** Whether a model fits this machine, from its header (nothing is downloaded). */
export function checkModelFit(host: HostConnection, source: string) {
  return host.invoke('models.fit', { source });
}

/** Small models that call tools well (the Workbench's suggestions). */
export function suggestedModels(host: HostConnection) {
  return host.invoke('models.suggested', {});
}
