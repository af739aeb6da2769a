// The worker's calls to the host (`request` → optional `response_chunk`s → one `response`): every spindle.* method the host answers goes through here.
import { MAX_REQUEST_CHARS, REQUEST_ID_PATTERN, type HostResponseChunkMessage, type HostResponseMessage, type WorkerToHostMessage } from '../../shared/protocol';

/** An Error an extension can inspect: `code`, and `hint` / `path` when the host gave them. */
export function hostErrorToError(error: unknown): Error {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; message?: unknown; hint?: unknown; path?: unknown };
  const code = typeof e.code === 'string' ? e.code : 'INTERNAL';
  const message = typeof e.message === 'string' ? e.message : 'The host could not do that.';
  // Lumiverse prefixes permission failures so extensions can tell them from runtime ones.
  const out = Object.assign(new Error(code === 'PERMISSION_DENIED' && !message.startsWith('PERMISSION_DENIED:') ? `PERMISSION_DENIED: ${message}` : message), { code });
  if (typeof e.hint === 'string') Object.assign(out, { hint: e.hint });
  if (typeof e.path === 'string') Object.assign(out, { path: e.path });
  return out;
}

export interface HostRequests {
  /** Asks the host; rejects with the host's error, or with the signal's reason when it aborts first. */
  call(method: string, params: unknown, signal?: AbortSignal): Promise<unknown>;
  /** Asks the host for a stream: every `response_chunk` is yielded, the final response ends it. */
  stream(method: string, params: unknown, signal?: AbortSignal): AsyncGenerator<unknown, void, void>;
  onResponse(message: HostResponseMessage): void;
  onChunk(message: HostResponseChunkMessage): void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  chunk?(value: unknown): void;
}

export function createHostRequests(send: (message: WorkerToHostMessage) => void): HostRequests {
  const pending = new Map<string, Pending>();
  let seq = 0;

  function start(method: string, params: unknown, signal: AbortSignal | undefined, chunk?: (value: unknown) => void): Promise<unknown> {
    const cancelled = () => (signal?.reason instanceof Error ? signal.reason : new DOMException('The request was cancelled.', 'AbortError'));
    if (signal?.aborted) return Promise.reject(cancelled());
    let size: number;
    try {
      size = JSON.stringify(params ?? null).length;
    } catch (err) {
      return Promise.reject(hostErrorToError({ code: 'INVALID_INPUT', message: `${method}: the arguments are not JSON data (${(err as Error).message}).` }));
    }
    if (size > MAX_REQUEST_CHARS) {
      return Promise.reject(hostErrorToError({ code: 'INPUT_TOO_LARGE', message: `${method}: the arguments are ${size} characters of JSON; the limit is ${MAX_REQUEST_CHARS}.` }));
    }
    const requestId = `r${++seq}`;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (!pending.delete(requestId)) return;
        send({ type: 'request_cancel', requestId });
        reject(cancelled());
      };
      const done = () => signal?.removeEventListener('abort', onAbort);
      pending.set(requestId, {
        resolve: (value) => (done(), resolve(value)),
        reject: (error) => (done(), reject(error)),
        ...(chunk ? { chunk } : {}),
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      send({ type: 'request', requestId, method, params });
    });
  }

  return {
    call: (method, params, signal) => start(method, params, signal),
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
    onResponse(message) {
      if (typeof message.requestId !== 'string' || !REQUEST_ID_PATTERN.test(message.requestId)) return;
      const waiting = pending.get(message.requestId);
      if (!waiting) return;
      pending.delete(message.requestId);
      if (message.ok) waiting.resolve(message.value);
      else waiting.reject(hostErrorToError(message.error));
    },
    onChunk(message) {
      pending.get(message.requestId)?.chunk?.(message.chunk);
    },
  };
}
