// The main window and the lock-down applied to every web contents and to the session.
import { BrowserWindow, type Session, type WebContents } from 'electron';
import { isAllowedFrameNavigation, isAllowedNavigation } from './navigation';

/** Creates the one app window. webPreferences are spelled out, never spread, so they can be checked. */
export function createMainWindow(preloadPath: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Council Workbench',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      spellcheck: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
    },
  });
  win.once('ready-to-show', () => win.show());
  return win;
}

/** For every web contents the app creates: no navigation off app://council, no windows, no webviews. */
export function hardenWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => {
    if (!isAllowedNavigation(event.url)) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    if (!isAllowedFrameNavigation(event.url, event.isMainFrame)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isAllowedNavigation(event.url)) event.preventDefault();
  });
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  // CSP does not govern WebRTC: no UDP at all, and TCP only through the session's proxy (cutRendererNetwork).
  contents.setWebRTCIPHandlingPolicy('disable_non_proxied_udp');
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
  });
}

/** The app asks for no browser permissions, so every request and check is refused. */
export function denyAllPermissions(ses: Session): void {
  ses.setPermissionRequestHandler((_webContents, _permission, callback) => {
    callback(false);
  });
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
}

/**
 * The window needs no network: its pages come from app:// and cw-ext:// (custom protocols, never proxied) and model
 * calls run in the main process. Everything else the renderer's session would open (WebRTC's TCP, preconnect, DNS
 * prefetch, a frame's stray request) goes to a proxy at the discard port, loopback included, and fails there.
 */
export function cutRendererNetwork(ses: Session): Promise<void> {
  return ses.setProxy({ mode: 'fixed_servers', proxyRules: '127.0.0.1:9', proxyBypassRules: '<-loopback>' });
}
