// One worker's managed backend processes (spindle.backendProcesses), as Lumiverse keeps them: each a child process
// started by the same launcher as the worker (the same containment: its own folder read-only, no network, no child
// processes), watched by a startup and a heartbeat watchdog the host keeps even when the child blocks its own event
// loop, at most 16 at once, replaced by user + kind + key, and all stopped when the worker goes.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { HostFailure, type ErrorCode } from '../../../../shared/errors';
import { MAX_WORKER_MESSAGES_PER_SECOND, utf8ByteLength, type HostToWorkerMessage, type LogLevel } from '../../../../shared/protocol';
import { CHILD_TO_HOST, type ChildToHostMessage } from '../../../../shared/protocol/child-schemas';
import { LOCAL_USER_ID } from '../../../../shared/spindle/lumiverse-ids';
import { managedValueProblem, spawnValuesProblem } from '../../../../shared/spindle/managed-values';
import { PROCESS_FIELD_BYTES, type BackendProcessExitReason, type BackendProcessState } from '../../../../shared/spindle/process-requests';
import type { SpindleParams } from '../../../../shared/spindle/requests';
import type { Clock, Timers } from '../../ports';
import { minimalWorkerEnv, type Launcher, type WorkerHandle } from './launcher';
import { readMessage } from './read-worker-message';
import { WorkerOutput } from './worker-output';

export const MAX_BACKEND_PROCESSES = 16;
/** A stop the child does not finish in this long is forced (Lumiverse: 5 s). */
export const PROCESS_STOP_GRACE_MS = 5_000;
const clamp = (value: number | undefined, fallback: number, min: number) => Math.max(min, Math.min(120_000, Math.round(value ?? fallback)));

/** At most `bytes` of UTF-8, whole characters only. */
function clipUtf8(text: string, bytes: number): string {
  if (utf8ByteLength(text) <= bytes) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    used += utf8ByteLength(char);
    if (used > bytes) break;
    out += char;
  }
  return out;
}

export interface BackendProcessInfo {
  processId: string;
  entry: string;
  kind: string;
  key?: string;
  state: BackendProcessState;
  userId?: string;
  metadata?: Record<string, unknown>;
  startedAt: string;
  readyAt?: string;
  lastHeartbeatAt?: string;
  endedAt?: string;
  exitReason?: BackendProcessExitReason;
  error?: string;
}

interface Managed {
  info: BackendProcessInfo;
  handle: WorkerHandle;
  spawned: { resolve(info: BackendProcessInfo): void; reject(error: HostFailure): void } | null;
  timer: unknown;
  heartbeatMs: number;
}

export interface BackendProcessesOptions {
  extensionId: string;
  extensionPath: string;
  launcher: Launcher;
  /** The worker runtime script: a child is the same script told `child_init`. */
  runtimeEntry: string;
  clock: Clock;
  timers: Timers;
  /** To the parent worker: lifecycle and message news. */
  notify(message: HostToWorkerMessage): void;
  log(level: LogLevel, text: string): void;
  /**
   * Counts one message of a child against its worker's own budget (one per worker and its children, so sixteen children
   * do not multiply what an extension may send the host); true when it is one too many.
   */
  flooded(): boolean;
}

const failure = (code: ErrorCode, message: string, at?: string) => new HostFailure(at ? { code, message, path: at } : { code, message });

/** The entry as Lumiverse accepts it: a built .js/.mjs/.cjs file under the extension's dist/, no way out of its folder. */
export function resolveProcessEntry(folder: string, entry: string): { entry: string; entryPath: string } {
  const normalized = entry.trim().replace(/\\/g, '/');
  const at = '/options/entry';
  if (!normalized) throw failure('INVALID_INPUT', 'entry is required.', at);
  if (utf8ByteLength(normalized) > PROCESS_FIELD_BYTES.entry) throw failure('INVALID_INPUT', `entry is longer than ${PROCESS_FIELD_BYTES.entry} bytes.`, at);
  if (normalized.startsWith('/') || /^[A-Za-z]:/.test(normalized) || normalized.split('/').includes('..')) throw failure('PATH_NOT_ALLOWED', 'entry must be a relative path inside the extension.', at);
  if (!normalized.startsWith('dist/')) throw failure('PATH_NOT_ALLOWED', 'Backend process entries must live under dist/.', at);
  if (!/\.(?:cjs|mjs|js)$/.test(normalized)) throw failure('INVALID_INPUT', 'A backend process entry must be a built JavaScript file (.js, .mjs or .cjs).', at);
  let real: string;
  try {
    real = fs.realpathSync(path.resolve(folder, normalized));
    if (!fs.statSync(real).isFile()) throw new Error('not a file');
  } catch {
    throw failure('NOT_FOUND', `Backend process entry not found: ${normalized}`, at);
  }
  const root = fs.realpathSync(folder);
  if (!real.startsWith(root + path.sep)) throw failure('PATH_NOT_ALLOWED', `${normalized} leads outside the extension's folder.`, at);
  return { entry: normalized, entryPath: real };
}

export class BackendProcesses {
  private readonly records = new Map<string, Managed>();
  private readonly keys = new Map<string, string>();

  constructor(private readonly options: BackendProcessesOptions) {}

  get size(): number {
    return this.records.size;
  }

  spawn(params: SpindleParams<'backendProcesses.spawn'>): Promise<BackendProcessInfo> {
    const { options, has } = params;
    const { entry, entryPath } = resolveProcessEntry(this.options.extensionPath, options.entry);
    const kind = options.kind?.trim() || entry;
    const key = options.key?.trim() || undefined;
    if (utf8ByteLength(kind) > PROCESS_FIELD_BYTES.kind) throw failure('INVALID_INPUT', `kind is longer than ${PROCESS_FIELD_BYTES.kind} bytes.`, '/options/kind');
    if (key && utf8ByteLength(key) > PROCESS_FIELD_BYTES.key) throw failure('INVALID_INPUT', `key is longer than ${PROCESS_FIELD_BYTES.key} bytes.`, '/options/key');
    const problem = spawnValuesProblem(options, has);
    if (problem) throw failure('INVALID_INPUT', problem, '/options');
    if (key) this.replace(key, kind, options.replaceExisting === true);
    if (this.records.size >= MAX_BACKEND_PROCESSES) throw failure('QUOTA_EXCEEDED', `Backend process limit reached (${MAX_BACKEND_PROCESSES}).`);

    const processId = randomUUID();
    const info: BackendProcessInfo = { processId, entry, kind, ...(key ? { key } : {}), state: 'starting', userId: LOCAL_USER_ID, ...(has.metadata ? { metadata: options.metadata! } : {}), startedAt: this.now() };
    let handle: WorkerHandle;
    try {
      handle = this.options.launcher.launch({ id: `${this.options.extensionId}:${kind}`, entry: this.options.runtimeEntry, env: minimalWorkerEnv({ SPINDLE_EXTENSION_ID: this.options.extensionId }), cwd: this.options.extensionPath, readable: [this.options.extensionPath] });
    } catch (err) {
      throw failure('PROCESS_FAILED', `The backend process could not be started: ${(err as Error).message}`);
    }
    return new Promise<BackendProcessInfo>((resolve, reject) => {
      const record: Managed = { info, handle, spawned: { resolve, reject }, timer: null, heartbeatMs: clamp(options.heartbeatTimeoutMs, 15_000, 0) };
      this.records.set(processId, record);
      if (key) this.keys.set(`${LOCAL_USER_ID}:${kind}:${key}`, processId);
      const output = new WorkerOutput((level, source, text) => this.options.log(level, `[${kind}] ${source}: ${text}`));
      output.pipe(handle.stdout, 'stdout', 'info');
      output.pipe(handle.stderr, 'stderr', 'warn');
      handle.onMessage((raw) => this.onMessage(record, raw));
      handle.onProtocolError((detail) => this.finish(record, 'failed', 'failed', `It broke the protocol: ${detail}`));
      handle.onExit((code, signal) => this.onExit(record, code, signal));
      this.announce(record);
      this.arm(record, clamp(options.startupTimeoutMs, 15_000, 1_000), () => this.finish(record, 'timed_out', 'timed_out', 'Backend process startup timed out'));
      const init = { processId, entry, kind, ...(key ? { key } : {}), ...(has.payload ? { payload: options.payload } : {}), ...(has.metadata ? { metadata: options.metadata! } : {}), userId: LOCAL_USER_ID };
      handle.send({ type: 'child_init', process: init, entryPath, extensionPath: this.options.extensionPath });
      this.options.log('info', `Backend process ${kind} (${processId}) starting (pid ${handle.pid ?? '?'}).`);
    });
  }

  list(filter: SpindleParams<'backendProcesses.list'>['filter'] = {}): BackendProcessInfo[] {
    return [...this.records.values()]
      .map((record) => record.info)
      .filter((info) => (!filter.userId || info.userId === filter.userId) && (!filter.kind || info.kind === filter.kind) && (!filter.key || info.key === filter.key) && (!filter.state || info.state === filter.state))
      .map((info) => ({ ...info }));
  }

  get(processId: string): BackendProcessInfo | null {
    const record = this.records.get(processId);
    return record ? { ...record.info } : null;
  }

  /** Fire and forget: an unknown process or a payload outside the grammar is dropped (and said in the log). */
  send(processId: string, payload: unknown): void {
    const record = this.records.get(processId);
    if (!record) return;
    const problem = managedValueProblem(payload, 'payload');
    if (problem) return this.options.log('warn', `backendProcesses.send dropped a message: ${problem}`);
    record.handle.send({ type: 'child_message', payload });
  }

  /** Asks the child to stop; one that has not ended after the grace is killed and marked stopped. */
  stop(processId: string, reason: string | undefined): void {
    const record = this.records.get(processId);
    if (!record) return;
    if (record.info.state === 'starting' || record.info.state === 'running') {
      this.transition(record, 'stopping');
      this.arm(record, PROCESS_STOP_GRACE_MS, () => this.finish(record, 'stopped', 'stopped', 'Backend process force-stopped after stop timeout'));
    }
    record.handle.send({ type: 'child_stop', ...(reason !== undefined ? { reason } : {}) });
  }

  /** The resident memory of its children together (null where it cannot be read): the worker's cap covers them. */
  residentBytes(): number {
    let bytes = 0;
    for (const record of this.records.values()) bytes += record.handle.residentBytes() ?? 0;
    return bytes;
  }

  /** The worker is gone (or replaced): every child is killed and marked stopped. */
  stopAll(reason: BackendProcessExitReason = 'backend_unloaded'): void {
    for (const record of [...this.records.values()]) this.finish(record, 'stopped', reason);
  }

  private replace(key: string, kind: string, replaceExisting: boolean): void {
    const existing = this.records.get(this.keys.get(`${LOCAL_USER_ID}:${kind}:${key}`) ?? '');
    if (!existing) return;
    if (!replaceExisting) throw failure('CONFLICT', `Backend process already exists for kind "${kind}" and key "${key}".`, '/options/key');
    this.finish(existing, 'stopped', 'replaced', undefined, 'Backend process was replaced before it became ready');
  }

  private onMessage(record: Managed, raw: Record<string, unknown>): void {
    if (!this.records.has(record.info.processId)) return;
    if (this.options.flooded()) return this.finish(record, 'failed', 'failed', `Its extension's worker and processes sent more than ${MAX_WORKER_MESSAGES_PER_SECOND} messages within one second.`);
    const read = readMessage<ChildToHostMessage>(CHILD_TO_HOST, raw);
    if (!read.ok) return this.options.log('warn', `Ignored a malformed message from backend process ${record.info.kind}: ${read.reason}.`);
    const message = read.message;
    if (message.type === 'log') return this.options.log(message.level, `[${record.info.kind}] ${message.message}`);
    if (message.type === 'child_fail') return this.finish(record, 'failed', 'failed', clipUtf8(message.error.trim(), PROCESS_FIELD_BYTES.error) || 'Backend process failed');
    if (message.type === 'child_message') {
      const problem = managedValueProblem(message.payload, 'payload');
      if (problem) return this.options.log('warn', `Backend process ${record.info.kind} sent a message that was dropped: ${problem}`);
      return this.options.notify({ type: 'process_message', processId: record.info.processId, payload: message.payload, userId: LOCAL_USER_ID });
    }
    const now = this.now();
    if (message.signal === 'ready' && record.info.state === 'starting') {
      this.transition(record, 'running', { readyAt: now, lastHeartbeatAt: now });
      record.spawned?.resolve({ ...record.info });
      record.spawned = null;
      this.heartbeat(record);
    } else if (message.signal === 'heartbeat' && record.info.state === 'running') {
      this.transition(record, 'running', { lastHeartbeatAt: now });
      this.heartbeat(record);
    } else if (message.signal === 'complete') this.finish(record, 'completed', 'completed', undefined, 'Backend process completed before it became ready');
    else if (message.signal === 'stopped') this.finish(record, 'stopped', 'stopped', undefined, 'Backend process stopped before it became ready');
  }

  private onExit(record: Managed, code: number | null, signal: string | null): void {
    if (!this.records.has(record.info.processId)) return;
    if (record.info.state === 'stopping') return this.finish(record, 'stopped', 'stopped');
    this.finish(record, 'failed', 'failed', `Backend process exited (code=${code ?? 'null'}, signal=${signal ?? 'null'})`);
  }

  private heartbeat(record: Managed): void {
    if (record.heartbeatMs > 0) this.arm(record, record.heartbeatMs, () => this.finish(record, 'timed_out', 'timed_out', 'Backend process heartbeat timed out'));
    else this.disarm(record);
  }

  /**
   * Its end: the watchdogs cleared, the process killed (a finished child exits by itself; this reaps one that did not),
   * the parent told, the record gone. A spawn still waiting is refused with `early` or the error.
   */
  private finish(record: Managed, state: 'stopped' | 'completed' | 'failed' | 'timed_out', exitReason: BackendProcessExitReason, error?: string, early?: string): void {
    if (!this.records.delete(record.info.processId)) return;
    const { kind, key } = record.info;
    if (key && this.keys.get(`${LOCAL_USER_ID}:${kind}:${key}`) === record.info.processId) this.keys.delete(`${LOCAL_USER_ID}:${kind}:${key}`);
    this.disarm(record);
    record.handle.kill();
    this.transition(record, state, { endedAt: this.now(), exitReason, ...(error ? { error } : {}) });
    if (record.spawned) {
      const why = error ?? early ?? `Backend process ${state} before it became ready`;
      record.spawned.reject(failure(state === 'timed_out' ? 'PROCESS_TIMEOUT' : 'PROCESS_FAILED', why));
      record.spawned = null;
    }
    this.options.log(state === 'failed' || state === 'timed_out' ? 'warn' : 'info', `Backend process ${kind} (${record.info.processId}) ${state}${error ? `: ${error}` : ''}.`);
  }

  private transition(record: Managed, state: BackendProcessState, extras: Partial<BackendProcessInfo> = {}): void {
    const previousState = record.info.state;
    record.info = { ...record.info, ...extras, state };
    this.announce(record, previousState);
  }

  private announce(record: Managed, previousState?: BackendProcessState): void {
    const { processId, entry, kind, key, userId, state, exitReason, error, metadata } = record.info;
    const at = record.info.endedAt ?? record.info.lastHeartbeatAt ?? record.info.readyAt ?? record.info.startedAt;
    const event = { processId, entry, kind, ...(key ? { key } : {}), ...(userId ? { userId } : {}), state, ...(previousState ? { previousState } : {}), at, ...(exitReason ? { exitReason } : {}), ...(error ? { error } : {}), ...(metadata ? { metadata } : {}) };
    this.options.notify({ type: 'process_lifecycle', event });
  }

  private arm(record: Managed, ms: number, fire: () => void): void {
    this.disarm(record);
    record.timer = this.options.timers.setTimeout(fire, ms);
  }

  private disarm(record: Managed): void {
    if (record.timer !== null) this.options.timers.clearTimeout(record.timer);
    record.timer = null;
  }

  private now(): string {
    return new Date(this.options.clock.now()).toISOString();
  }
}
