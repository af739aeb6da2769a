// Electron security checklist, checked statically (no Electron binary): every checker runs on our code and on a bad sample.
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../../shared/csp';
import {
  bannedPatternProblems,
  cspProblems,
  electronImportProblems,
  entryProblems,
  ipcEntryProblems,
  navigationGuardProblems,
  permissionHandlerProblems,
  rendererNetworkProblems,
  preloadProblems,
  protocolProblems,
  readRepoFile,
  remoteAndOpenExternalProblems,
  sourceFiles,
  webPreferencesProblems,
  windowOpenHandlerProblems,
} from './electron-checks';

const mainFiles = sourceFiles('electron/main');
const preloadFiles = sourceFiles('electron/preload');
const windowSource = readRepoFile('electron/main/window.ts');
const preloadSource = readRepoFile('electron/preload/index.ts');

const GOOD_PREFS = `contextIsolation: true, sandbox: true, nodeIntegration: false, nodeIntegrationInWorker: false,
  webSecurity: true, allowRunningInsecureContent: false, experimentalFeatures: false, webviewTag: false,
  spellcheck: false, preload: p`;
const windowWith = (prefs: string) => `const w = new BrowserWindow({ width: 1, webPreferences: { ${prefs} } });`;

describe('the files under test exist', () => {
  it('finds the main and preload sources', () => {
    expect(mainFiles).toEqual(expect.arrayContaining(['electron/main/window.ts', 'electron/main/ipc.ts', 'electron/main/index.ts']));
    expect(preloadFiles).toEqual(['electron/preload/index.ts']);
  });
});

describe('webPreferences (checklist 2, 3, 4, 6, 8, 9, 10)', () => {
  it('window.ts spells out every secure value literally', () => {
    expect(webPreferencesProblems(windowSource)).toEqual([]);
  });

  it('the checker catches a missing, wrong, spread or computed preference', () => {
    expect(webPreferencesProblems(windowWith(GOOD_PREFS))).toEqual([]);
    expect(webPreferencesProblems(windowWith(GOOD_PREFS.replace('sandbox: true', 'sandbox: false')))).toEqual([
      'webPreferences.sandbox is false (must be the literal true)',
    ]);
    expect(webPreferencesProblems(windowWith(GOOD_PREFS.replace('webviewTag: false,', '')))).toEqual([
      'webPreferences.webviewTag is not set (must be false)',
    ]);
    expect(webPreferencesProblems(windowWith(`...secure, ${GOOD_PREFS}`))).toContain('webPreferences uses a spread');
    expect(webPreferencesProblems(windowWith(GOOD_PREFS.replace('contextIsolation: true', 'contextIsolation: isolate')))).toEqual([
      'webPreferences.contextIsolation is isolate (must be the literal true)',
    ]);
    expect(webPreferencesProblems(windowWith(`${GOOD_PREFS}, enableBlinkFeatures: 'X'`))).toEqual([
      'webPreferences.enableBlinkFeatures is set',
    ]);
    expect(webPreferencesProblems('const w = new BrowserWindow({ webPreferences: prefs });')).toEqual([
      'webPreferences is missing or not an object literal',
    ]);
    expect(webPreferencesProblems('const w = 1;')).toEqual(['no `new BrowserWindow(...)` found']);
  });
});

describe('banned settings and file:// (checklist 2-4, 6, 8, 9, 18)', () => {
  it('no file in electron/main or electron/preload uses them', () => {
    for (const file of [...mainFiles, ...preloadFiles]) {
      expect(bannedPatternProblems(readRepoFile(file)), file).toEqual([]);
    }
  });

  it('the checker catches each of them', () => {
    const samples: Array<[string, string]> = [
      ['{ nodeIntegration: true }', 'uses nodeIntegration: true'],
      ["{ 'nodeIntegrationInWorker' :true }", 'uses nodeIntegration: true'],
      ['{ sandbox: false }', 'uses sandbox: false'],
      ['{ "contextIsolation": false }', 'uses contextIsolation: false'],
      ['{ webSecurity: false }', 'uses webSecurity: false'],
      ['{ allowRunningInsecureContent: true }', 'uses allowRunningInsecureContent: true'],
      ['{ experimentalFeatures: true }', 'uses experimentalFeatures: true'],
      ['{ webviewTag: true }', 'uses webviewTag: true'],
      ['win.loadFile("index.html")', 'uses loadFile('],
      ['win.loadURL(`FILE:///${dir}/index.html`)', 'uses file:// URL'],
      ['protocol.registerFileProtocol("x", cb)', 'uses file protocol handler'],
    ];
    for (const [sample, problem] of samples) expect(bannedPatternProblems(sample), sample).toEqual([problem]);
    expect(bannedPatternProblems('{ sandbox: true, nodeIntegration: false }')).toEqual([]);
  });
});

describe('new windows, navigation, webviews (checklist 12, 13, 14)', () => {
  it('window.ts denies every new window and guards navigation and webviews', () => {
    expect(windowOpenHandlerProblems(windowSource)).toEqual([]);
    expect(navigationGuardProblems(windowSource)).toEqual([]);
  });

  it('the window-open checker catches allow, conditional and missing handlers', () => {
    expect(windowOpenHandlerProblems("c.setWindowOpenHandler(() => ({ action: 'deny' }))")).toEqual([]);
    expect(windowOpenHandlerProblems("c.setWindowOpenHandler(() => ({ action: 'allow' }))")).toHaveLength(1);
    expect(
      windowOpenHandlerProblems("c.setWindowOpenHandler(({ url }) => { if (ok(url)) return { action: 'allow' }; return { action: 'deny' }; })"),
    ).toHaveLength(1);
    expect(windowOpenHandlerProblems("c.setWindowOpenHandler(() => ({ action: 'deny', overrideBrowserWindowOptions: {} }))")).toHaveLength(1);
    expect(windowOpenHandlerProblems('c.setWindowOpenHandler(handler)')).toEqual(['setWindowOpenHandler handler is not an inline function']);
    expect(windowOpenHandlerProblems('')).toEqual(['setWindowOpenHandler is never called']);
  });

  it('the navigation checker catches missing guards and guards that do not decide', () => {
    const good = `c.on('will-navigate', (e) => { if (!isAllowedNavigation(e.url)) e.preventDefault(); });
      c.on('will-frame-navigate', (e) => { if (!isAllowedFrameNavigation(e.url, e.isMainFrame)) e.preventDefault(); });
      c.on('will-attach-webview', (e) => { e.preventDefault(); });`;
    expect(navigationGuardProblems(good)).toEqual([]);
    expect(navigationGuardProblems(good.replace("c.on('will-navigate'", "c.on('did-navigate'"))).toEqual(["no 'will-navigate' handler"]);
    expect(navigationGuardProblems(good.replace("(e) => { if (!isAllowedNavigation(e.url)) e.preventDefault(); }", '(e) => log(e.url)'))).toEqual([
      "'will-navigate' handler never calls preventDefault",
      "'will-navigate' handler does not decide with isAllowedNavigation",
    ]);
    expect(navigationGuardProblems(good.replace('!isAllowedNavigation(e.url)', "!e.url.startsWith('app://council')"))).toEqual([
      "'will-navigate' handler does not decide with isAllowedNavigation",
    ]);
    expect(navigationGuardProblems(good.replace('{ e.preventDefault(); }', '{ if (bad) e.preventDefault(); }'))).toEqual([
      "'will-attach-webview' handler prevents only conditionally",
    ]);
  });
});

describe('permissions (checklist 5)', () => {
  it('window.ts refuses every permission request and check', () => {
    expect(permissionHandlerProblems(windowSource)).toEqual([]);
  });

  it('the checker catches a grant, a conditional grant and a missing handler', () => {
    const good = 's.setPermissionRequestHandler((_w, _p, cb) => { cb(false); }); s.setPermissionCheckHandler(() => false);';
    expect(permissionHandlerProblems(good)).toEqual([]);
    expect(permissionHandlerProblems(good.replace('cb(false)', 'cb(true)'))).toEqual(['permission callback used as cb(true) (only callback(false) is allowed)']);
    expect(permissionHandlerProblems(good.replace('cb(false)', "cb(p === 'media')"))).toHaveLength(1);
    expect(permissionHandlerProblems(good.replace('{ cb(false); }', '{ other(cb); }'))).toHaveLength(1);
    expect(permissionHandlerProblems(good.replace('() => false', "(_w, p) => p === 'fullscreen'"))).toEqual([
      'setPermissionCheckHandler handler may return something other than false',
    ]);
    expect(permissionHandlerProblems('')).toEqual(['setPermissionRequestHandler is never called', 'setPermissionCheckHandler is never called']);
  });
});

describe('app:// protocol and CSP (checklist 7, 18)', () => {
  it('protocol.ts registers a privileged scheme, uses protocol.handle and builds every response with the security headers', () => {
    expect(protocolProblems(readRepoFile('electron/main/protocol.ts'))).toEqual([]);
  });

  it('the protocol checker catches a bare Response, missing privileges and net.fetch passthrough', () => {
    const good = `protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
      protocol.handle('app', () => new Response('x', { status: 200, headers: securityHeaders('text/plain') }));`;
    expect(protocolProblems(good)).toEqual([]);
    expect(protocolProblems(good.replace("headers: securityHeaders('text/plain')", "headers: { 'content-type': 'text/html' }"))).toHaveLength(1);
    expect(protocolProblems(good.replace('secure: true', 'secure: false'))).toEqual(['app scheme privileges lack secure: true']);
    expect(protocolProblems(good.replace('supportFetchAPI: true', 'supportFetchAPI: true, bypassCSP: true'))).toEqual(['app scheme bypasses CSP']);
    expect(protocolProblems(good.replace("protocol.handle('app', () => new Response", "protocol.handle('app', (r) => net.fetch(r.url) ?? new Response"))).toEqual([
      'protocol handler forwards to net.fetch',
    ]);
    expect(protocolProblems('')).toHaveLength(3);
  });

  it("X2, W11: the shared CSP forbids everything by default and allows no inline script or eval", () => {
    expect(cspProblems(contentSecurityPolicy())).toEqual([]);
    expect(cspProblems(contentSecurityPolicy({ connectSrc: ['ws://127.0.0.1:5000'] }))).toEqual([]);
  });

  it('the CSP checker catches unsafe-inline, unsafe-eval, wildcards and a permissive default', () => {
    const good = contentSecurityPolicy();
    expect(cspProblems(good.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'"))).toContain("policy allows 'unsafe-inline'");
    expect(cspProblems(good.replace("style-src 'self'", "style-src 'self' 'unsafe-eval'"))).toEqual(["policy allows 'unsafe-eval'"]);
    expect(cspProblems(good.replace("default-src 'none'", "default-src 'self'"))).toEqual([
      `default-src is "'self'", expected "'none'"`,
    ]);
    expect(cspProblems(good.replace("img-src 'self' data:", 'img-src *'))).toEqual(['img-src allows a wildcard source (*)']);
    expect(cspProblems(good.replace("object-src 'none'; ", ''))).toEqual([`object-src is "(missing)", expected "'none'"`]);
  });
});

describe('preload bridge (checklist 20)', () => {
  it('X6: exposes exactly post and onMessage, never ipcRenderer, and strips the IpcRendererEvent', () => {
    expect(preloadProblems(preloadSource)).toEqual([]);
  });

  it('the checker catches extra members, exposed ipcRenderer, leaked events and extra imports', () => {
    expect(preloadProblems(preloadSource.replace('onMessage(listener', 'invoke: ipcRenderer.invoke, onMessage(listener'))).toEqual([
      'exposes [invoke, onMessage, post], expected exactly [onMessage, post]',
      'ipcRenderer used as "ipcRenderer.invoke" (only .send/.on/.removeListener calls)',
    ]);
    expect(preloadProblems("import { contextBridge, ipcRenderer } from 'electron';\ncontextBridge.exposeInMainWorld('councilHost', { ipcRenderer });")).toEqual([
      'exposes [ipcRenderer], expected exactly [onMessage, post]',
      'ipcRenderer used as "ipcRenderer" (only .send/.on/.removeListener calls)',
    ]);
    expect(preloadProblems(preloadSource.replace('=> listener(message)', '=> listener(message, _ipcEvent)'))).toEqual([
      'ipcRenderer.on listener passes its IpcRendererEvent on',
    ]);
    expect(preloadProblems(preloadSource.replace('ipcRenderer.on(IPC_CHANNEL, forward)', 'ipcRenderer.on(IPC_CHANNEL, listener)'))).toEqual([
      'ipcRenderer.on listener is not a function written in the preload',
    ]);
    expect(preloadProblems(`import fs from 'node:fs';\n${preloadSource}`)).toEqual(['preload imports node:fs']);
    expect(preloadProblems(`${preloadSource}\ncontextBridge.exposeInMainWorld('extra', {});`)).toContain(
      'exposeInMainWorld is called 2 times (expected once)',
    );
    expect(preloadProblems(preloadSource.replace("'councilHost'", "'host'"))).toEqual(['exposed under a name other than "councilHost"']);
  });
});

describe('remote module and shell.openExternal (checklist 15, 20)', () => {
  it('electron/, renderer/ and shared/ never use @electron/remote or openExternal with a computed URL', () => {
    for (const file of [...sourceFiles('electron'), ...sourceFiles('renderer'), ...sourceFiles('shared')]) {
      expect(remoteAndOpenExternalProblems(readRepoFile(file)), file).toEqual([]);
    }
  });

  it('the checker catches both', () => {
    expect(remoteAndOpenExternalProblems("import { BrowserWindow } from '@electron/remote/main';")).toEqual(['uses @electron/remote']);
    expect(remoteAndOpenExternalProblems('void shell.openExternal(url);')).toEqual([
      'openExternal called with a non-literal argument: shell.openExternal(url)',
    ]);
    expect(remoteAndOpenExternalProblems("void shell.openExternal('https://example.com/help');")).toEqual([]);
  });
});

describe('folder boundaries: renderer/ and shared/ never import electron', () => {
  it('holds for every file', () => {
    for (const file of [...sourceFiles('renderer'), ...sourceFiles('shared')]) {
      expect(electronImportProblems(readRepoFile(file), file), file).toEqual([]);
    }
  });

  it('the pure main-process modules do not import electron either, so they run in plain Node', () => {
    for (const file of ['app-origin', 'sender-check', 'navigation', 'app-files', 'args']) {
      expect(electronImportProblems(readRepoFile(`electron/main/${file}.ts`)), file).toEqual([]);
    }
  });

  it('the checker catches every way to load electron', () => {
    expect(electronImportProblems("import { ipcRenderer } from 'electron';")).toEqual(['imports electron']);
    expect(electronImportProblems("import type { WebContents } from 'electron/main';")).toEqual(['imports electron/main']);
    expect(electronImportProblems("export { shell } from 'electron';")).toEqual(['imports electron']);
    expect(electronImportProblems("const e = require('electron');")).toEqual(['loads electron']);
    expect(electronImportProblems("const e = await import('electron');")).toEqual(['loads electron']);
    expect(electronImportProblems("import x from 'electron-store';")).toEqual([]);
  });
});

describe('IPC entry point (checklist 17)', () => {
  const files = Object.fromEntries(mainFiles.map((f) => [f, readRepoFile(f)]));

  it('only ipc.ts listens on ipcMain, exactly once, and checks the sender before the kernel reads a message', () => {
    expect(ipcEntryProblems(files, 'electron/main/ipc.ts')).toEqual([]);
  });

  it('the checker catches an ipcMain.handle, a second listener and a missing sender check', () => {
    const ipc = files['electron/main/ipc.ts']!;
    expect(ipcEntryProblems({ ...files, 'electron/main/extra.ts': "ipcMain.handle('x', () => 1);" }, 'electron/main/ipc.ts')).toEqual([
      'electron/main/extra.ts: ipcMain.handle outside the one IPC listener',
    ]);
    expect(ipcEntryProblems({ ...files, 'electron/main/extra.ts': "ipcMain.on('x', () => 1);" }, 'electron/main/ipc.ts')).toHaveLength(1);
    expect(
      ipcEntryProblems({ ...files, 'electron/main/ipc.ts': ipc.replace('checkSender(event.senderFrame)', 'null') }, 'electron/main/ipc.ts'),
    ).toEqual(['electron/main/ipc.ts never calls checkSender(event.senderFrame)']);
  });
});

describe('main entry (checklist 4, 13, 18)', () => {
  const index = readRepoFile('electron/main/index.ts');

  it('S5: enables the sandbox and registers app:// before ready, hardens every web contents, loads only the app entry', () => {
    expect(entryProblems(index)).toEqual([]);
  });

  it('S5: a second instance on the same data folder quits before it writes: the single-instance lock guards the only run(), and the host (the only writer) is created inside run()', () => {
    expect(singleInstanceProblems(index)).toEqual([]);
    // The checker catches a run() outside the lock, and a host created outside run().
    expect(singleInstanceProblems(index.replace('if (app.requestSingleInstanceLock()) run(dataDir);', 'run(dataDir);'))).toContain('run() is not guarded by app.requestSingleInstanceLock()');
    expect(singleInstanceProblems(`${index}\nvoid createHost({} as never);`)).toContain('createHost is called outside run()');
  });

  it('the checker catches each omission', () => {
    expect(entryProblems(index.replace('app.enableSandbox();', ''))).toEqual(['app.enableSandbox() is not called at the top level']);
    expect(entryProblems(index.replace('void win.loadURL(APP_ENTRY_URL)', "void win.loadURL('https://example.com')"))).toEqual([
      "loadURL('https://example.com') is not the app entry",
    ]);
    expect(entryProblems(index.replace('hardenWebContents(contents)', 'undefined'))).toEqual([
      'hardenWebContents is not applied to every created web contents',
    ]);
  });
});

/** S5: where the lock is taken, what it guards, and that nothing before it creates the host. */
function singleInstanceProblems(source: string): string[] {
  const problems: string[] = [];
  const runCalls = [...source.matchAll(/^(.*)\brun\(dataDir\);/gm)];
  if (runCalls.length !== 1 || !/if \(app\.requestSingleInstanceLock\(\)\) $/.test(runCalls[0]![1]!)) problems.push('run() is not guarded by app.requestSingleInstanceLock()');
  if (!/else app\.quit\(\);/.test(source)) problems.push('the second instance does not quit');
  const body = /function run\(dataDir: string\): void \{([\s\S]*?)\n\}\n/.exec(source)?.[1] ?? '';
  const hostCalls = (source.match(/\bcreateHost\(/g) ?? []).length;
  if ((body.match(/\bcreateHost\(/g) ?? []).length !== hostCalls || hostCalls === 0) problems.push('createHost is called outside run()');
  return problems;
}

describe('WebRTC and the renderer network (round three, N1)', () => {
  const index = readRepoFile('electron/main/index.ts');

  it('N1: every web contents sends no UDP, and the session proxies everything else, loopback included, nowhere', () => {
    expect(rendererNetworkProblems(windowSource, index)).toEqual([]);
    // Every cw-ext:// response carries the frames' network headers, as browser mode's do.
    expect(readRepoFile('electron/main/frame-protocol.ts')).toMatch(/'Content-Security-Policy': csp, \.\.\.frameNetworkHeaders\(sandbox \? 'sandbox' : 'frame'\)/);
  });

  it('the checker catches a weaker policy, a missing proxy and a session left on the network', () => {
    expect(rendererNetworkProblems(windowSource.replace("'disable_non_proxied_udp'", "'default_public_interface_only'"), index)).toHaveLength(1);
    expect(rendererNetworkProblems(windowSource.replace("proxyBypassRules: '<-loopback>'", "proxyBypassRules: '<local>'"), index)).toHaveLength(1);
    expect(rendererNetworkProblems(windowSource.replace("contents.setWebRTCIPHandlingPolicy('disable_non_proxied_udp');", ''), index)).toEqual(['hardenWebContents does not set a WebRTC IP handling policy']);
    expect(rendererNetworkProblems(windowSource, index.replace('await cutRendererNetwork(session.defaultSession);', ''))).toEqual(['index.ts never cuts the default session off the network']);
  });
});

/** Every utilityProcess.fork call in a source, and whether each gives the child an environment of its own. */
function utilityForkProblems(source: string): string[] {
  const calls = [...source.matchAll(/utilityProcess\.fork\(([\s\S]*?)\)(?:,\s*residentBytes\))?;?\n/g)].map((m) => m[1]!);
  if (calls.length === 0) return ['no utilityProcess.fork found'];
  const problems: string[] = [];
  for (const call of calls) {
    if (/process\.env/.test(call)) problems.push('a utility process inherits process.env');
    else if (!/env:\s*(options\.env|minimalWorkerEnv\()/.test(call)) problems.push('a utility process is started without an explicit environment');
  }
  return problems;
}

describe('utility processes (extension workers, the local model engine)', () => {
  const launcher = readRepoFile('electron/main/utility-launcher.ts');

  it('each is started with an environment of its own, never the app’s (keys stay out of workers and the engine)', () => {
    expect(utilityForkProblems(launcher)).toEqual([]);
    expect(launcher).toMatch(/utilityProcess\.fork\(entry, \[\], \{ env: minimalWorkerEnv\(/);
  });

  it('the checker catches an inherited and a missing environment', () => {
    expect(utilityForkProblems("utilityProcess.fork(entry, [], { env: { ...process.env }, stdio: 'pipe' });\n")).toEqual(['a utility process inherits process.env']);
    expect(utilityForkProblems("utilityProcess.fork(entry, [], { stdio: 'pipe' });\n")).toEqual(['a utility process is started without an explicit environment']);
  });
});
