// The calling end of a contract link: ids, pending calls, deadlines, cancel, the host's events and hello; every
// failure is an answer (a Result), never a throw. One per connection.
import type { HostError, Result } from '../errors';
import { readToClient, type ToClient, type ToServer } from './envelope';
import type { Transport } from './transport';

export interface CallOptions {
  /** Answer CANCELLED and tell the server to stop when this aborts. */
  signal?: AbortSignal;
  /** Answer HOST_TIMEOUT past this many ms (the call goes on being ignored). */
  timeoutMs?: number;
  /** A streaming call's chunks, in order, before its answer. */
  onChunk?: (chunk: unknown) => void;
}

export interface RpcClient<E> {
  call(method: string, input: unknown, options?: CallOptions): Promise<Result<unknown>>;
  /** The host's events; the first listener subscribes (a server that pushes them anyway is not asked twice). */
  onEvent(listener: (event: E) => void): () => void;
  /** The server's hello, or null when the link ended before one came. */
  readonly hello: Promise<unknown>;
  close(): void;
}

export interface ClientOptions {
  /** What a call answers when the link ends before its answer. */
  lost: HostError | ((method: string) => HostError);
  /** What a call answers past its deadline (default: HOST_TIMEOUT naming the method). */
  timedOut?: (method: string, ms: number) => HostError;
  /** Whether the server needs a subscribe message before it sends events. */
  subscribe: boolean;
  timers?: { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(handle: unknown): void };
}

interface Pending {
  method: string;
  resolve(result: Result<unknown>): void;
  onChunk?: (chunk: unknown) => void;
  timer?: unknown;
  signal?: AbortSignal;
  onAbort?: () => void;
}

const fail = (error: HostError): Result<unknown> => ({ ok: false, error });
const defaultTimedOut = (method: string, ms: number): HostError => ({ code: 'HOST_TIMEOUT', message: `${method} did not answer within ${Math.round(ms / 1000)} s.` });

export function createClient<E>(transport: Transport<unknown, ToServer>, options: ClientOptions): RpcClient<E> {
  const timers = options.timers ?? { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };
  const pending = new Map<number, Pending>();
  const listeners = new Set<(event: E) => void>();
  let nextId = 1;
  let subscribed = !options.subscribe;
  let greet: (info: unknown) => void = () => undefined;
  const hello = new Promise<unknown>((resolve) => (greet = resolve));
  const lost = (method: string) => (typeof options.lost === 'function' ? options.lost(method) : options.lost);
  const timedOut = options.timedOut ?? defaultTimedOut;

  const settle = (id: number, result: Result<unknown>) => {
    const call = pending.get(id);
    if (!call) return;
    pending.delete(id);
    if (call.timer !== undefined) timers.clearTimeout(call.timer);
    if (call.onAbort) call.signal?.removeEventListener('abort', call.onAbort);
    call.resolve(result);
  };

  transport.onMessage((value) => {
    const message = readToClient<E>(value) as ToClient<E> | null;
    if (!message) return;
    if (message.kind === 'result') settle(message.id, message.result);
    else if (message.kind === 'chunk') pending.get(message.id)?.onChunk?.(message.chunk);
    else if (message.kind === 'event') for (const listener of [...listeners]) listener(message.event);
    else if (message.kind === 'hello') greet(message.info);
  });
  transport.onClose(() => {
    greet(null);
    for (const [id, call] of [...pending]) settle(id, fail(lost(call.method)));
  });

  return {
    hello,
    call(method, input, callOptions = {}) {
      if (transport.closed) return Promise.resolve(fail(lost(method)));
      if (callOptions.signal?.aborted) return Promise.resolve(fail({ code: 'CANCELLED', message: `${method} was cancelled.` }));
      const id = nextId++;
      return new Promise((resolve) => {
        const call: Pending = { method, resolve, ...(callOptions.onChunk ? { onChunk: callOptions.onChunk } : {}) };
        if (callOptions.timeoutMs !== undefined) {
          const ms = callOptions.timeoutMs;
          call.timer = timers.setTimeout(() => {
            // The server is told to stop too (a carrier still holding the call drops it).
            if (!transport.closed) transport.send({ kind: 'cancel', id });
            settle(id, fail(timedOut(method, ms)));
          }, ms);
        }
        if (callOptions.signal) {
          call.signal = callOptions.signal;
          call.onAbort = () => {
            if (!transport.closed) transport.send({ kind: 'cancel', id });
            settle(id, fail({ code: 'CANCELLED', message: `${method} was cancelled.` }));
          };
          callOptions.signal.addEventListener('abort', call.onAbort, { once: true });
        }
        pending.set(id, call);
        try {
          transport.send({ kind: 'invoke', id, method, input });
        } catch (err) {
          // A carrier that cannot take it (structured clone refusing a function, say): an answer, never a throw.
          settle(id, fail({ code: 'INVALID_INPUT', message: `Input for ${method} cannot be sent: ${err instanceof Error ? err.message : String(err)}` }));
        }
      });
    },
    onEvent(listener) {
      listeners.add(listener);
      if (!subscribed && !transport.closed) {
        subscribed = true;
        transport.send({ kind: 'subscribe' });
      }
      return () => listeners.delete(listener);
    },
    close: () => transport.close(),
  };
}
