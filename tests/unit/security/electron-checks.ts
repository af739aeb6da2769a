// Static checkers for the Electron security checklist: each takes source text and returns the problems found.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const ROOT = path.resolve(__dirname, '../../..');

export function readRepoFile(rel: string): string {
  return fs.readFileSync(path.join(ROOT, rel), 'utf8');
}

/** Every source file under a repo folder (missing folder → empty list). */
export function sourceFiles(relDir: string, exts = ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts']): string[] {
  const abs = path.join(ROOT, relDir);
  if (!fs.existsSync(abs)) return [];
  const out: string[] = [];
  for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const rel = path.posix.join(relDir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(rel, exts));
    else if (exts.includes(path.extname(entry.name))) out.push(rel);
  }
  return out;
}

function parse(source: string, name = 'sample.ts'): ts.SourceFile {
  return ts.createSourceFile(name, source, ts.ScriptTarget.Latest, true, name.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

function findAll<T extends ts.Node>(root: ts.Node, test: (node: ts.Node) => node is T): T[] {
  const out: T[] = [];
  walk(root, (node) => {
    if (test(node)) out.push(node);
  });
  return out;
}

/** `x satisfies T`, `x as T`, `(x)` → x */
function unwrap(expr: ts.Expression): ts.Expression {
  let current = expr;
  while (ts.isSatisfiesExpression(current) || ts.isAsExpression(current) || ts.isParenthesizedExpression(current)) {
    current = current.expression;
  }
  return current;
}

function propertyName(name: ts.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  return undefined;
}

/** Calls whose callee is `<anything>.method(...)`. */
function methodCalls(root: ts.Node, method: string): ts.CallExpression[] {
  return findAll(root, ts.isCallExpression).filter(
    (call) => ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === method,
  );
}

function calleeObjectText(call: ts.CallExpression): string {
  return ts.isPropertyAccessExpression(call.expression) ? call.expression.expression.getText() : '';
}

type Fn = ts.ArrowFunction | ts.FunctionExpression;

function isFn(node: ts.Node | undefined): node is Fn {
  return node !== undefined && (ts.isArrowFunction(node) || ts.isFunctionExpression(node));
}

/** The expressions a function can return (its own body only, not nested functions); null when it may fall off the end. */
function returnedExpressions(fn: Fn): ts.Expression[] {
  if (!ts.isBlock(fn.body)) return [fn.body];
  const out: ts.Expression[] = [];
  const visit = (node: ts.Node) => {
    if (isFn(node) || ts.isFunctionDeclaration(node)) return;
    if (ts.isReturnStatement(node)) out.push(node.expression ?? ts.factory.createIdentifier('undefined'));
    node.forEachChild(visit);
  };
  fn.body.forEachChild(visit);
  return out;
}

function identifierUses(root: ts.Node, name: string): ts.Identifier[] {
  return findAll(root, ts.isIdentifier).filter((id) => id.text === name);
}

// ---------------------------------------------------------------------------------------------
// 1-4, 6, 8, 9: webPreferences written literally, with every secure value.

export const REQUIRED_WEB_PREFERENCES: Record<string, boolean> = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  spellcheck: false,
};

export function webPreferencesProblems(source: string): string[] {
  const file = parse(source);
  const windows = findAll(file, ts.isNewExpression).filter((n) =>
    ['BrowserWindow', 'BrowserView', 'WebContentsView'].includes(n.expression.getText()),
  );
  if (windows.length === 0) return ['no `new BrowserWindow(...)` found'];
  const problems: string[] = [];
  for (const win of windows) {
    const options = win.arguments?.[0] && unwrap(win.arguments[0]);
    if (!options || !ts.isObjectLiteralExpression(options)) {
      problems.push(`${win.expression.getText()} options are not an object literal`);
      continue;
    }
    const prefsProp = options.properties.find((p) => p.name && propertyName(p.name) === 'webPreferences');
    if (!prefsProp || !ts.isPropertyAssignment(prefsProp) || !ts.isObjectLiteralExpression(unwrap(prefsProp.initializer))) {
      problems.push('webPreferences is missing or not an object literal');
      continue;
    }
    const prefs = unwrap(prefsProp.initializer) as ts.ObjectLiteralExpression;
    const values = new Map<string, ts.Expression>();
    for (const prop of prefs.properties) {
      if (ts.isSpreadAssignment(prop)) problems.push('webPreferences uses a spread');
      else if (!ts.isPropertyAssignment(prop) || !propertyName(prop.name)) problems.push(`webPreferences entry "${prop.getText()}" is not a plain key: value`);
      else values.set(propertyName(prop.name)!, prop.initializer);
    }
    for (const [key, wanted] of Object.entries(REQUIRED_WEB_PREFERENCES)) {
      const value = values.get(key);
      const kind = wanted ? ts.SyntaxKind.TrueKeyword : ts.SyntaxKind.FalseKeyword;
      if (!value) problems.push(`webPreferences.${key} is not set (must be ${wanted})`);
      else if (value.kind !== kind) problems.push(`webPreferences.${key} is ${value.getText()} (must be the literal ${wanted})`);
    }
    if (!values.has('preload')) problems.push('webPreferences.preload is not set');
    if (values.has('enableBlinkFeatures')) problems.push('webPreferences.enableBlinkFeatures is set');
    const subFrames = values.get('nodeIntegrationInSubFrames');
    if (subFrames && subFrames.kind !== ts.SyntaxKind.FalseKeyword) problems.push('webPreferences.nodeIntegrationInSubFrames is not false');
  }
  return problems;
}

/** Insecure settings and file:// loading, anywhere in the text (comments included: there is no reason to write them). */
export const BANNED_PATTERNS: Array<[RegExp, string]> = [
  [/['"]?\bnodeIntegration(InWorker|InSubFrames)?['"]?\s*:\s*true\b/, 'nodeIntegration: true'],
  [/['"]?\bsandbox['"]?\s*:\s*false\b/, 'sandbox: false'],
  [/['"]?\bcontextIsolation['"]?\s*:\s*false\b/, 'contextIsolation: false'],
  [/['"]?\bwebSecurity['"]?\s*:\s*false\b/, 'webSecurity: false'],
  [/['"]?\ballowRunningInsecureContent['"]?\s*:\s*true\b/, 'allowRunningInsecureContent: true'],
  [/['"]?\bexperimentalFeatures['"]?\s*:\s*true\b/, 'experimentalFeatures: true'],
  [/['"]?\bwebviewTag['"]?\s*:\s*true\b/, 'webviewTag: true'],
  [/\benableBlinkFeatures\b/, 'enableBlinkFeatures'],
  [/\bloadFile\s*\(/, 'loadFile('],
  [/\bfile:\/\//i, 'file:// URL'],
  [/\b(registerFileProtocol|interceptFileProtocol)\b/, 'file protocol handler'],
  [/\bdisableSecurityWarnings\b|ELECTRON_DISABLE_SECURITY_WARNINGS/, 'security warnings disabled'],
];

export function bannedPatternProblems(source: string): string[] {
  return BANNED_PATTERNS.filter(([re]) => re.test(source)).map(([, what]) => `uses ${what}`);
}

// 14: window.open and friends.
export function windowOpenHandlerProblems(source: string): string[] {
  const calls = methodCalls(parse(source), 'setWindowOpenHandler');
  if (calls.length === 0) return ['setWindowOpenHandler is never called'];
  const problems: string[] = [];
  for (const call of calls) {
    const handler = call.arguments[0];
    if (!isFn(handler)) {
      problems.push('setWindowOpenHandler handler is not an inline function');
      continue;
    }
    const returns = returnedExpressions(handler);
    if (returns.length === 0) problems.push('setWindowOpenHandler handler returns nothing');
    for (const ret of returns) {
      const obj = unwrap(ret);
      const action = ts.isObjectLiteralExpression(obj)
        ? obj.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && propertyName(p.name) === 'action')
        : undefined;
      if (!action || !ts.isStringLiteral(action.initializer) || action.initializer.text !== 'deny' || (obj as ts.ObjectLiteralExpression).properties.length !== 1) {
        problems.push(`setWindowOpenHandler may return ${ret.getText()} (must be exactly { action: 'deny' })`);
      }
    }
  }
  return problems;
}

/** `.on(event, handler)` handlers for an event name. */
function eventHandlers(file: ts.SourceFile, event: string): ts.Node[] {
  return methodCalls(file, 'on')
    .filter((c) => c.arguments[0] && ts.isStringLiteral(c.arguments[0]) && c.arguments[0].text === event)
    .map((c) => c.arguments[1])
    .filter((h): h is ts.Expression => h !== undefined);
}

// 12, 13: navigation and webview guards.
export function navigationGuardProblems(source: string): string[] {
  const file = parse(source);
  const problems: string[] = [];
  // Subframes may also load extensions' frame pages (isAllowedFrameNavigation builds on isAllowedNavigation).
  for (const [event, mustCheck, decider] of [
    ['will-navigate', true, 'isAllowedNavigation'],
    ['will-frame-navigate', true, 'isAllowedFrameNavigation'],
    ['will-attach-webview', false, ''],
  ] as const) {
    const handlers = eventHandlers(file, event);
    if (handlers.length === 0) problems.push(`no '${event}' handler`);
    for (const handler of handlers) {
      if (!isFn(handler)) {
        problems.push(`'${event}' handler is not an inline function`);
        continue;
      }
      if (methodCalls(handler, 'preventDefault').length === 0) problems.push(`'${event}' handler never calls preventDefault`);
      if (mustCheck && identifierUses(handler, decider).length === 0) {
        problems.push(`'${event}' handler does not decide with ${decider}`);
      }
      if (!mustCheck && findAll(handler, ts.isIfStatement).length > 0) problems.push(`'${event}' handler prevents only conditionally`);
    }
  }
  return problems;
}

// 5: permissions.
export function permissionHandlerProblems(source: string): string[] {
  const file = parse(source);
  const problems: string[] = [];
  const requests = methodCalls(file, 'setPermissionRequestHandler');
  if (requests.length === 0) problems.push('setPermissionRequestHandler is never called');
  for (const call of requests) {
    const handler = call.arguments[0];
    const cbParam = isFn(handler) ? handler.parameters[2] : undefined;
    if (!isFn(handler) || !cbParam || !ts.isIdentifier(cbParam.name)) {
      problems.push('setPermissionRequestHandler handler is not an inline (webContents, permission, callback) function');
      continue;
    }
    const cb = cbParam.name.text;
    const uses = identifierUses(handler.body, cb);
    if (uses.length === 0) problems.push('permission callback is never called');
    for (const use of uses) {
      const parent = use.parent;
      const grantsNothing =
        ts.isCallExpression(parent) &&
        parent.expression === use &&
        parent.arguments.length === 1 &&
        parent.arguments[0]!.kind === ts.SyntaxKind.FalseKeyword;
      if (!grantsNothing) problems.push(`permission callback used as ${parent.getText()} (only callback(false) is allowed)`);
    }
  }
  const checks = methodCalls(file, 'setPermissionCheckHandler');
  if (checks.length === 0) problems.push('setPermissionCheckHandler is never called');
  for (const call of checks) {
    const handler = call.arguments[0];
    if (!isFn(handler)) {
      problems.push('setPermissionCheckHandler handler is not an inline function');
      continue;
    }
    const returns = returnedExpressions(handler);
    if (returns.length === 0 || returns.some((r) => unwrap(r).kind !== ts.SyntaxKind.FalseKeyword)) {
      problems.push('setPermissionCheckHandler handler may return something other than false');
    }
  }
  return problems;
}

// 18: custom protocol instead of file://, with the security headers on every response.
export function protocolProblems(protocolSource: string): string[] {
  const file = parse(protocolSource);
  const problems: string[] = [];
  const handles = methodCalls(file, 'handle').filter((c) => calleeObjectText(c) === 'protocol');
  if (handles.length === 0) problems.push('protocol.handle is never called');
  const privileged = methodCalls(file, 'registerSchemesAsPrivileged');
  if (privileged.length === 0) problems.push('registerSchemesAsPrivileged is never called');
  for (const call of privileged) {
    const text = call.getText().replace(/\s+/g, ' ');
    for (const flag of ['standard: true', 'secure: true', 'supportFetchAPI: true']) {
      if (!text.includes(flag)) problems.push(`app scheme privileges lack ${flag}`);
    }
    if (/bypassCSP\s*:\s*true/.test(text)) problems.push('app scheme bypasses CSP');
  }
  const responses = findAll(file, ts.isNewExpression).filter((n) => n.expression.getText() === 'Response');
  if (responses.length === 0) problems.push('no Response is built');
  for (const response of responses) {
    const init = response.arguments?.[1];
    const headers =
      init && ts.isObjectLiteralExpression(init)
        ? init.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && propertyName(p.name) === 'headers')
        : undefined;
    if (!headers || !ts.isCallExpression(headers.initializer) || headers.initializer.expression.getText() !== 'securityHeaders') {
      problems.push(`${response.getText().slice(0, 60)} is not built with headers: securityHeaders(...)`);
    }
  }
  if (/\bnet\.fetch\b/.test(protocolSource)) problems.push('protocol handler forwards to net.fetch');
  return problems;
}

// 7: CSP.
export function cspProblems(policy: string): string[] {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), values);
  }
  const problems: string[] = [];
  const same = (name: string, wanted: string[]) => {
    const got = directives.get(name);
    if (!got || got.join(' ') !== wanted.join(' ')) problems.push(`${name} is "${got?.join(' ') ?? '(missing)'}", expected "${wanted.join(' ')}"`);
  };
  same('default-src', ["'none'"]);
  same('script-src', ["'self'"]);
  same('object-src', ["'none'"]);
  same('base-uri', ["'none'"]);
  same('frame-ancestors', ["'none'"]);
  for (const bad of ["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "'wasm-unsafe-eval'"]) {
    if (policy.includes(bad)) problems.push(`policy allows ${bad}`);
  }
  for (const [name, values] of directives) {
    if (values.some((v) => v === '*' || v === 'http:' || v === 'https:' || (v === 'data:' && name !== 'img-src'))) {
      problems.push(`${name} allows a wildcard source (${values.join(' ')})`);
    }
  }
  return problems;
}

// 20: the preload bridge.
const IPC_RENDERER_METHODS = new Set(['send', 'on', 'removeListener']);

export function preloadProblems(source: string): string[] {
  const file = parse(source);
  const problems: string[] = [];
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const spec = statement.moduleSpecifier.text;
      if (spec !== 'electron' && !spec.startsWith('../../shared/')) problems.push(`preload imports ${spec}`);
    }
  }
  const exposes = methodCalls(file, 'exposeInMainWorld');
  if (exposes.length !== 1) problems.push(`exposeInMainWorld is called ${exposes.length} times (expected once)`);
  for (const call of exposes) {
    const [key, api] = call.arguments;
    if (!key || !ts.isStringLiteral(key) || key.text !== 'councilHost') problems.push('exposed under a name other than "councilHost"');
    const obj = api && unwrap(api);
    if (!obj || !ts.isObjectLiteralExpression(obj)) {
      problems.push('the exposed value is not an object literal');
      continue;
    }
    const names: string[] = [];
    for (const prop of obj.properties) {
      if (ts.isSpreadAssignment(prop) || !prop.name || !propertyName(prop.name)) problems.push(`exposed entry "${prop.getText().slice(0, 40)}" is not a named member`);
      else names.push(propertyName(prop.name)!);
    }
    if (names.sort().join(',') !== 'onMessage,post') problems.push(`exposes [${names.join(', ')}], expected exactly [onMessage, post]`);
  }
  // ipcRenderer may only be used to call send/on/removeListener, never handed out as a value.
  for (const use of identifierUses(file, 'ipcRenderer')) {
    if (ts.isImportSpecifier(use.parent)) continue;
    const parent = use.parent;
    const okCall =
      ts.isPropertyAccessExpression(parent) &&
      parent.expression === use &&
      IPC_RENDERER_METHODS.has(parent.name.text) &&
      ts.isCallExpression(parent.parent) &&
      parent.parent.expression === parent;
    if (!okCall) problems.push(`ipcRenderer used as "${parent.getText().slice(0, 60)}" (only .send/.on/.removeListener calls)`);
  }
  // Listeners given to ipcRenderer.on must not pass their IpcRendererEvent on.
  for (const call of methodCalls(file, 'on').filter((c) => calleeObjectText(c) === 'ipcRenderer')) {
    let listener: ts.Node | undefined = call.arguments[1];
    if (listener && ts.isIdentifier(listener)) {
      const name = listener.text;
      listener = findAll(file, ts.isVariableDeclaration).find((d) => ts.isIdentifier(d.name) && d.name.text === name)?.initializer;
    }
    if (!isFn(listener)) {
      problems.push('ipcRenderer.on listener is not a function written in the preload');
      continue;
    }
    const first = listener.parameters[0];
    if (!first || !ts.isIdentifier(first.name)) {
      problems.push('ipcRenderer.on listener does not take (event, payload)');
    } else if (identifierUses(listener.body, first.name.text).length > 0) {
      problems.push('ipcRenderer.on listener passes its IpcRendererEvent on');
    }
  }
  return problems;
}

// 15 and the removed remote module.
export function remoteAndOpenExternalProblems(source: string): string[] {
  const problems: string[] = [];
  if (/['"]@electron\/remote(\/[^'"]*)?['"]/.test(source)) problems.push('uses @electron/remote');
  if (/\bremote\s*\.\s*require\b|\benableRemoteModule\b/.test(source)) problems.push('uses the remote module');
  for (const call of methodCalls(parse(source), 'openExternal')) {
    const arg = call.arguments[0];
    if (!arg || !(ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) {
      problems.push(`openExternal called with a non-literal argument: ${call.getText().slice(0, 60)}`);
    }
  }
  return problems;
}

/** import/export-from/require/import() of `electron` or `electron/...`. */
export function electronImportProblems(source: string, name = 'sample.ts'): string[] {
  const file = parse(source, name);
  const problems: string[] = [];
  const isElectron = (spec: string) => spec === 'electron' || spec.startsWith('electron/');
  walk(file, (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (isElectron(node.moduleSpecifier.text)) problems.push(`imports ${node.moduleSpecifier.text}`);
    }
    if (ts.isCallExpression(node) && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      const callee = node.expression;
      const isLoader = callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require');
      if (isLoader && isElectron(node.arguments[0].text)) problems.push(`loads ${node.arguments[0].text}`);
    }
  });
  return problems;
}

// 17: the only IPC entry point, with the sender checked before the host is called.
export function ipcEntryProblems(files: Record<string, string>, ipcFile: string): string[] {
  const problems: string[] = [];
  let listeners = 0;
  for (const [name, source] of Object.entries(files)) {
    const file = parse(source, name);
    for (const method of ['handle', 'handleOnce', 'on', 'once', 'addListener']) {
      const count = methodCalls(file, method).filter((c) => calleeObjectText(c) === 'ipcMain').length;
      if (method === 'on' && name === ipcFile) listeners += count;
      else if (count > 0) problems.push(`${name}: ipcMain.${method} outside the one IPC listener`);
    }
  }
  if (listeners !== 1) problems.push(`${ipcFile} registers ${listeners} ipcMain.on listeners (expected 1)`);
  const ipc = files[ipcFile] ?? '';
  // The listener checks the sender, then hands the message to the kernel (whose serve() alone calls the host).
  const check = ipc.indexOf('checkSender(event.senderFrame)');
  const handOver = ipc.indexOf('.receive(message)');
  if (check < 0) problems.push(`${ipcFile} never calls checkSender(event.senderFrame)`);
  if (handOver < 0 || (check >= 0 && handOver < check)) problems.push(`${ipcFile} does not hand a message to the kernel after the sender check`);
  if (!/IPC_CHANNEL/.test(ipc)) problems.push(`${ipcFile} does not use the shared channel name`);
  return problems;
}

/** Statements at the top level of the main entry, before anything waits for 'ready'. */
export function entryProblems(source: string): string[] {
  const file = parse(source);
  const topCalls = file.statements
    .filter(ts.isExpressionStatement)
    .map((s) => s.expression.getText().replace(/\s+/g, ''));
  const problems: string[] = [];
  if (!topCalls.includes('app.enableSandbox()')) problems.push('app.enableSandbox() is not called at the top level');
  if (!topCalls.includes('registerAppScheme()')) problems.push('registerAppScheme() is not called at the top level');
  if (!/requestSingleInstanceLock\(\)/.test(source)) problems.push('no single-instance lock');
  if (!/'web-contents-created',\s*\(_event, contents\) => hardenWebContents\(contents\)/.test(source)) {
    problems.push('hardenWebContents is not applied to every created web contents');
  }
  for (const call of methodCalls(file, 'loadURL')) {
    if (call.arguments[0]?.getText() !== 'APP_ENTRY_URL') problems.push(`loadURL(${call.arguments[0]?.getText()}) is not the app entry`);
  }
  if (methodCalls(file, 'loadURL').length === 0) problems.push('the window never loads APP_ENTRY_URL');
  return problems;
}

// Round three: WebRTC and the renderer's network, which CSP does not govern.
export function rendererNetworkProblems(windowSource: string, indexSource: string): string[] {
  const file = parse(windowSource);
  const problems: string[] = [];
  const harden = findAll(file, ts.isFunctionDeclaration).find((f) => f.name?.text === 'hardenWebContents');
  const policies = harden ? methodCalls(harden, 'setWebRTCIPHandlingPolicy') : [];
  if (policies.length === 0) problems.push('hardenWebContents does not set a WebRTC IP handling policy');
  for (const call of policies) {
    const arg = call.arguments[0];
    if (!arg || !ts.isStringLiteral(arg) || arg.text !== 'disable_non_proxied_udp') problems.push(`WebRTC IP handling policy is ${arg?.getText()} (only 'disable_non_proxied_udp' sends nothing without the proxy)`);
  }
  const proxies = methodCalls(file, 'setProxy');
  if (proxies.length === 0) problems.push('the renderer session keeps its network (no setProxy)');
  for (const call of proxies) {
    const text = call.arguments[0]?.getText() ?? '';
    if (!/proxyRules:\s*'127\.0\.0\.1:9'/.test(text) || !/proxyBypassRules:\s*'<-loopback>'/.test(text)) problems.push(`setProxy(${text}) does not send everything, loopback included, to the discard port`);
  }
  if (!/await cutRendererNetwork\(session\.defaultSession\);/.test(indexSource)) problems.push('index.ts never cuts the default session off the network');
  return problems;
}
