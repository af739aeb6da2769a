// The parent's side of a sandbox frame (public/sandbox.html): an iframe with sandbox="allow-scripts" and no
// allow-same-origin, given its HTML once it says it has loaded, and a token that ties its messages to it.
// Used by ctx.dom.createSandboxFrame inside an extension's frame and by message widgets in the app.
const MARK = '__lumiverseSpindleSandbox';
const MIN_HEIGHT = 40;
const MAX_HEIGHT = 4000;
/** A fitted frame (an HTML island, a whole reply a skin wraps) may be this tall. */
const MAX_FIT_HEIGHT = 20_000;
/** Messages a sandbox may send in one second (loads, resizes, posts) before it counts as flooding and is stopped. */
export const MAX_SANDBOX_MESSAGES_PER_SECOND = 120;

export interface SandboxOptions {
  html: string;
  minHeight?: number;
  maxHeight?: number;
  initialHeight?: number;
  /** Off: the frame keeps its height until the widget asks for another (spindleSandbox.requestResize), as in Lumiverse. */
  autoResize?: boolean;
  /** The host theme's --lumiverse-* variables, set on the sandbox's root as Lumiverse's widgets expect. */
  theme?: Record<string, string>;
  /**
   * An extension's own HTML (a widget, a sandbox frame): its forms' submit events fire, which Chromium never does
   * without allow-forms; the page's `form-action 'none'` sends nothing anywhere. A message's HTML island has no forms.
   */
  forms?: boolean;
  /**
   * Heights it may report in a row, each taller than the last, before its size counts as never settling (a height
   * in vh that grows its own frame a pixel at a time), when it is emptied as a flood is. A size that goes up and
   * down (an animation, a details opened and closed) is not growing. Unless said, only the flood limit holds.
   */
  maxGrowth?: number;
  /** It sent more than MAX_SANDBOX_MESSAGES_PER_SECOND in a second, or grew more than maxGrowth times in a row: it was emptied and is heard no more. */
  onFlood?: () => void;
  /**
   * As tall as what it draws, shrinking as well as growing (an HTML island whose details close); otherwise as tall
   * as its page scrolls, as Lumiverse's widgets measure.
   */
  fit?: boolean;
  /** Told each height the frame takes from its content. */
  onResize?: (height: number) => void;
  /** The clock the flood window is measured by (tests move it by hand). */
  now?: () => number;
}

export interface SandboxHandle {
  element: HTMLIFrameElement;
  setContent(html: string): void;
  /** New theme variables (light/dark switched), applied without reloading the content. */
  setTheme(vars: Record<string, string>): void;
  postMessage(payload: unknown): void;
  onMessage(handler: (payload: unknown) => void): () => void;
  destroy(): void;
}

function token(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A sandbox frame in `doc`, loading `sandboxUrl` (the extension origin's /__cw/sandbox.html). */
export function createSandbox(doc: Document, sandboxUrl: string, options: SandboxOptions): SandboxHandle {
  const frame = doc.createElement('iframe');
  frame.setAttribute('sandbox', options.forms ? 'allow-scripts allow-forms' : 'allow-scripts');
  frame.setAttribute('referrerpolicy', 'no-referrer');
  frame.setAttribute('allow', "camera 'none'; microphone 'none'; geolocation 'none'; payment 'none'; usb 'none'; clipboard-read 'none'; autoplay 'none'");
  frame.style.cssText = 'border:0;width:100%;display:block;background:transparent;';
  const min = Math.max(0, options.minHeight ?? MIN_HEIGHT);
  const ceiling = options.fit ? MAX_FIT_HEIGHT : MAX_HEIGHT;
  const max = Math.min(ceiling, options.maxHeight ?? ceiling);
  frame.style.height = `${Math.min(max, Math.max(min, options.initialHeight ?? min))}px`;
  frame.src = sandboxUrl;
  let html = options.html;
  let theme = options.theme ?? {};
  let current: string | null = null;
  const handlers = new Set<(payload: unknown) => void>();
  // A sandboxed frame without allow-same-origin has an opaque origin, which no target origin can name; what
  // is sent is the extension's own HTML and the token it answers with, and only this frame's window is addressed.
  // eslint-disable-next-line @microsoft/sdl/no-postmessage-star-origin
  const send = (message: Record<string, unknown>) => frame.contentWindow?.postMessage({ ...message, [MARK]: MARK }, '*');
  const load = () => {
    current = token();
    send({ kind: 'content', token: current, html, theme, ...(options.fit ? { fit: true } : {}), ...(options.autoResize === false ? { autoResize: false } : {}) });
  };
  const now = options.now ?? (() => Date.now());
  let burst = { start: now(), count: 0 };
  let growth = { last: -1, steps: 0 };
  const stop = () => {
    view.removeEventListener('message', listener);
    handlers.clear();
    frame.removeAttribute('src');
    frame.srcdoc = '';
    options.onFlood?.();
  };
  const listener = (event: MessageEvent) => {
    const data = event.data as { kind?: string; token?: string; payload?: unknown; height?: unknown } | null;
    if (event.source !== frame.contentWindow || !data || (data as Record<string, unknown>)[MARK] !== MARK) return;
    // A widget that keeps saying "loaded" (each answered with its whole HTML) or posting must not tie up its page.
    const at = now();
    if (at - burst.start >= 1000) burst = { start: at, count: 0 };
    if (++burst.count > MAX_SANDBOX_MESSAGES_PER_SECOND) return stop();
    if (data.kind === 'resize' && options.maxGrowth !== undefined && typeof data.height === 'number') {
      growth = { last: data.height, steps: data.height > growth.last ? growth.steps + 1 : 0 };
      if (growth.steps > options.maxGrowth) return stop();
    }
    if (data.kind === 'loaded') return load();
    if (data.token !== current) return;
    if (data.kind === 'resize') {
      // Told not to size itself, the page sends only the widget's own requests; each is within the frame's bounds.
      if (typeof data.height === 'number') {
        const height = Math.min(max, Math.max(min, Math.ceil(data.height)));
        frame.style.height = `${height}px`;
        options.onResize?.(height);
      }
      return;
    }
    for (const handler of handlers) handler(data.payload);
  };
  const view = doc.defaultView ?? window;
  view.addEventListener('message', listener);
  return {
    element: frame,
    setContent(next) {
      html = next;
      // A fresh document: the sandbox page loads again and asks for its content.
      frame.src = sandboxUrl;
    },
    setTheme(vars) {
      theme = vars;
      if (current) send({ kind: 'theme', token: current, theme });
    },
    postMessage: (payload) => current && send({ kind: 'message', token: current, payload }),
    onMessage(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    destroy() {
      view.removeEventListener('message', listener);
      handlers.clear();
      frame.remove();
    },
  };
}
