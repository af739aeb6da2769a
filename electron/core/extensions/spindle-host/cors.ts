// spindle.cors (permission `cors_proxy`): the host fetches an http(s) URL for the extension, with time
// and size caps, every hop checked against the SSRF denylist, and answers Lumiverse's
// `{ status, statusText, headers, body }` (base64 for binary). The worker's cancel (its fetch's signal) ends it.
import { HostFailure } from '../../../../shared/errors';
import { MAX_CORS_IN_FLIGHT } from '../../../../shared/limits';
import { UnderWay } from '../per-extension-limits';
import { fail, type HandlersOf } from './handlers';
import { systemTimers, timeoutSignal, type Timers } from '../../ports';
import { checkDestination, systemLookup, type Lookup } from './ssrf-guard';

// Ten minutes, as a generation: a local image or speech server's slow answer (LumiDraw waits up to 600 s). At most
// eight under way per extension: each may hold a 25 MB answer in the host that long.
export const CORS_LIMITS = { timeoutMs: 600_000, maxBodyBytes: 25 * 1024 * 1024, maxRedirects: 5, maxInFlight: MAX_CORS_IN_FLIGHT };

type Fetch = typeof globalThis.fetch;

/** Headers fetch drops on a redirect to another origin. */
const CREDENTIALS = new Set(['authorization', 'cookie', 'proxy-authorization']);

async function readCapped(response: Response, maxBytes: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      void reader.cancel().catch(() => undefined);
      fail('RESULT_TOO_LARGE', `The response is larger than ${maxBytes} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function checkUrl(url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('INVALID_INPUT', `spindle.cors fetches http and https only, not ${url.protocol}`, '/url');
  if (url.username || url.password) fail('INVALID_INPUT', 'Credentials in the URL are not sent; use a header.', '/url');
}

export function corsHandlers(fetchImpl: Fetch = fetch, limits = CORS_LIMITS, lookup: Lookup = systemLookup, timers: Timers = systemTimers): HandlersOf<'cors'> {
  const underWay = new UnderWay(limits.maxInFlight);
  return {
    async 'cors.fetch'(params, origin, call) {
      let url: URL;
      try {
        url = new URL(params.url);
      } catch {
        return fail('INVALID_INPUT', 'Not a URL.', '/url');
      }
      checkUrl(url);
      const init = params.init ?? {};
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(init.headers ?? {})) if (typeof value === 'string') headers[name] = value;
      if (!underWay.begin(origin.extensionId)) fail('RATE_LIMITED', `An extension has at most ${limits.maxInFlight} fetches under way; this one was not started.`);
      // The whole exchange, redirects and body included, within limits.timeoutMs, or until the worker cancels it.
      const timeout = timeoutSignal(timers, limits.timeoutMs);
      const stopped = new AbortController();
      const onTimeout = () => stopped.abort(timeout.signal.reason);
      const onCancel = () => stopped.abort(call.signal.reason);
      timeout.signal.addEventListener('abort', onTimeout, { once: true });
      call.signal.addEventListener('abort', onCancel, { once: true });
      const signal = stopped.signal;
      try {
        let verb = typeof init.method === 'string' ? init.method.toUpperCase() : 'GET';
        // The worker's fetch sends a body that is not text as base64 (host-fetch.ts).
        let payload: string | Uint8Array<ArrayBuffer> | undefined = typeof init.body === 'string' ? (init.bodyEncoding === 'base64' ? new Uint8Array(Buffer.from(init.body, 'base64')) : init.body) : undefined;
        let response: Response;
        // Redirects are followed here, not by fetch, so every hop's destination is checked.
        for (let hop = 0; ; hop++) {
          await checkDestination(url, lookup);
          try {
            response = await fetchImpl(url, { method: verb, headers, ...(payload !== undefined ? { body: payload } : {}), signal, redirect: 'manual' });
          } catch (err) {
            if (call.signal.aborted) return fail('CANCELLED', `The fetch of ${url.host} was cancelled.`);
            if (timeout.signal.aborted) return fail('TOOL_TIMEOUT', `No answer from ${url.host} within ${limits.timeoutMs / 1000} s.`);
            return fail('LLM_UNREACHABLE', `Could not reach ${url.host}: ${(err as Error)?.message ?? 'fetch failed'}.`);
          }
          const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
          if (!location) break;
          if (hop >= limits.maxRedirects) fail('LLM_UNREACHABLE', `More than ${limits.maxRedirects} redirects from ${url.host}.`, '/url');
          void response.body?.cancel().catch(() => undefined);
          const next = new URL(location, url);
          checkUrl(next);
          // As fetch does: credentials never follow a redirect to another origin (an API key to a stranger's host).
          if (next.origin !== url.origin) for (const name of Object.keys(headers)) if (CREDENTIALS.has(name.toLowerCase())) delete headers[name];
          url = next;
          // 303, and 301/302 after a POST, continue as a GET without the body (as browsers do).
          if (response.status === 303 || ((response.status === 301 || response.status === 302) && verb === 'POST')) {
            verb = 'GET';
            payload = undefined;
          }
        }
        const declared = Number(response.headers.get('content-length') ?? NaN);
        if (Number.isFinite(declared) && declared > limits.maxBodyBytes) fail('RESULT_TOO_LARGE', `The response declares ${declared} bytes; the limit is ${limits.maxBodyBytes}.`);
        const body = await readCapped(response, limits.maxBodyBytes).catch((err: unknown) => {
          if (err instanceof HostFailure) throw err;
          if (call.signal.aborted) return fail('CANCELLED', `The fetch of ${url.host} was cancelled.`);
          if (timeout.signal.aborted) return fail('TOOL_TIMEOUT', `No whole answer from ${url.host} within ${limits.timeoutMs / 1000} s.`);
          return fail('LLM_UNREACHABLE', `The answer from ${url.host} broke off: ${(err as Error)?.message ?? 'read failed'}.`);
        });
        const binary = init.responseType === 'arraybuffer';
        return {
          status: response.status,
          statusText: response.statusText,
          headers: Object.fromEntries(response.headers.entries()),
          body: binary ? body.toString('base64') : body.toString('utf8'),
          ...(binary ? { encoding: 'base64' } : {}),
        };
      } finally {
        timeout.clear();
        call.signal.removeEventListener('abort', onCancel);
        underWay.end(origin.extensionId);
      }
    },
  };
}
