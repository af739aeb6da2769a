// Desktop entry point: single instance, --data-dir, the host, the app:// page and an orderly quit.
import path from 'node:path';
import { app, BrowserWindow, clipboard, dialog, ipcMain, session } from 'electron';
import { createHost, type Host } from '../core/host';
import { listenForCli, type AppSocket } from '../core/app-socket/server';
import { takeKeyEnvironment } from '../core/connections/key-environment';
import { resolveDataDir } from '../core/data-dir';
import { consoleLogger } from '../core/ports';
import { HostFailure } from '../../shared/errors';
import { APP_ENTRY_URL } from './app-origin';
import { parseMainArgs } from './args';
import { electronStoreBackend } from './electron-store-backend';
import { registerIpc } from './ipc';
import { handleAppProtocol, registerAppScheme } from './protocol';
import { handleFrameProtocol } from './frame-protocol';
import { createMainWindow, cutRendererNetwork, denyAllPermissions, hardenWebContents } from './window';
import { utilityEngineLauncher, utilityLauncher } from './utility-launcher';
import { SafeStorageSecretStore } from './safe-storage-secrets';

// Both must happen before 'ready'.
registerAppScheme();
app.enableSandbox();

/** Shows why the app cannot run and exits non-zero (before ready on Linux the text goes to stderr). */
function exitWithError(title: string, err: unknown): void {
  const message =
    err instanceof HostFailure
      ? [err.error.message, err.error.hint].filter(Boolean).join('\n')
      : err instanceof Error
        ? err.message
        : String(err);
  dialog.showErrorBox(title, message);
  app.exit(1);
}

function startupDataDir(): string | undefined {
  try {
    const dir = resolveDataDir(parseMainArgs(process.argv).dataDir);
    // Chromium's own storage and the single-instance lock live with the data: one instance per folder.
    app.setPath('userData', dir);
    return dir;
  } catch (err) {
    exitWithError('Council Workbench cannot start', err);
    return undefined;
  }
}

function run(dataDir: string): void {
  let host: Host | undefined;
  let disposeIpc: (() => void) | undefined;
  let cliSocket: AppSocket | null = null;
  let mainWindow: BrowserWindow | undefined;
  let quitting = false;

  const openWindow = () => {
    const win = createMainWindow(path.join(app.getAppPath(), 'out', 'preload', 'index.cjs'));
    mainWindow = win;
    win.on('closed', () => {
      if (mainWindow === win) mainWindow = undefined;
    });
    void win.loadURL(APP_ENTRY_URL);
  };

  const start = async () => {
    denyAllPermissions(session.defaultSession);
    await cutRendererNetwork(session.defaultSession);
    handleAppProtocol(path.join(app.getAppPath(), 'out', 'renderer'));
    host = await createHost({
      dataDir,
      mode: 'desktop',
      env,
      settingsBackend: electronStoreBackend,
      log: consoleLogger,
      launcher: utilityLauncher,
      workerEntry: path.join(app.getAppPath(), 'out', 'main', 'worker.js'),
      engineEntry: path.join(app.getAppPath(), 'out', 'main', 'engine.js'),
      engineLauncher: utilityEngineLauncher,
      bundledExtensionsDir: path.join(app.getAppPath(), 'resources', 'extensions'),
      secrets: new SafeStorageSecretStore({ dataDir, log: consoleLogger }),
      // The page may not write the clipboard (its session refuses every permission): copying goes through main.
      clipboard: { writeText: (text) => clipboard.writeText(text) },
      // The extensions' workers start once the window is open (launching them blocks this thread a while each).
      deferToolSources: true,
    });
    handleFrameProtocol(
      path.join(app.getAppPath(), 'out', 'renderer'),
      (label) => host?.extensions.frames.frontendFolder(label) ?? null,
      (label) => host?.extensions.frames.imagesFolder(label) ?? null,
      (label, imageId) => host?.extensions.frames.avatarFile(label, imageId) ?? null,
    );
    disposeIpc = registerIpc(ipcMain, host, () => BrowserWindow.getAllWindows());
    openWindow();
    host.startToolSources();
    // `npm run cli` on this data folder talks to this app: one writer, and the window sees its changes at once.
    cliSocket = await listenForCli(host, dataDir, consoleLogger);
  };

  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (host && BrowserWindow.getAllWindows().length === 0) openWindow();
  });
  app.on('will-quit', (event) => {
    if (quitting || !host) return;
    quitting = true;
    event.preventDefault();
    disposeIpc?.();
    void cliSocket?.close();
    host
      .dispose()
      .catch((err: unknown) => consoleLogger.error('host dispose failed', err))
      .finally(() => app.quit());
  });
  app
    .whenReady()
    .then(start)
    .catch((err: unknown) => exitWithError('Council Workbench failed to start', err));
}

// Keys in the environment are read now and leave it, before anything else runs.
const env = takeKeyEnvironment();
const dataDir = startupDataDir();
if (dataDir !== undefined) {
  if (app.requestSingleInstanceLock()) run(dataDir);
  else app.quit();
}
