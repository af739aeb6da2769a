// Host ⇄ extension-worker messages, shaped after the Spindle seed: declared once as schemas in worker-schemas.ts; their
// types are re-exported here for both ends (types only: a worker never loads the schemas), with the log levels and
// how an extension's thrown error becomes a message.
import { MAX_ERROR_TEXT_CHARS, WORKER_ERROR_CODE } from './limits';
import type { LogLevel, WorkerToolError } from './worker-schemas';

export type {
  CallContextRef,
  CancelMessage,
  CancelReason,
  EventMessage,
  FrontendMessage,
  HostErrorMessage,
  HostRpcMessage,
  HostToWorkerMessage,
  InitMessage,
  PermissionDeniedMessage,
  PermissionsChangedMessage,
  PingMessage,
  PipelineCallMessage,
  ShutdownMessage,
  ToolInvocationMessage,
  ToolSimulationMessage,
  EventsWantedMessage,
  HeartbeatMessage,
  WorkerRpcMessage,
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

// ---- an extension's errors ----

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A text cut to `max` characters, saying how many more there were. */
export function clip(text: string, max: number): string {
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
