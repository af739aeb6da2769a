// Shared chat context: a council cycle's context crosses to each worker once, not once per call.
//
// Every council call carries the same chat: `payload.contextMessages` and the flattened
// `args.context` string (seed 000). Copying a few KB into each of hundreds of calls costs more than
// the calls themselves, so the host sends it to a worker once:
//
//   context_put  { contextId, contextMessages?, context? }   before the first call that uses it
//   tool_invocation / tool_simulation { payload, contextRef: contextId }
//   context_drop { contextId }                                once the host's cache evicts it
//
// A call with `contextRef` leaves `payload.contextMessages` out and, when the context has a string,
// sends `payload.args.context` as null (the key keeps its place). The worker rebuilds the payload
// before extension code sees it: `args.context` the string, `payload.contextMessages` a fresh deep
// copy per call (one call's handler mutating it cannot affect another). IPC keeps order, so a put
// always arrives before the calls that use it and a drop after them; a call resolves its reference
// when it arrives. Each WorkerHost keeps its own cache, so a restarted worker (a new WorkerHost)
// starts empty and gets a fresh put. Size caps apply per message, as for any other.
//
// The host recognises the context by identity: the council builds one `contextMessages` array per
// cycle and passes it to every call; callers must not mutate it after handing it over.
import type { LlmMessageDTO, ToolInvocationPayloadDTO } from '../types/spindle';

/** Contexts a worker holds at once; the host drops the least recently used one past this. */
export const MAX_SHARED_CONTEXTS = 4;

export interface ContextPutMessage {
  type: 'context_put';
  contextId: string;
  contextMessages?: LlmMessageDTO[];
  context?: string;
}
export interface ContextDropMessage {
  type: 'context_drop';
  contextId: string;
}

export interface SharedContext {
  contextMessages?: LlmMessageDTO[];
  context?: string;
}

/** A deep copy of plain JSON data (what arrived over IPC). */
export function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = cloneJson(value[i] as unknown);
    return copy as T;
  }
  const copy: Record<string, unknown> = {};
  for (const key in value) copy[key] = cloneJson((value as Record<string, unknown>)[key]);
  return copy as T;
}

/** Worker side: fills in what a call with `contextRef` left out, exactly as if it had come inline. */
export function expandContext(payload: ToolInvocationPayloadDTO, shared: SharedContext): ToolInvocationPayloadDTO {
  if (shared.context !== undefined && payload.args && 'context' in payload.args) payload.args.context = shared.context;
  if (shared.contextMessages) payload.contextMessages = cloneJson(shared.contextMessages);
  return payload;
}
