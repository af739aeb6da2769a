// Host ⇄ extension-worker messages, shaped after the Spindle seed, and the parser the host uses on worker input.
import type { HostError } from '../errors';
import type {
  ExtensionManifest,
  ExtensionPermission,
  ToolInvocationPayloadDTO,
  ToolRegistrationDTO,
} from '../types/spindle';
import { MAX_LOG_MESSAGE_CHARS, MAX_ERROR_TEXT_CHARS } from './limits';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** The structured error a tool handler can throw (orchestrator seed: `Object.assign(new Error(m), { code, hint })`). */
export interface WorkerToolError {
  code: string;
  message: string;
  hint?: string;
}

// ---- worker → host ----

export interface ReadyMessage {
  type: 'ready';
  /** The worker runs under Node's permission model (file, process and thread access confined). */
  contained?: boolean;
  /** The worker sees no network interface: it runs in a network namespace of its own. */
  networkIsolated?: boolean;
}
export interface RegisterToolMessage {
  type: 'register_tool';
  /** As the extension passed it; the host's registry validates it. */
  tool: ToolRegistrationDTO;
}
export interface UnregisterToolMessage {
  type: 'unregister_tool';
  name: string;
}
/**
 * A call's answer. `text` is what the model reads for a tool call (a string result as it is, any other value as
 * JSON) and the JSON of the value for a pipeline call: serialized once in the worker, never re-serialized on the way.
 */
export type ToolInvocationResultMessage =
  | { type: 'tool_invocation_result'; requestId: string; ok: true; text: string }
  | { type: 'tool_invocation_result'; requestId: string; ok: false; error: WorkerToolError };
export interface LogMessage {
  type: 'log';
  level: LogLevel;
  message: string;
}
/** The answer to `ping`; a blocked event loop cannot send it. */
export interface HeartbeatMessage {
  type: 'heartbeat';
  seq?: number;
}

/**
 * A `spindle.*` call the host answers (`method` such as `generate.quiet` or `storage.read`); `params`
 * are checked by the host. Answered with one `response`.
 */
export interface HostRequestMessage {
  type: 'request';
  requestId: string;
  method: string;
  params: unknown;
}
/** The extension no longer wants the answer (its AbortSignal fired); the host stops the work. */
export interface HostRequestCancelMessage {
  type: 'request_cancel';
  requestId: string;
}

/**
 * The notification events the extension has `spindle.on` handlers for, all of them, sent before `ready` and again
 * whenever the set changes: the host sends a worker only those (a token stream is not copied into every process).
 */
export interface EventsWantedMessage {
  type: 'events_wanted';
  events: string[];
}

export type WorkerToHostMessage =
  | ReadyMessage
  | EventsWantedMessage
  | RegisterToolMessage
  | UnregisterToolMessage
  | ToolInvocationResultMessage
  | LogMessage
  | HeartbeatMessage
  | HostRequestMessage
  | HostRequestCancelMessage;

// ---- host → worker ----

export interface InitMessage {
  type: 'init';
  manifest: ExtensionManifest;
  granted: ExtensionPermission[];
  /** Absolute folder of the installed extension; `manifest.main` is relative to it. */
  extensionPath: string;
}
export interface ToolInvocationMessage {
  type: 'tool_invocation';
  payload: ToolInvocationPayloadDTO;
  /** The chat context's number: see CallContextRef. */
  context?: number;
}
/** Dry run of a write tool (orchestrator seed's `simulate`); answered with `tool_invocation_result`. */
export interface ToolSimulationMessage {
  type: 'tool_simulation';
  payload: ToolInvocationPayloadDTO;
  context?: number;
}
/**
 * A council cycle gives every member's tool the same chat context (`contextMessages` and the
 * flattened `args.context`). A call numbers its context: the first call with a context carries it
 * and the worker keeps it (one at a time); a later call with the same number leaves it out
 * (`contextMessages` absent, `args.context` null) and the worker fills in a fresh copy of each
 * before extension code sees the payload. A new context simply replaces the kept one.
 */
export type CallContextRef = number;
export type CancelReason = 'timeout' | 'cancelled' | 'permission_revoked' | 'shutdown';
export interface CancelMessage {
  type: 'cancel';
  requestId: string;
  reason: CancelReason;
}
export interface PermissionDeniedMessage {
  type: 'permission_denied';
  permission: ExtensionPermission;
  operation: string;
}
export interface PermissionsChangedMessage {
  type: 'permissions_changed';
  granted: ExtensionPermission[];
}
/** A host-side failure of something the worker asked for, e.g. a registration the registry refused. */
export interface HostErrorMessage {
  type: 'error';
  operation: string;
  error: HostError;
}
/** One piece of a streamed answer (spindle.generate.rawStream), before its final `response`. */
export interface HostResponseChunkMessage {
  type: 'response_chunk';
  requestId: string;
  chunk: unknown;
}
/**
 * Runs one prompt-pipeline handler the extension registered (an interceptor, a context handler, a
 * macro's handler…) with `args`; answered with `tool_invocation_result`, under the same deadline,
 * cancel and size rules as a tool call.
 */
export interface PipelineCallMessage {
  type: 'pipeline_call';
  requestId: string;
  kind: string;
  id: string;
  args: unknown[];
}
/** A notification event (GENERATION_STARTED, MESSAGE_SENT…) for the extension's `spindle.on` handlers. */
export interface EventMessage {
  type: 'event';
  event: string;
  payload: unknown;
}
/** A message for the extension's onFrontendMessage handlers (from the Workbench's frontend console). */
export interface FrontendMessage {
  type: 'frontend_message';
  payload: unknown;
}
/** The answer to a `request`: its value, or a redacted error. */
export type HostResponseMessage =
  | { type: 'response'; requestId: string; ok: true; value: unknown }
  | { type: 'response'; requestId: string; ok: false; error: HostError };
export interface PingMessage {
  type: 'ping';
  seq: number;
}
export interface ShutdownMessage {
  type: 'shutdown';
}

export type HostToWorkerMessage =
  | InitMessage
  | ToolInvocationMessage
  | ToolSimulationMessage
  | CancelMessage
  | PermissionDeniedMessage
  | PermissionsChangedMessage
  | HostErrorMessage
  | HostResponseMessage
  | HostResponseChunkMessage
  | FrontendMessage
  | PipelineCallMessage
  | EventMessage
  | PingMessage
  | ShutdownMessage;

// ---- parsing untrusted worker input ----

/** Codes an extension may use for its own errors: upper snake case, like the host's. */
export const WORKER_ERROR_CODE = /^[A-Z][A-Z0-9_]{0,63}$/;
/** Request ids the protocol carries: 1–128 printable ASCII characters, no spaces. */
export const REQUEST_ID_PATTERN = /^[\x21-\x7e]{1,128}$/;
/** Host methods a worker may ask for: `namespace.name` in camel case, e.g. `storage.readBinary`. */
export const METHOD_PATTERN = /^[a-z][A-Za-z0-9_]{0,40}(\.[a-z][A-Za-z0-9_]{0,40}){1,2}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/**
 * Normalises whatever an extension threw into `{ code, message, hint }`. Codes that are not upper
 * snake case become TOOL_ERROR; texts are clipped.
 */
export function toWorkerToolError(thrown: unknown, fallbackCode = 'TOOL_ERROR'): WorkerToolError {
  const record = isRecord(thrown) || thrown instanceof Error ? (thrown as Record<string, unknown>) : undefined;
  const rawMessage = record && typeof record.message === 'string' ? record.message : String(thrown);
  const code = record && typeof record.code === 'string' && WORKER_ERROR_CODE.test(record.code) ? record.code : fallbackCode;
  const error: WorkerToolError = { code, message: clip(rawMessage || 'The tool failed.', MAX_ERROR_TEXT_CHARS) };
  if (record && typeof record.hint === 'string' && record.hint !== '') error.hint = clip(record.hint, MAX_ERROR_TEXT_CHARS);
  return error;
}

/** An extension listens to at most this many distinct events (Lumiverse has about 60), each named in at most 128 characters. */
export const MAX_WANTED_EVENTS = 512;
export const MAX_EVENT_NAME_CHARS = 128;

export type ParsedWorkerMessage = { ok: true; message: WorkerToHostMessage } | { ok: false; reason: string };

/** Checks one message from a worker. The worker runs extension code, so nothing about it is trusted. */
export function parseWorkerMessage(raw: unknown): ParsedWorkerMessage {
  if (!isRecord(raw) || typeof raw.type !== 'string') return { ok: false, reason: 'not an object with a type' };
  const type = raw.type;
  switch (type) {
    case 'ready':
      return { ok: true, message: { type, contained: raw.contained === true, networkIsolated: raw.networkIsolated === true } };
    case 'heartbeat':
      return { ok: true, message: typeof raw.seq === 'number' ? { type, seq: raw.seq } : { type } };
    case 'register_tool':
      if (!isRecord(raw.tool)) return { ok: false, reason: 'register_tool without a tool object' };
      // Shape beyond "an object" is the registry's job; it reports field paths.
      return { ok: true, message: { type, tool: raw.tool as unknown as ToolRegistrationDTO } };
    case 'unregister_tool':
      if (typeof raw.name !== 'string' || raw.name.length > 256) return { ok: false, reason: 'unregister_tool without a name' };
      return { ok: true, message: { type, name: raw.name } };
    case 'log': {
      const level = LOG_LEVELS.includes(raw.level as LogLevel) ? (raw.level as LogLevel) : 'info';
      const text = typeof raw.message === 'string' ? raw.message : String(raw.message);
      return { ok: true, message: { type, level, message: clip(text, MAX_LOG_MESSAGE_CHARS) } };
    }
    case 'tool_invocation_result': {
      if (typeof raw.requestId !== 'string' || !REQUEST_ID_PATTERN.test(raw.requestId)) {
        return { ok: false, reason: 'tool_invocation_result without a valid requestId' };
      }
      if (raw.ok === true) {
        if (typeof raw.text !== 'string') return { ok: false, reason: 'tool_invocation_result without its text' };
        return { ok: true, message: { type, requestId: raw.requestId, ok: true, text: raw.text } };
      }
      if (raw.ok === false) {
        return { ok: true, message: { type, requestId: raw.requestId, ok: false, error: toWorkerToolError(raw.error) } };
      }
      return { ok: false, reason: 'tool_invocation_result without ok: true|false' };
    }
    case 'request':
      if (typeof raw.requestId !== 'string' || !REQUEST_ID_PATTERN.test(raw.requestId)) return { ok: false, reason: 'request without a valid requestId' };
      if (typeof raw.method !== 'string' || !METHOD_PATTERN.test(raw.method)) return { ok: false, reason: 'request without a valid method' };
      // The params' shape is the answering handler's job; it reports field paths.
      return { ok: true, message: { type, requestId: raw.requestId, method: raw.method, params: raw.params } };
    case 'request_cancel':
      if (typeof raw.requestId !== 'string' || !REQUEST_ID_PATTERN.test(raw.requestId)) return { ok: false, reason: 'request_cancel without a valid requestId' };
      return { ok: true, message: { type, requestId: raw.requestId } };
    case 'events_wanted': {
      const events = raw.events;
      if (!Array.isArray(events) || events.length > MAX_WANTED_EVENTS) return { ok: false, reason: `events_wanted without a list of at most ${MAX_WANTED_EVENTS} event names` };
      if (!events.every((e): e is string => typeof e === 'string' && e.length > 0 && e.length <= MAX_EVENT_NAME_CHARS)) return { ok: false, reason: 'events_wanted with an event name that is not a string of 1–128 characters' };
      return { ok: true, message: { type, events } };
    }
    default:
      return { ok: false, reason: `unknown message type "${clip(type, 40)}"` };
  }
}
