// The messages of a kernel link (the browser-mode WebSocket, the CLI's app socket, the local model engine): a call by
// id, the chunks of a streaming call and its one answer, the server's events, a link-level error, the server's hello,
// and the client's cancel and subscribe.
import { isHostError, type HostError, type Result } from '../errors';

export type Invoke = { kind: 'invoke'; id: number; method: string; input: unknown };
export type Cancel = { kind: 'cancel'; id: number };
export type Subscribe = { kind: 'subscribe' };
export type ToServer = Invoke | Cancel | Subscribe;

export type Answer = { kind: 'result'; id: number; result: Result<unknown> };
/** One piece of a streaming call's output, before its answer. */
export type Chunk = { kind: 'chunk'; id: number; chunk: unknown };
export type EventMessage<E> = { kind: 'event'; event: E };
export type LinkError = { kind: 'error'; error: HostError };
/** What the server says once, first, on every connection (the host's notices, for a command's stderr). */
export type Hello = { kind: 'hello'; info: unknown };
export type ToClient<E> = Answer | Chunk | EventMessage<E> | LinkError | Hello;

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** An answer as the kernel's clients type it: a value, or a HostError (a malformed one is no answer). */
function isResult(value: unknown): value is Result<unknown> {
  const r = value as { ok?: unknown; error?: unknown } | null;
  return typeof r === 'object' && r !== null && (r.ok === true || (r.ok === false && isHostError(r.error)));
}

/** A message a client sent, or null when it is none of the kinds (the server answers with a LinkError). */
export function readToServer(value: unknown): ToServer | null {
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Record<string, unknown>;
  // Any method value: the host answers a name it does not know (or one that is no name) UNKNOWN_METHOD, by id.
  if (m.kind === 'invoke' && isId(m.id)) return { kind: 'invoke', id: m.id, method: m.method as string, input: m.input };
  if (m.kind === 'cancel' && isId(m.id)) return { kind: 'cancel', id: m.id };
  if (m.kind === 'subscribe') return { kind: 'subscribe' };
  return null;
}

/** A message the server sent, or null when it is none of the kinds (the client ignores it). */
export function readToClient<E>(value: unknown): ToClient<E> | null {
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Record<string, unknown>;
  if (m.kind === 'result' && isId(m.id) && isResult(m.result)) return m as Answer;
  if (m.kind === 'chunk' && isId(m.id)) return { kind: 'chunk', id: m.id, chunk: m.chunk };
  if (m.kind === 'event' && 'event' in m) return m as EventMessage<E>;
  if (m.kind === 'error' && typeof m.error === 'object' && m.error !== null) return m as LinkError;
  if (m.kind === 'hello') return { kind: 'hello', info: m.info };
  return null;
}
