// Shared helpers for the extension tests: fixture paths, a recording ToolSink, real workers with short timings.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HostError } from '../../../shared/errors';
import type { ToolRegistrationDTO } from '../../../shared/types/spindle';
import type { ExtensionStateStore, PersistedExtensionState, ToolSink, ToolSource } from '../../../electron/core/extensions/extension-types';
import { NodeLauncher, workerRuntimeSource, type Launcher } from '../../../electron/core/extensions/workers/launcher';
import { readManifest } from '../../../electron/core/extensions/install/manifest';
import { WorkerHost, type WorkerExit, type WorkerHostTimings } from '../../../electron/core/extensions/workers/worker-host';
import type { WorkerIsolation } from '../../../electron/core/extensions/workers/worker-host-types';
import type { ExecuteRequest, ExecuteResult, ToolExecutor } from '../../../electron/core/registry-port';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/extensions', import.meta.url));
export const BUNDLED = fileURLToPath(new URL('../../../resources/extensions', import.meta.url));
export const RUNTIME = workerRuntimeSource();

export function fixture(name: string): string {
  return path.join(FIXTURES, name);
}

/** Short heartbeat timings so fault tests finish quickly; startup stays generous for a busy machine. */
export const FAST: Partial<WorkerHostTimings> = {
  heartbeatIntervalMs: 200,
  unresponsiveAfterMs: 1500,
  startupTimeoutMs: 20_000,
  shutdownGraceMs: 500,
};

/** A call's answer with its text read back as JSON: an extension tool answers with the model's text. */
export function asJson(result: ExecuteResult): ExecuteResult {
  return result.ok && typeof result.value === 'string' ? { ok: true, value: JSON.parse(result.value) as unknown } : result;
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `cw-${prefix}-`));
}

let seq = 0;
export function request(toolName: string, args: Record<string, unknown> = {}, extra: Partial<ExecuteRequest> = {}): ExecuteRequest {
  return {
    toolName,
    args,
    requestId: `req-${process.pid}-${++seq}`,
    deadline: Date.now() + 10_000,
    signal: new AbortController().signal,
    ...extra,
  };
}

/** Polls until `check` returns something truthy. */
export async function waitFor<T>(check: () => T | undefined | null | false, what: string, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** Stands in for the registry: records every call, refuses names a provider could not use. */
export class FakeSink implements ToolSink {
  readonly calls: string[] = [];
  readonly tools = new Map<string, { dto: ToolRegistrationDTO; executor: ToolExecutor }>();
  readonly statuses = new Map<string, 'available' | 'unavailable'>();

  register(source: ToolSource, dto: unknown, executor: ToolExecutor): { ok: true } | { ok: false; error: HostError } {
    const tool = dto as ToolRegistrationDTO;
    this.calls.push(`register ${source.id}:${String(tool.name)}`);
    if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
      return { ok: false, error: { code: 'INVALID_TOOL_NAME', message: 'Tool names are ASCII letters, digits, _ and -.', path: '/name' } };
    }
    this.tools.set(`${source.id}:${tool.name}`, { dto: tool, executor });
    return { ok: true };
  }

  unregister(sourceId: string, name: string): void {
    this.calls.push(`unregister ${sourceId}:${name}`);
    this.tools.delete(`${sourceId}:${name}`);
  }

  unregisterAll(sourceId: string): void {
    this.calls.push(`unregisterAll ${sourceId}`);
    for (const key of [...this.tools.keys()]) if (key.startsWith(`${sourceId}:`)) this.tools.delete(key);
  }

  setSourceStatus(sourceId: string, status: 'available' | 'unavailable'): void {
    this.statuses.set(sourceId, status);
  }

  names(sourceId: string): string[] {
    return [...this.tools.keys()].filter((k) => k.startsWith(`${sourceId}:`)).map((k) => k.slice(sourceId.length + 1));
  }

  executor(sourceId: string, name: string): ToolExecutor {
    const tool = this.tools.get(`${sourceId}:${name}`);
    if (!tool) throw new Error(`${sourceId}:${name} is not registered`);
    return tool.executor;
  }
}

export class MemoryState implements ExtensionStateStore {
  readonly states = new Map<string, PersistedExtensionState>();
  getState(id: string) {
    return this.states.get(id);
  }
  async setState(id: string, state: PersistedExtensionState) {
    this.states.set(id, { enabled: state.enabled, granted: [...state.granted] });
  }
  async removeState(id: string) {
    this.states.delete(id);
  }
}

export interface StartedWorker {
  host: WorkerHost;
  logs: string[];
  registered: ToolRegistrationDTO[];
  /** Resolves with the layers the worker reported when it was ready. */
  ready: Promise<WorkerIsolation>;
  exit: Promise<WorkerExit>;
  dataPath: string;
}

const launcher = new NodeLauncher();
const started: WorkerHost[] = [];

/** Starts one fixture (or any extension folder) in a real worker process. */
export function startWorker(folder: string, options: { granted?: ('tools' | 'generation')[]; timings?: Partial<WorkerHostTimings>; launcher?: Launcher } = {}): StartedWorker {
  const loaded = readManifest(folder);
  const logs: string[] = [];
  const registered: ToolRegistrationDTO[] = [];
  let markReady!: (isolation: WorkerIsolation) => void;
  const ready = new Promise<WorkerIsolation>((resolve) => (markReady = resolve));
  const dataPath = tempDir('data');
  const host = new WorkerHost({
    manifest: loaded.manifest,
    extensionPath: loaded.folder,
    granted: options.granted ?? ['tools'],
    launcher: options.launcher ?? launcher,
    entry: RUNTIME,
    timings: { ...FAST, ...options.timings },
    callbacks: {
      onReady: markReady,
      onRegisterTool: (tool) => registered.push(tool),
      onLog: (level, source, text) => logs.push(`${source}:${level}: ${text}`),
    },
  });
  host.start();
  started.push(host);
  return { host, logs, registered, ready, exit: host.whenExited(), dataPath };
}

export async function stopAllWorkers(): Promise<void> {
  await Promise.all(started.splice(0).map((host) => host.stop()));
}

/** Calls an extension's tool through the host's registry and reads its JSON answer (a failed call throws, naming it). */
export async function toolJson<T>(registry: { invoke(name: string, args: Record<string, unknown>, options: { timeoutMs: number }): Promise<{ ok: true; content: string } | { ok: false; error: unknown }> }, qualifiedName: string, args: Record<string, unknown> = {}): Promise<T> {
  const outcome = await registry.invoke(qualifiedName, args, { timeoutMs: 20_000 });
  if (!outcome.ok) throw new Error(`${qualifiedName}: ${JSON.stringify(outcome.error)}`);
  return JSON.parse(outcome.content) as T;
}
