// Every message from a worker is checked against its schema (shared/protocol/worker-schemas.ts) before the host acts
// on it — a worker runs a stranger's code — then put in the host's terms: a log line clipped, an extension's error
// normalised (a code that is not upper snake case becomes TOOL_ERROR; texts clipped).
import { MAX_LOG_MESSAGE_CHARS } from '../../../../shared/protocol/limits';
import { clip, toWorkerToolError } from '../../../../shared/protocol/worker-messages';
import { WORKER_TO_HOST, type WorkerToHostMessage, type WorkerToHostType } from '../../../../shared/protocol/worker-schemas';
import { describeAjvError, lazyValidator, type Validator } from '../../contract/validators';

export type ReadWorkerMessage = { ok: true; message: WorkerToHostMessage } | { ok: false; reason: string };

const validators = new Map<WorkerToHostType, Validator<WorkerToHostMessage>>();

function validatorOf(type: WorkerToHostType): Validator<WorkerToHostMessage> {
  let validate = validators.get(type);
  if (!validate) validators.set(type, (validate = lazyValidator<WorkerToHostMessage>(WORKER_TO_HOST[type])));
  return validate;
}

/** The message as the host acts on it, or why it is refused (for the worker's log). */
export function readWorkerMessage(raw: Record<string, unknown>): ReadWorkerMessage {
  const type = raw.type;
  if (typeof type !== 'string') return { ok: false, reason: 'not an object with a type' };
  if (!Object.hasOwn(WORKER_TO_HOST, type)) return { ok: false, reason: `unknown message type "${clip(type, 40)}"` };
  const validate = validatorOf(type as WorkerToHostType);
  if (!validate(raw)) {
    const { message, path } = describeAjvError(validate.errors?.[0], 'it does not match its schema');
    return { ok: false, reason: `${type} ${message}${path && path !== '/' ? ` (at ${path})` : ''}` };
  }
  const message = raw as WorkerToHostMessage;
  if (message.type === 'log' && message.message.length > MAX_LOG_MESSAGE_CHARS) return { ok: true, message: { ...message, message: clip(message.message, MAX_LOG_MESSAGE_CHARS) } };
  if (message.type === 'tool_invocation_result' && !message.ok) return { ok: true, message: { ...message, error: toWorkerToolError(message.error) } };
  return { ok: true, message };
}
