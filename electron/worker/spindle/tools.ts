// spindle.registerTool / unregisterTool, and running a call through the TOOL_INVOCATION (or TOOL_SIMULATION) handlers.
//
// As Lumiverse does: every handler runs, one after another, and the first value that is not
// undefined or null is the result; a throw fails the call. Handlers are called
// `(payload, userId, { signal })`: Lumiverse passes the payload (and the user id to other events);
// the third argument carries the call's AbortSignal, which fires when the host cancels the call.
import {
  MAX_REGISTRATION_BYTES,
  MAX_RESULT_BYTES,
  toWorkerToolError,
  utf8ByteLength,
  type CancelReason,
  type ToolInvocationResultMessage,
  type WorkerToHostMessage,
} from '../../../shared/protocol';
import type { ToolInvocationPayloadDTO, ToolRegistrationDTO } from '../../../shared/types/spindle';
import { CallSignals } from './call-signals';
import type { EventHandlers } from './events';

/** Placeholder a write tool returns in simulation when it has no TOOL_SIMULATION handler (orchestrator seed). */
export const SIMULATION_PLACEHOLDER = Object.freeze({ ok: true, simulated: true, unvalidated: true });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a handler's AbortSignal gives as its reason when the host cancels the call (`what` names the call). */
export function abortReason(reason: CancelReason, what = 'tool call'): Error {
  const messages: Record<CancelReason, [string, string]> = {
    timeout: [`The ${what} passed its deadline.`, 'TimeoutError'],
    cancelled: [`The ${what} was cancelled.`, 'AbortError'],
    permission_revoked: [what === 'tool call' ? "The extension's tools permission was revoked." : "A permission the call needs was revoked.", 'AbortError'],
    shutdown: ['The extension is shutting down.', 'AbortError'],
  };
  const [message, name] = messages[reason] ?? messages.cancelled;
  return new DOMException(message, name);
}

type Result = ToolInvocationResultMessage;

function failure(requestId: string, code: string, message: string, hint: string): Result {
  return { type: 'tool_invocation_result', requestId, ok: false, error: { code, message, hint } };
}

/**
 * A handler's value as the host receives it: the model's text (a string as it is, anything else as JSON), within the
 * size cap. This is the value's one serialization; the text crosses the pipe as it is (see framing.ts).
 */
export function answer(requestId: string, value: unknown): Result {
  return typeof value === 'string' ? sized(requestId, value) : answerJson(requestId, value);
}

/** A pipeline handler's value, always as JSON (the host parses it back, once). */
export function answerJson(requestId: string, value: unknown): Result {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (err) {
    return failure(requestId, 'INVALID_RESULT', `The tool returned a value that is not JSON (${err instanceof Error ? err.message : String(err)}).`, 'Return a string or plain JSON data.');
  }
  if (json === undefined) return failure(requestId, 'INVALID_RESULT', `The tool returned a value that is not JSON (a ${typeof value}).`, 'Return a string or plain JSON data.');
  return sized(requestId, json);
}

function sized(requestId: string, text: string): Result {
  const bytes = utf8ByteLength(text);
  if (bytes <= MAX_RESULT_BYTES) return { type: 'tool_invocation_result', requestId, ok: true, text };
  return failure(requestId, 'RESULT_TOO_LARGE', `The tool result is ${bytes} bytes; the limit is ${MAX_RESULT_BYTES} bytes.`, 'Return a summary or a smaller page of results.');
}

const toolCallWords = (reason: CancelReason) => abortReason(reason);

export class ToolCalls {
  constructor(
    private readonly events: EventHandlers,
    private readonly userId: string,
    private readonly send: (message: WorkerToHostMessage) => void,
    /** The worker's calls' signals, shared with its provider calls (call-signals.ts). */
    private readonly signals = new CallSignals(),
  ) {}

  registerTool(tool: ToolRegistrationDTO): void {
    if (!isRecord(tool)) throw new TypeError('spindle.registerTool expects a ToolRegistrationDTO object.');
    let json: string;
    try {
      json = JSON.stringify(tool);
    } catch (err) {
      throw new TypeError(`spindle.registerTool: the tool is not JSON-serializable (${(err as Error).message}).`);
    }
    if (utf8ByteLength(json) > MAX_REGISTRATION_BYTES) throw new RangeError(`spindle.registerTool: the registration is larger than ${MAX_REGISTRATION_BYTES} bytes.`);
    // The host decides (permission, registry validation) and answers with PERMISSION_DENIED or ERROR.
    this.send({ type: 'register_tool', tool: JSON.parse(json) as ToolRegistrationDTO });
  }

  unregisterTool(name: string): void {
    if (typeof name !== 'string') throw new TypeError('spindle.unregisterTool expects a tool name.');
    this.send({ type: 'unregister_tool', name });
  }

  async invoke(kind: 'invocation' | 'simulation', payload: ToolInvocationPayloadDTO): Promise<Result> {
    const { requestId } = payload;
    const handlers = this.events.list(kind === 'simulation' ? 'TOOL_SIMULATION' : 'TOOL_INVOCATION');
    if (handlers.length === 0) {
      if (kind === 'simulation') return answer(requestId, { ...SIMULATION_PLACEHOLDER });
      return failure(requestId, 'TOOL_ERROR', 'The extension has no TOOL_INVOCATION handler.', "Call spindle.on('TOOL_INVOCATION', handler) when the extension loads.");
    }
    const context = { signal: this.signals.begin(requestId, toolCallWords) };
    try {
      let result: unknown;
      for (const handler of handlers) {
        const value: unknown = await handler(payload, this.userId, context);
        if (result === undefined && value !== undefined && value !== null) result = value;
      }
      return answer(requestId, result ?? '');
    } catch (err) {
      return { type: 'tool_invocation_result', requestId, ok: false, error: toWorkerToolError(err) };
    } finally {
      this.signals.end(requestId);
    }
  }

  cancel(requestId: string, reason: CancelReason): void {
    this.signals.cancel(requestId, reason);
  }
}
