// The worker's calls to the host (`request` → one `response`): every spindle.* method the host answers goes through here.
import { MAX_REQUEST_CHARS, REQUEST_ID_PATTERN, type HostResponseMessage, type WorkerToHostMessage } from '../../shared/protocol';

/** An Error an extension can inspect: `code`, and `hint` / `path` when the host gave them. */
export function hostErrorToError(error: unknown): Error {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; message?: unknown; hint?: unknown; path?: unknown };
  const out = Object.assign(new Error(typeof e.message === 'string' ? e.message : 'The host could not do that.'), { code: typeof e.code === 'string' ? e.code : 'INTERNAL' });
  if (typeof e.hint === 'string') Object.assign(out, { hint: e.hint });
  if (typeof e.path === 'string') Object.assign(out, { path: e.path });
  return out;
}

export interface HostRequests {
  /** Asks the host; rejects with the host's error, or with the signal's reason when it aborts first. */
  call(method: string, params: unknown, signal?: AbortSignal): Promise<unknown>;
  onResponse(message: HostResponseMessage): void;
}

export function createHostRequests(send: (message: WorkerToHostMessage) => void): HostRequests {
  const pending = new Map<string, { resolve(value: unknown): void; reject(error: Error): void }>();
  let seq = 0;
  return {
    call(method, params, signal) {
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
        });
        signal?.addEventListener('abort', onAbort, { once: true });
        send({ type: 'request', requestId, method, params });
      });
    },
    onResponse(message) {
      if (typeof message.requestId !== 'string' || !REQUEST_ID_PATTERN.test(message.requestId)) return;
      const waiting = pending.get(message.requestId);
      if (!waiting) return;
      pending.delete(message.requestId);
      if (message.ok) waiting.resolve(message.value);
      else waiting.reject(hostErrorToError(message.error));
    },
  };
}
