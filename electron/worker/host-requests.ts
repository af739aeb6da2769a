// The worker's calls to the host: every spindle.* method the host answers, on the RPC kernel's client (ids, cancel,
// a stream's chunks before its answer), carried in `rpc` messages on the worker's one channel. The contract is imported
// for its types only, so no schema library loads in a worker.
import type { Static } from '@sinclair/typebox';
import { MAX_REQUEST_CHARS, type WorkerToHostMessage } from '../../shared/protocol';
import { createClient } from '../../shared/rpc/client';
import type { ToServer } from '../../shared/rpc/envelope';
import { fedTransport, type FedTransport } from '../../shared/rpc/fed-transport';
import type { SPINDLE_REQUESTS, SpindleMethod, SpindleParams } from '../../shared/spindle/requests';
import type { Sent } from './host-port';

/** An Error an extension can inspect: `code`, and `hint` / `path` when the host gave them. */
export function hostErrorToError(error: unknown): Error {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; message?: unknown; hint?: unknown; path?: unknown; detail?: unknown };
  const code = typeof e.code === 'string' ? e.code : 'INTERNAL';
  const message = typeof e.message === 'string' ? e.message : 'The host could not do that.';
  // Lumiverse prefixes permission failures so extensions can tell them from runtime ones.
  const out = Object.assign(new Error(code === 'PERMISSION_DENIED' && !message.startsWith('PERMISSION_DENIED:') ? `PERMISSION_DENIED: ${message}` : message), { code });
  if (typeof e.hint === 'string') Object.assign(out, { hint: e.hint });
  if (typeof e.path === 'string') Object.assign(out, { path: e.path });
  // Lumiverse's errors carry fields callers match on (a preset conflict's actualCacheRevision): plain values only,
  // never over the error's own code and message.
  if (typeof e.detail === 'object' && e.detail !== null) {
    for (const [key, value] of Object.entries(e.detail)) if ((typeof value === 'string' || typeof value === 'number') && !(key in out)) Object.assign(out, { [key]: value });
  }
  return out;
}

/** What crosses for a method: its params, or `{ args }` for one an extension calls with positional arguments. */
export type WireParams<M extends SpindleMethod> = SpindleParams<M> | { args: unknown[] };
/** What the host answers a method, as its contract declares it. */
export type SpindleAnswer<M extends SpindleMethod> = Static<(typeof SPINDLE_REQUESTS)[M]['result']>;

export interface HostRequests {
  /** Asks the host; rejects with the host's error, or with the signal's reason when it aborts first. */
  call<M extends SpindleMethod>(method: M, params: WireParams<M>, signal?: AbortSignal): Promise<SpindleAnswer<M>>;
  /** Asks the host for a stream: every chunk is yielded, the answer ends it. */
  stream<M extends SpindleMethod>(method: M, params: WireParams<M>, signal?: AbortSignal): AsyncGenerator<unknown, void, void>;
  /** An `rpc` message from the host (the kernel's envelope). */
  receive(envelope: unknown): void;
}

const LOST = { code: 'HOST_SHUTDOWN', message: 'The host went away before it answered.' };

/** The worker's end of the link: `rpc` messages out through `post`, which says when it could not carry one. */
function rpcLane(post: (message: WorkerToHostMessage, maxChars: number) => Sent): FedTransport<unknown, ToServer> {
  // The worker exits with its host (host-port.ts), so the link never ends before it.
  const lane: FedTransport<unknown, ToServer> = fedTransport<unknown, ToServer>({
    send(envelope) {
      const sent = post({ type: 'rpc', message: envelope }, MAX_REQUEST_CHARS);
      if (sent.ok || envelope.kind !== 'invoke') return;
      // Refused before it left, from the frame already made: the host never sees a frame over its cap.
      const [code, message] =
        sent.reason === 'not-json'
          ? ['INVALID_INPUT', `${envelope.method}: the arguments are not JSON data (${sent.detail}).`]
          : ['INPUT_TOO_LARGE', `${envelope.method}: the request is ${sent.chars} characters of JSON; the limit is ${MAX_REQUEST_CHARS}.`];
      lane.deliver({ kind: 'result', id: envelope.id, result: { ok: false, error: { code, message } } }, 0);
    },
    close: () => undefined,
  });
  return lane;
}

export function createHostRequests(post: (message: WorkerToHostMessage, maxChars: number) => Sent): HostRequests {
  const lane = rpcLane(post);
  const client = createClient<never>(lane.transport, { lost: LOST, subscribe: false });

  async function start(method: string, params: unknown, signal: AbortSignal | undefined, onChunk?: (value: unknown) => void): Promise<unknown> {
    const result = await client.call(method, params, { ...(signal ? { signal } : {}), ...(onChunk ? { onChunk } : {}) });
    if (result.ok) return result.value;
    if (result.error.code === 'CANCELLED' && signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new DOMException('The request was cancelled.', 'AbortError');
    throw hostErrorToError(result.error);
  }

  return {
    call: (method, params, signal) => start(method, params, signal) as Promise<never>,
    async *stream(method, params, signal) {
      const queue: unknown[] = [];
      let wake: (() => void) | null = null;
      let finished = false;
      let failure: Error | null = null;
      const done = start(method, params, signal, (value) => {
        queue.push(value);
        wake?.();
      }).then(
        () => {
          finished = true;
          wake?.();
        },
        (err: Error) => {
          failure = err;
          finished = true;
          wake?.();
        },
      );
      for (;;) {
        if (queue.length) {
          yield queue.shift();
          continue;
        }
        if (finished) break;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
      await done;
      if (failure) throw failure;
    },
    receive: (envelope) => lane.deliver(envelope, 0),
  };
}
