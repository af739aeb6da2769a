// Lumiverse's page as its frontends reach for it. In Lumiverse a frontend runs in the app's own page, so it fetches
// the app's REST API (`/api/v1/…`, settings, system info, chats, uploads…) and reads the route (`/chat/<id>`). Here
// it runs on its own origin, whose policy lets nothing out: its fetch and XHR of `/api/v1/…` on that origin go to
// the app as `page.request` instead (the host answers within its permissions), and the route follows the open chat.
import { PAGE_BODY_PART_BYTES, type FrameResult } from '../../shared/frames/frame-contract';
import { base64ToBytes, bytesToBase64 } from './base64';
import type { FrameChannel } from './channel';
import { inTurns } from '../../shared/in-turn';

type PageAnswer = FrameResult<'page.request'>;

/** Whether a URL is Lumiverse's API on this frame's own origin. */
const isPageApi = (win: Window, url: URL) => url.origin === win.location.origin && url.pathname.startsWith('/api/v1/');
const NO_BODY = new Set([101, 204, 205, 304]);

/** Requests to the app at once from this frame (the host answers 8 per extension; more wait here, not as a 429). */
const inTurn = inTurns(8);

/**
 * One request to the app. A tus PATCH longer than a part goes as several (each appends at its offset, as tus
 * allows), and its last answer is the answer; any other body must fit one part.
 */
async function ask(
  channel: FrameChannel,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Uint8Array | null,
  aborted: () => boolean = () => false,
  /** Bytes sent so far, after each part (an XHR's upload progress). */
  sent: (bytes: number) => void = () => undefined,
): Promise<PageAnswer> {
  const bytesBody = (headers['content-type'] ?? '').includes('octet-stream');
  const send = (part: Uint8Array | null, extra: Record<string, string> = {}) =>
    inTurn(() => channel.request('page.request', {
      method,
      path,
      headers: { ...headers, ...extra },
      ...(part ? (bytesBody ? { body: bytesToBase64(part), bodyEncoding: 'base64' as const } : { body: new TextDecoder().decode(part), bodyEncoding: 'utf8' as const }) : {}),
    }));
  if (!body || body.length <= PAGE_BODY_PART_BYTES) return send(body);
  const offset = Number(headers['upload-offset']);
  if (method !== 'PATCH' || !bytesBody || !Number.isInteger(offset)) return { status: 413, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: `A request body here is at most ${PAGE_BODY_PART_BYTES} bytes.` }), bodyEncoding: 'utf8' };
  let answer: PageAnswer | null = null;
  for (let at = 0; at < body.length; at += PAGE_BODY_PART_BYTES) {
    // Aborted (a paused tus upload): no more parts go; tus resumes from the offset the host has.
    if (aborted()) throw new DOMException('The request was aborted.', 'AbortError');
    answer = await send(body.subarray(at, at + PAGE_BODY_PART_BYTES), { 'upload-offset': String(offset + at) });
    if (answer.status >= 300) return answer;
    sent(Math.min(body.length, at + PAGE_BODY_PART_BYTES));
  }
  return answer!;
}

const lowerHeaders = (headers: Headers) => Object.fromEntries([...headers].map(([k, v]) => [k.toLowerCase(), v]));
const answerBytes = (answer: PageAnswer) => (answer.bodyEncoding === 'base64' ? base64ToBytes(answer.body) : new TextEncoder().encode(answer.body));

/**
 * Lumiverse's API called as its own frontend helpers call it (ctx.characters.get, ctx.chats.updateMessage): the JSON
 * answer, or an Error with its message, status and code.
 */
export async function pageJson(channel: FrameChannel, method: string, path: string, body?: Record<string, unknown>): Promise<unknown> {
  const answer = await ask(channel, method, path, body ? { 'content-type': 'application/json' } : {}, body ? new TextEncoder().encode(JSON.stringify(body)) : null);
  const text = new TextDecoder().decode(answerBytes(answer));
  let value: unknown = null;
  try {
    value = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: told by its status below, or handed back as text.
    value = text;
  }
  if (answer.status < 400) return value;
  const error = (value && typeof value === 'object' ? value : {}) as { error?: unknown; code?: unknown };
  throw Object.assign(new Error(typeof error.error === 'string' ? error.error : `${method} ${path}: ${answer.status}`), {
    status: answer.status,
    ...(typeof error.code === 'string' ? { code: error.code } : {}),
  });
}

/** fetch: Lumiverse's API on this origin is asked of the app; anything else goes where it would (the policy decides). */
export function installPageFetch(win: Window & typeof globalThis, channel: FrameChannel): void {
  const native = win.fetch.bind(win);
  win.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    // The URL first, without making a Request (that would take the body of one passed in, and the browser's own fetch
    // then finds it used).
    const url = new URL(input instanceof win.Request ? input.url : String(input), win.location.href);
    if (!isPageApi(win, url)) return native(input, init);
    const request = new win.Request(input, init);
    const body = request.method === 'GET' || request.method === 'HEAD' ? null : new Uint8Array(await request.arrayBuffer());
    const aborted = () => request.signal.aborted;
    if (aborted()) throw new DOMException('The request was aborted.', 'AbortError');
    const answer = await Promise.race([
      ask(channel, request.method, `${url.pathname}${url.search}`, lowerHeaders(request.headers), body, aborted),
      new Promise<never>((_, reject) => request.signal.addEventListener('abort', () => reject(new DOMException('The request was aborted.', 'AbortError')), { once: true })),
    ]);
    return new win.Response(NO_BODY.has(answer.status) || request.method === 'HEAD' ? null : answerBytes(answer), { status: answer.status, headers: answer.headers });
  };
}

interface PageXhr {
  method: string;
  url: URL;
  headers: Record<string, string>;
  answer?: PageAnswer;
  aborted?: boolean;
}

/**
 * XMLHttpRequest (tus-js-client's transport, and older frontends'): a request to Lumiverse's API on this origin is
 * asked of the app, and its state and events are the instance's own; any other is the browser's.
 */
export function installPageXhr(win: Window & typeof globalThis, channel: FrameChannel): void {
  const proto = win.XMLHttpRequest.prototype;
  const pages = new WeakMap<XMLHttpRequest, PageXhr>();
  const { open, send, setRequestHeader, abort, getResponseHeader, getAllResponseHeaders } = proto;
  const own = (xhr: XMLHttpRequest, values: Record<string, unknown>) => {
    for (const [name, value] of Object.entries(values)) Object.defineProperty(xhr, name, { value, configurable: true });
  };
  const fire = (target: EventTarget, type: string, loaded = 0, total = 0) => target.dispatchEvent(new win.ProgressEvent(type, { loaded, total, lengthComputable: total > 0 }));
  const OWN = ['readyState', 'status', 'statusText', 'responseURL', 'response', 'responseText'];
  proto.open = function (this: XMLHttpRequest, method: string, url: string | URL, ...rest: unknown[]) {
    const resolved = new URL(String(url), win.location.href);
    // A reused request shows the browser's own state again until its new answer; one still waiting is dropped (as open() aborts it).
    const previous = pages.get(this);
    if (previous && !previous.answer) previous.aborted = true;
    for (const name of OWN) delete (this as unknown as Record<string, unknown>)[name];
    if (isPageApi(win, resolved)) {
      // The app answers asynchronously: a synchronous request to it cannot be made (as a browser refuses one it cannot make).
      if (rest[0] === false) throw new DOMException('Synchronous requests to /api/v1 are not supported here.', 'InvalidAccessError');
      pages.set(this, { method: method.toUpperCase(), url: resolved, headers: {} });
    } else pages.delete(this);
    return (open as (...args: unknown[]) => void).call(this, method, url, ...(rest.length ? rest : [true]));
  };
  proto.setRequestHeader = function (this: XMLHttpRequest, name: string, value: string) {
    const page = pages.get(this);
    if (!page) return setRequestHeader.call(this, name, value);
    page.headers[name.toLowerCase()] = String(value);
  };
  /** Asks the app for a page request made through `xhr`, then plays the answer back as the browser would. */
  const answerPage = async (xhr: XMLHttpRequest, page: PageXhr, body: Document | XMLHttpRequestBodyInit | null | undefined) => {
    const bytes = body === null || body === undefined ? null : new Uint8Array(await new win.Response(body as BodyInit).arrayBuffer());
    if (bytes) fire(xhr.upload, 'loadstart', 0, bytes.length);
    let answer: PageAnswer;
    try {
      const total = bytes?.length ?? 0;
      answer = await ask(channel, page.method, `${page.url.pathname}${page.url.search}`, page.headers, bytes, () => page.aborted === true, (done) => {
        if (done < total && !page.aborted) fire(xhr.upload, 'progress', done, total);
      });
    } catch {
      if (page.aborted) return;
      own(xhr, { readyState: 4, status: 0 });
      if (bytes) for (const type of ['error', 'loadend']) fire(xhr.upload, type);
      for (const type of ['readystatechange', 'error', 'loadend']) fire(xhr, type);
      return;
    }
    if (page.aborted) return;
    page.answer = answer;
    if (bytes) for (const type of ['progress', 'load', 'loadend']) fire(xhr.upload, type, bytes.length, bytes.length);
    const raw = page.method === 'HEAD' || NO_BODY.has(answer.status) ? new Uint8Array() : answerBytes(answer);
    const text = new TextDecoder().decode(raw);
    const type = xhr.responseType;
    const parsed = () => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return null;
      }
    };
    const response = type === 'json' ? parsed() : type === 'arraybuffer' ? raw.buffer : type === 'blob' ? new win.Blob([raw]) : text;
    own(xhr, { readyState: 4, status: answer.status, statusText: '', responseURL: page.url.href, response, ...(type === '' || type === 'text' ? { responseText: text } : {}) });
    for (const event of ['readystatechange', 'progress', 'load', 'loadend']) fire(xhr, event, raw.length, raw.length);
  };
  proto.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
    const page = pages.get(this);
    if (!page) return send.call(this, body);
    void answerPage(this, page, body);
  };
  proto.abort = function (this: XMLHttpRequest) {
    const page = pages.get(this);
    if (!page) return abort.call(this);
    if (page.aborted || page.answer) return;
    page.aborted = true;
    own(this, { readyState: 4, status: 0 });
    for (const type of ['readystatechange', 'abort', 'loadend']) fire(this, type);
  };
  proto.getResponseHeader = function (this: XMLHttpRequest, name: string) {
    const answer = pages.get(this)?.answer;
    if (!pages.has(this)) return getResponseHeader.call(this, name);
    return Object.entries(answer?.headers ?? {}).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1] ?? null;
  };
  proto.getAllResponseHeaders = function (this: XMLHttpRequest) {
    if (!pages.has(this)) return getAllResponseHeaders.call(this);
    return Object.entries(pages.get(this)?.answer?.headers ?? {}).map(([k, v]) => `${k.toLowerCase()}: ${v}\r\n`).join('');
  };
}

/** The chat each page's route was last set to by the app (followChat). */
const followed = new WeakMap<Window, string | null>();

/** The route follows the open chat (`/chat/<id>`, or `/` between chats), and route listeners hear it as navigation. */
export function followChat(win: Window, chatId: string | null): void {
  followed.set(win, chatId);
  const path = chatId ? `/chat/${encodeURIComponent(chatId)}` : '/';
  if (win.location.pathname === path) return;
  win.history.replaceState(win.history.state, '', `${path}${win.location.search}${win.location.hash}`);
  win.dispatchEvent(new PopStateEvent('popstate', { state: win.history.state }));
}

/** The chat a route names (`/chat/<id>`, as Lumiverse's router has it), or null. */
export function routedChat(route: string): string | null {
  const match = /^\/chat\/([^/?#]{1,400})\/?(?:[?#]|$)/.exec(route);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
}

/**
 * A frontend that routes as Lumiverse's page does (history.pushState to `/chat/<id>`, Tapestry's "go to branch") asks
 * the app to open that chat, as Lumiverse's router would; its own route changes elsewhere stay its own.
 */
export function followRouteChanges(win: Window, channel: FrameChannel): void {
  for (const name of ['pushState', 'replaceState'] as const) {
    const original = win.history[name];
    win.history[name] = function (this: History, data: unknown, unused: string, url?: string | URL | null) {
      const before = win.location.pathname;
      original.call(this, data, unused, url);
      // Only a change of route asks (a state or query change on the same route, or one the person declined, does not).
      const chatId = win.location.pathname === before ? null : routedChat(win.location.pathname);
      if (chatId !== null && chatId !== followed.get(win)) void channel.request('host.call', { method: 'route.openChat', args: [chatId] }).catch(() => undefined);
    };
  }
}

/**
 * Lumiverse's page opens its settings at a view when a frontend sends `spindle:open-settings` on the window
 * (ModalContainer there; LoreRecall's "Open extension settings"): here the host takes the person to that place, as
 * `spindle.ui.openSettings` does (the Extensions section for Lumiverse's default view).
 */
export function followOpenSettings(win: Window, channel: FrameChannel): void {
  win.addEventListener('spindle:open-settings', (event) => {
    const view = (event as CustomEvent<{ view?: unknown } | null>).detail?.view;
    void channel.request('host.call', { method: 'ui.openSettings', args: [typeof view === 'string' && view ? view.slice(0, 200) : 'extensions'] }).catch(() => undefined);
  });
}
