// Every message from a worker is checked against its schema (shared/protocol/worker-schemas.ts) before the host acts
// on it — a worker runs a stranger's code — then put in the host's terms: a log line clipped, an extension's error
// normalised (a code that is not upper snake case becomes TOOL_ERROR; texts clipped).
import { MAX_LOG_MESSAGE_CHARS } from '../../../../shared/protocol/limits';
import { clip, toWorkerToolError } from '../../../../shared/protocol/worker-messages';
import { WORKER_TO_HOST, type WorkerToHostMessage, type WorkerToHostType } from '../../../../shared/protocol/worker-schemas';
import { schemaError } from '../../../../shared/schema-problem';

export type ReadWorkerMessage = { ok: true; message: WorkerToHostMessage } | { ok: false; reason: string };

/** The message as the host acts on it, or why it is refused (for the worker's log). */
export function readWorkerMessage(raw: Record<string, unknown>): ReadWorkerMessage {
  const type = raw.type;
  if (typeof type !== 'string') return { ok: false, reason: 'not an object with a type' };
  if (!Object.hasOwn(WORKER_TO_HOST, type)) return { ok: false, reason: `unknown message type "${clip(type, 40)}"` };
  // TypeBox's Value, as the spindle requests the same link carries are checked: one engine for the worker link.
  const error = schemaError(WORKER_TO_HOST[type as WorkerToHostType], raw);
  if (error) return { ok: false, reason: `${type} ${error.message}${error.path ? ` (at ${error.path})` : ''}` };
  const message = raw as WorkerToHostMessage;
  if (message.type === 'log' && message.message.length > MAX_LOG_MESSAGE_CHARS) return { ok: true, message: { ...message, message: clip(message.message, MAX_LOG_MESSAGE_CHARS) } };
  if (message.type === 'tool_invocation_result' && !message.ok) return { ok: true, message: { ...message, error: toWorkerToolError(message.error) } };
  return { ok: true, message };
}
