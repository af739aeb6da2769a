// Every message from a worker is checked against its schema (shared/protocol/worker-schemas.ts) before the host acts
// on it — a worker runs a stranger's code — then put in the host's terms: a log line clipped, an extension's error
// normalised (a code that is not upper snake case becomes TOOL_ERROR; texts clipped).
import { MAX_LOG_MESSAGE_CHARS } from '../../../../shared/protocol/limits';
import { clip, toWorkerToolError } from '../../../../shared/protocol/worker-messages';
import type { TSchema } from '@sinclair/typebox';
import { WORKER_TO_HOST, type WorkerToHostMessage } from '../../../../shared/protocol/worker-schemas';
import { schemaError } from '../../../../shared/schema-problem';

export type ReadWorkerMessage = { ok: true; message: WorkerToHostMessage } | { ok: false; reason: string };

/** A message read against its table of schemas (a worker's, or a managed backend process's), or why it is refused. */
export function readMessage<M extends { type: string }>(table: Record<string, TSchema>, raw: Record<string, unknown>): { ok: true; message: M } | { ok: false; reason: string } {
  const type = raw.type;
  if (typeof type !== 'string') return { ok: false, reason: 'not an object with a type' };
  if (!Object.hasOwn(table, type)) return { ok: false, reason: `unknown message type "${clip(type, 40)}"` };
  // TypeBox's Value, as the spindle requests the same link carries are checked: one engine for the worker link.
  const error = schemaError(table[type]!, raw);
  if (error) return { ok: false, reason: `${type} ${error.message}${error.path ? ` (at ${error.path})` : ''}` };
  const message = raw as unknown as M & { type: string; level?: unknown; message?: unknown };
  if (message.type === 'log' && typeof message.message === 'string' && message.message.length > MAX_LOG_MESSAGE_CHARS) return { ok: true, message: { ...message, message: clip(message.message, MAX_LOG_MESSAGE_CHARS) } };
  return { ok: true, message };
}

/** The message as the host acts on it, or why it is refused (for the worker's log). */
export function readWorkerMessage(raw: Record<string, unknown>): ReadWorkerMessage {
  const read = readMessage<WorkerToHostMessage>(WORKER_TO_HOST, raw);
  if (read.ok && read.message.type === 'tool_invocation_result' && !read.message.ok) return { ok: true, message: { ...read.message, error: toWorkerToolError(read.message.error) } };
  return read;
}
