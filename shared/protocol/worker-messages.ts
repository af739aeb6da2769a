// Host ⇄ extension-worker messages, shaped after the Spindle seed. What a worker says is declared as schemas in
// worker-schemas.ts (the host validates it there); what the host says is typed here (the worker trusts its host).
import type { HostError } from '../errors';
import type {
  ExtensionManifest,
  ExtensionPermission,
  ToolInvocationPayloadDTO,
} from '../types/spindle';
import { MAX_ERROR_TEXT_CHARS, WORKER_ERROR_CODE } from './limits';
import type { LogLevel, WorkerToolError } from './worker-schemas';

export type {
  EventsWantedMessage,
  HeartbeatMessage,
  HostRequestCancelMessage,
  HostRequestMessage,
  LogLevel,
  LogMessage,
  ReadyMessage,
  RegisterToolMessage,
  ToolInvocationResultMessage,
  UnregisterToolMessage,
  WorkerToHostMessage,
  WorkerToolError,
} from './worker-schemas';

export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

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

// ---- an extension's errors ----

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
