// The worker's global `fetch`. Lumiverse's backends call fetch() directly (image services, webhooks); a worker here has
// no network, so with `cors_proxy` granted the host fetches for it through spindle.cors (the same SSRF checks, caps
// and time limit), and the answer comes back as a real Response; a body that is not text (a form, a file, bytes) goes
// as base64. Without the grant it is refused, as before.
import { inTurns } from '../../shared/in-turn';
import { MAX_CORS_IN_FLIGHT } from '../../shared/limits';
import { NETWORK_DENIED_MESSAGE } from './lockdown';

interface CorsAnswer {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: string;
}

export interface HostFetchDeps {
  /** `signal`: an abort cancels the host's fetch too. */
  cors(url: string, init: { method: string; headers: Record<string, string>; body?: string; bodyEncoding?: 'base64'; responseType: 'arraybuffer' }, signal?: AbortSignal): Promise<unknown>;
  granted(): boolean;
  /** Tells the host it was refused (its card lists it, so the person can grant cors_proxy). */
  refused(): void;
}

/** A request body that is not text rides to the host as base64 in one request frame: at most this many bytes. */
export const MAX_BINARY_BODY_BYTES = 8 * 1024 * 1024;

/** Statuses whose Response may carry no body (the constructor throws otherwise). */
const NO_BODY = new Set([204, 205, 304]);

function denied(reason: string): TypeError {
  return Object.assign(new TypeError(`fetch: ${reason}`), { code: 'ERR_ACCESS_DENIED' });
}

/** A request body for the host: text as it is, anything else (bytes, a Blob, a form, a stream) as base64. */
type HostBody = { text: string; base64?: true };

/**
 * The request body as fetch would send it: a string or URLSearchParams as text; FormData, a Blob, bytes or a stream
 * serialized by the platform's own Request (a form's multipart boundary, a Blob's type set as the content type when
 * none was given), as bytes.
 */
async function bodyOf(body: unknown, headers: Headers): Promise<HostBody | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return { text: body };
  if (body instanceof URLSearchParams) {
    if (!headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    return { text: body.toString() };
  }
  let serialized: Request;
  try {
    serialized = new Request('https://body.invalid/', { method: 'POST', body: body as BodyInit, duplex: 'half' } as RequestInit);
  } catch {
    throw new TypeError('fetch: the request body is none of a string, URLSearchParams, FormData, Blob, bytes or a stream.');
  }
  return bytesOf(serialized, headers);
}

/** A Request's body: text when its content type says so, else its bytes. */
async function requestBody(request: Request, headers: Headers): Promise<HostBody> {
  const type = request.headers.get('content-type') ?? '';
  if (/^text\/|json|xml|x-www-form-urlencoded|javascript/i.test(type)) return { text: await request.text() };
  return bytesOf(request, headers);
}

async function bytesOf(request: Request, headers: Headers): Promise<HostBody> {
  const type = request.headers.get('content-type');
  if (type && !headers.has('content-type')) headers.set('content-type', type);
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > MAX_BINARY_BODY_BYTES) throw new TypeError(`fetch: a request body that is not text is at most ${MAX_BINARY_BODY_BYTES} bytes here; this one is ${bytes.byteLength}.`);
  return { text: Buffer.from(bytes).toString('base64'), base64: true };
}

export function hostFetch(deps: HostFetchDeps): typeof globalThis.fetch {
  // The host runs MAX_CORS_IN_FLIGHT of an extension's fetches at once: the rest wait here, as a browser queues them.
  const inTurn = inTurns(MAX_CORS_IN_FLIGHT);
  return async function fetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
    if (!deps.granted()) {
      deps.refused();
      throw denied(NETWORK_DENIED_MESSAGE);
    }
    const request = input instanceof Request ? input : null;
    const url = request ? request.url : String(input);
    const headers = new Headers(init.headers ?? request?.headers);
    const method = (init.method ?? request?.method ?? 'GET').toUpperCase();
    const body = init.body !== undefined ? await bodyOf(init.body, headers) : request?.body ? await requestBody(request, headers) : undefined;
    const signal = init.signal ?? request?.signal;
    signal?.throwIfAborted();
    const answer = inTurn(async () => {
      // Aborted while it waited: never sent.
      signal?.throwIfAborted();
      return deps.cors(url, { method, headers: Object.fromEntries(headers.entries()), ...(body ? { body: body.text, ...(body.base64 ? { bodyEncoding: 'base64' as const } : {}) } : {}), responseType: 'arraybuffer' }, signal ?? undefined);
    });
    // An abort stops the caller's wait at once (with the signal's reason, as fetch rejects); the host's fetch is cancelled.
    let stop = () => {};
    const aborted = signal ? new Promise<never>((_, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      stop = () => signal.removeEventListener('abort', onAbort);
    }) : null;
    let got: CorsAnswer;
    try {
      got = (await (aborted ? Promise.race([answer, aborted]) : answer)) as CorsAnswer;
    } catch (err) {
      if (signal?.aborted) throw err;
      // As Node's fetch fails: a TypeError, the reason in its message and cause.
      throw new TypeError(`fetch failed: ${(err as Error)?.message ?? String(err)}`, { cause: err });
    } finally {
      // A long-lived signal shared by many calls keeps no listener of each.
      stop();
    }
    if (got.status < 200 || got.status > 599) throw new TypeError(`fetch failed: the server answered status ${got.status}.`);
    const bytes = NO_BODY.has(got.status) ? null : Buffer.from(got.body, 'base64');
    const response = new Response(bytes, { status: got.status, statusText: got.statusText, headers: got.headers });
    Object.defineProperty(response, 'url', { value: url });
    return response;
  };
}
