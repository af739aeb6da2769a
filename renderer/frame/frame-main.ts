// Entry of every frame on an extension's origin (frame.html): `#runtime` runs the extension's frontend
// module; `#surface=<id>` is one of its places (a drawer tab, a widget…) and hands itself to the runtime.
import { FrameChannel } from './channel';
import { watchSurface } from './surface-watch';
import type { DrawnBox } from './drawn-box';
import type { FrameNotice } from '../../shared/frames/frame-contract';
import { createContext } from './context';
import { FrameDocuments } from './documents';
import { sealNetwork } from './network-seal';
import { RuntimeState } from './runtime-state';
import { followChat, followRouteChanges, followOpenSettings, installPageFetch, installPageXhr } from './lumiverse-page';
import { pressOutside, watchBodyLayer } from './body-layer';
import { createChatViewStandIn } from './chat-view';
import { createComposerStandIn } from './lumiverse-composer';
import { installClipboard } from './clipboard';
import { reportPolicyRefusals } from './policy-refusals';

const RUNTIME_KEY = '__councilWorkbenchFrameRuntime';

interface RuntimeHook {
  attach(surfaceId: string, win: Window): boolean;
  detach(surfaceId: string, win: Window): void;
}

type FrontendModule = { setup?: (ctx: unknown) => unknown; teardown?: () => unknown };

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

async function runExtension(channel: FrameChannel, init: FrameNotice<'init'>, entry: string): Promise<void> {
  const docs = new FrameDocuments(document);
  docs.setTheme(init.theme);
  const state = new RuntimeState(init.extensionId, channel, docs, init);
  state.quietDialogs(window);
  /** Per surface, the end of the watch on the frame that shows it now. */
  const watches = new Map<string, () => void>();
  const unwatch = (surfaceId: string) => {
    watches.get(surfaceId)?.();
    watches.delete(surfaceId);
  };
  // What the frames' policy refuses, from this document and each surface's, said on the card.
  const refusals = reportPolicyRefusals((what) => channel.send('frame.policy', { what }));
  const hook: RuntimeHook = {
    attach: (surfaceId, win) => {
      if (!docs.attach(surfaceId, win)) return false;
      unwatch(surfaceId);
      const stopRefusals = refusals.watch(win.document);
      const root = win.document.body.firstElementChild;
      let stopWatch = () => {};
      if (root) {
        const height = (value: number) => channel.send('surface.contentHeight', { surfaceId, height: value });
        const drawn = state.drawnWanted.has(surfaceId) ? (box: DrawnBox | null) => channel.send('surface.drawnBox', { surfaceId, box }) : undefined;
        stopWatch = watchSurface(win, root, { height, ...(drawn ? { drawn } : {}) });
      }
      watches.set(surfaceId, () => {
        stopRefusals();
        stopWatch();
      });
      return true;
    },
    detach: (surfaceId, win) => {
      unwatch(surfaceId);
      docs.detach(surfaceId, win);
    },
  };
  Object.defineProperty(window, RUNTIME_KEY, { value: hook });
  state.atTeardown(refusals.watch(document));
  channel.on('theme', ({ vars }) => docs.setTheme(vars));
  channel.on('permissions', ({ granted }) => void (state.granted = granted));
  channel.on('activeChat', ({ chatId }) => followChat(window, chatId));
  // Lumiverse's page, as its code expects to find it (lumiverse-page.ts, body-layer.ts).
  installPageFetch(window, channel);
  installPageXhr(window, channel);
  installClipboard(window, channel);
  followOpenSettings(window, channel);
  followChat(window, init.activeChat);
  followRouteChanges(window, channel);
  const composer = createComposerStandIn(document, channel, (cleanup) => void state.atTeardown(cleanup));
  createChatViewStandIn(document, channel, (cleanup) => void state.atTeardown(cleanup));
  const stopLayer = watchBodyLayer(window, docs.holder, (boxes) => channel.send('runtime.layer', { boxes }), composer.placed);
  channel.on('outsidePress', () => pressOutside(document));
  channel.on('ping', ({ seq }) => channel.send('frame.pong', { seq }));
  let teardown: (() => unknown) | null = null;
  channel.on('teardown', () => {
    stopLayer();
    state.runCleanups();
    try {
      teardown?.();
    } catch (err) {
      console.error(err);
    }
    void channel
      .request('frame.tornDown', {})
      .catch(() => undefined)
      .finally(() => channel.close());
  });

  let setupRunning = true;
  const lifecycle = createContext(state, init.manifest, () => setupRunning);
  let mod: FrontendModule;
  // From here on its code's input listeners on this page hear its surfaces too (ours above stay this page's own).
  docs.input.install(window);
  try {
    // The extension's own module, from its own origin (the frame's CSP allows nothing else).
    // eslint-disable-next-line no-unsanitized/method -- a same-origin path under /__ext/, the one script this frame exists to run
    mod = (await import(/* @vite-ignore */ new URL(`/__ext/${entry}`, location.href).href)) as FrontendModule;
  } catch (err) {
    channel.send('frame.failed', { message: `Loading ${entry} failed: ${describe(err)}` });
    return;
  }
  if (typeof mod.setup !== 'function') {
    channel.send('frame.failed', { message: `${entry} exports no setup function.` });
    return;
  }
  teardown = typeof mod.teardown === 'function' ? mod.teardown.bind(mod) : null;
  try {
    const returned = mod.setup(lifecycle.ctx);
    setupRunning = false;
    if (typeof returned === 'function') teardown = returned as () => unknown;
    else if (returned && typeof (returned as Promise<unknown>).then === 'function') {
      const resolved = await (returned as Promise<unknown>);
      if (typeof resolved === 'function') teardown = resolved as () => unknown;
    }
  } catch (err) {
    setupRunning = false;
    state.runCleanups();
    channel.send('frame.failed', { message: `setup() threw: ${describe(err)}` });
    return;
  }
  if (!lifecycle.deferred()) lifecycle.markReady();
}

/** The runtime waits for the app to hand it a port and the state to start from. */
function startRuntime(): void {
  const onInit = (event: MessageEvent) => {
    const data = event.data as { cw?: string; entry?: unknown } | null;
    if (event.source !== window.parent || data?.cw !== 'frame-init' || typeof data.entry !== 'string' || !event.ports[0]) return;
    window.removeEventListener('message', onInit);
    const channel = new FrameChannel(event.ports[0]);
    const entry = data.entry;
    const off = channel.on('init', (init) => {
      off();
      void runExtension(channel, init, entry);
    });
  };
  window.addEventListener('message', onInit);
}

/** A surface finds its runtime among the app's frames (only its own origin's frames can be reached). */
function attachSurface(surfaceId: string): void {
  const deadline = Date.now() + 10_000;
  const tryAttach = () => {
    for (let i = 0; i < window.parent.frames.length; i++) {
      try {
        const hook = (window.parent.frames[i] as unknown as Record<string, RuntimeHook | undefined>)[RUNTIME_KEY];
        if (hook?.attach(surfaceId, window)) {
          // Removed (the app re-laid out, or closed the place): hand the root back before this document shuts down.
          window.addEventListener('pagehide', () => hook.detach(surfaceId, window));
          return;
        }
      } catch {
        // Another origin's frame: not ours.
      }
    }
    if (Date.now() < deadline) setTimeout(tryAttach, 50);
  };
  tryAttach();
}

// Before any extension code: no WebRTC or WebTransport in this realm or any frame it makes (network-seal.ts).
sealNetwork(window);
const hash = location.hash;
if (hash === '#runtime') startRuntime();
else if (hash.startsWith('#surface=')) attachSurface(decodeURIComponent(hash.slice('#surface='.length)));
