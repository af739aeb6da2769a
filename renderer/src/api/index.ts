// Picks the transport once: the Electron preload bridge when present, else the browser-mode WebSocket.
import type { PreloadBridge } from '../../../shared/host-api';
import { TOKEN_PARAM, WS_PATH } from '../../../shared/ws-protocol';
import type { HostConnection } from './connection';
import { createPreloadTransport } from './preload-transport';
import { takeTokenFromWindow } from './token';
import { createWsTransport, hostSocketUrl } from './ws-transport';

declare global {
  interface Window {
    councilHost?: PreloadBridge;
  }
}

export function connectToHost(win: Window = window): HostConnection {
  const bridge = win.councilHost;
  if (bridge && typeof bridge.post === 'function' && typeof bridge.onMessage === 'function') {
    return createPreloadTransport(bridge);
  }
  // Without a token in the address (a second tab, a bookmark) the one this origin's storage kept may do.
  const token = takeTokenFromWindow(win);
  return createWsTransport({
    url: hostSocketUrl(win.location, WS_PATH, TOKEN_PARAM, token),
    probe: () => probeHttp(win),
    ...(token ? {} : { refusedDetail: 'This address has no access token, and this browser has not opened the app with one yet.' }),
  });
}

/** Any HTTP answer from the page's own origin means the host process is up. */
async function probeHttp(win: Window): Promise<boolean> {
  const controller = new AbortController();
  const timer = win.setTimeout(() => controller.abort(), 3000);
  try {
    await win.fetch(new URL('/', win.location.href), { cache: 'no-store', signal: controller.signal });
    return true;
  } catch {
    return false;
  } finally {
    win.clearTimeout(timer);
  }
}

export type { ConnectionInfo, ConnectionState, HostConnection, TransportKind } from './connection';
