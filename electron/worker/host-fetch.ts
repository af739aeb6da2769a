// The worker's global `fetch`. Lumiverse's backends call fetch() directly (image services, webhooks); a worker here has
// no network, so with `cors_proxy` granted the host fetches for it through spindle.cors (the same SSRF checks, caps
// and time limit), and the answer comes back as a real Response. Without the grant it is refused, as before.
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
  cors(url: string, init: { method: string; headers: Record<string, string>; body?: string; responseType: 'arraybuffer' }, signal?: AbortSignal): Promise<unknown>;
  granted(): boolean;
  /** Tells the host it was refused (its card lists it, so the person can grant cors_proxy). */
  refused(): void;
}

const TEXT_ONLY = 'fetch: in the Council Workbench a request body is text (a string or URLSearchParams); send binary data as base64 text.';

/** Statuses whose Response may carry no body (the constructor throws otherwise). */
const NO_BODY = new Set([204, 205, 304]);

function denied(reason: string): TypeError {
  return Object.assign(new TypeError(`fetch: ${reason}`), { code: 'ERR_ACCESS_DENIED' });
}

/** The request body as text: the host's fetch carries a string, as Lumiverse's spindle.cors does. */
async function bodyText(body: unknown, headers: Headers): Promise<string | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) {
    if (!headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    return body.toString();
  }
  throw new TypeError(TEXT_ONLY);
}

/** A Request's body, when it is text (its content type says so); a binary one is refused as init's is. */
async function requestText(request: Request): Promise<string> {
  const type = request.headers.get('content-type') ?? '';
  // A string body gets a text type of its own; bytes, a buffer or a stream get none.
  if (!/^text\/|json|xml|x-www-form-urlencoded|javascript/i.test(type)) throw new TypeError(TEXT_ONLY);
  return request.text();
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
    const body = init.body !== undefined ? await bodyText(init.body, headers) : request?.body ? await requestText(request) : undefined;
    const signal = init.signal ?? request?.signal;
    signal?.throwIfAborted();
    const answer = inTurn(async () => {
      // Aborted while it waited: never sent.
      signal?.throwIfAborted();
      return deps.cors(url, { method, headers: Object.fromEntries(headers.entries()), ...(body !== undefined ? { body } : {}), responseType: 'arraybuffer' }, signal ?? undefined);
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
