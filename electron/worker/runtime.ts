// Entry of an extension worker process: waits for `init`, installs the `spindle` global, closes the network, loads the extension.
const os = process.getBuiltinModule('node:os');
const path = process.getBuiltinModule('node:path');
const { pathToFileURL } = process.getBuiltinModule('node:url');
import { SHUTDOWN_HANDLERS_MS, type HostToWorkerMessage, type InitMessage, type WorkerToHostMessage } from '../../shared/protocol';
import type { ChildInitMessage } from '../../shared/protocol/worker-schemas';
import type { ChildToHostMessage } from '../../shared/protocol/child-schemas';
import { dispatch, type MessageHandlers } from '../../shared/protocol/dispatch';
import { CallContexts } from './call-context';
import { detectHostPort, type HostPort } from './host-port';
import { lockDown, NETWORK_DENIED_MESSAGE } from './lockdown';
import { childProcessRuntime, type ChildProcessRuntime } from './process-child';
import { createSpindle, formatLogArgs, type SpindleRuntime } from './spindle';
import { createLog, routeConsole, type SpindleLog } from './spindle/log';
import type { SpindleStorage } from './spindle/storage';
import { createBunGlobal } from './bun/bun-global';
import { bunFile } from './bun/bun-file';
import { withFileUrls } from './file-fetch';

const EXIT_FLUSH_MS = 500;

/** Sends a last message, then exits once it is handed over (or after a short wait). */
function exitAfter(port: HostPort, code: number, message?: WorkerToHostMessage): void {
  if (!message) process.exit(code);
  const timer = setTimeout(() => process.exit(code), EXIT_FLUSH_MS);
  port.send(message, {
    done: () => {
      clearTimeout(timer);
      process.exit(code);
    },
  });
}

/** Published bundles assume Bun: a `Bun` global backed by Node, its gaps said once each in the log. */
function installBun(warn: (text: string) => void, storage: SpindleStorage, folder: string, main: string): void {
  const said = new Set<string>();
  const unsupported = (member: string) => {
    if (said.has(member)) return;
    said.add(member);
    warn(`Bun.${member} is not available in the Council Workbench (logged once).`);
  };
  const bun = createBunGlobal({ folder, storage, main, unsupported });
  Object.defineProperty(globalThis, 'Bun', { value: bun, enumerable: false, configurable: false, writable: false });
}

/** A managed backend process has no spindle API, so no storage: its Bun.write and relative Bun.file are refused. */
const NO_STORAGE = new Proxy({} as SpindleStorage, {
  // Not a thenable, nor anything a symbol names: only its methods answer, each refused.
  get: (_target, name) =>
    typeof name !== 'string' || name === 'then' ? undefined : () => Promise.reject(Object.assign(new Error('A backend process has no storage; its parent backend keeps files (spindle.storage).'), { code: 'UNSUPPORTED_HERE' })),
});

/** Whether Node's permission model confines this process (the Node launcher turns it on). */
function contained(): boolean {
  const permission = (process as unknown as { permission?: { has(scope: string, reference?: string): boolean } }).permission;
  return !!permission && !permission.has('fs.write') && !permission.has('child');
}

/** In a network namespace of its own, the process sees no interface at all (not even a loopback that is up). */
function networkIsolated(): boolean {
  return Object.keys(os.networkInterfaces()).length === 0;
}

function main(): void {
  const detected = detectHostPort();
  if (!detected) {
    process.stderr.write('This is the Council Workbench extension worker; the host starts it.\n');
    process.exit(2);
  }
  const port: HostPort = detected;
  const send = (message: WorkerToHostMessage) => void port.send(message);
  process.on('unhandledRejection', (reason) => send({ type: 'log', level: 'error', message: formatLogArgs(['Unhandled promise rejection:', reason]) }));
  // An orphaned worker must not outlive its host.
  port.onClose(() => process.exit(0));

  let runtime: SpindleRuntime | null = null;
  const contexts = new CallContexts();
  // Calls that arrive while the entry is still loading (top-level await) wait for it to finish.
  let loading: Promise<void> | null = null;
  // Event handlers still running: a shutdown lets them finish (up to SHUTDOWN_HANDLERS_MS) before exiting.
  const handling = new Set<Promise<void>>();
  const track = (work: Promise<void> | undefined): void => {
    if (!work) return;
    handling.add(work);
    void work.finally(() => handling.delete(work));
  };

  async function init(message: InitMessage): Promise<void> {
    const created = createSpindle({ manifest: message.manifest, granted: message.granted, send, post: (out, maxChars) => port.send(out, { maxChars }) });
    runtime = created;
    routeConsole(created.api.log as SpindleLog);
    Object.defineProperty(globalThis, 'spindle', { value: created.api, enumerable: false, configurable: false, writable: false });
    const entry = path.resolve(message.extensionPath, message.manifest.main);
    // Asked before extension code runs (it could patch what answers), once: the lockdown is set up for these
    // answers, and the host is told the same ones.
    const isolated = networkIsolated();
    const confined = contained();
    const storage = created.api.storage as SpindleStorage;
    installBun((text) => (created.api.log as SpindleLog).warn(text), storage, message.extensionPath, entry);
    const files = bunFile({ folder: message.extensionPath, storage });
    lockDown({
      fetch: withFileUrls(created.fetch, (url) => files.file(url).bytes()),
      readable: [message.extensionPath, path.dirname(process.argv[1] ?? message.extensionPath)],
      channels: port.streams,
      networkIsolated: isolated,
    });
    try {
      // The extension's own entry: the host checked that it is a .js file inside the extension folder.
      // eslint-disable-next-line no-unsanitized/method
      await import(pathToFileURL(entry).href);
    } catch (err) {
      const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
      exitAfter(port, 1, { type: 'log', level: 'error', message: formatLogArgs([`Loading ${message.manifest.main} failed:\n${detail}`]) });
      return;
    }
    // What it listens to, before it is ready: also "nothing", so the host sends no events to an extension without handlers.
    send({ type: 'events_wanted', events: created.eventNames() });
    send({ type: 'ready', contained: confined, networkIsolated: isolated });
  }

  /** Run as a managed backend process instead (spindle.backendProcesses): the same containment, no spindle API. */
  let child: ChildProcessRuntime | null = null;
  function startChild(message: ChildInitMessage): void {
    const warn = (text: string) => send({ type: 'log', level: 'warn', message: text });
    child = childProcessRuntime(send as (message: ChildToHostMessage) => void, (code, last) => exitAfter(port, code, last as never), warn);
    routeConsole(createLog(send) as SpindleLog);
    const isolated = networkIsolated();
    installBun(warn, NO_STORAGE, message.extensionPath, message.entryPath);
    const refuse = () => Promise.reject(Object.assign(new TypeError(`fetch: ${NETWORK_DENIED_MESSAGE}`), { code: 'ERR_ACCESS_DENIED' }));
    lockDown({ fetch: refuse as typeof fetch, readable: [message.extensionPath, path.dirname(process.argv[1] ?? message.extensionPath)], channels: port.streams, networkIsolated: isolated });
    void child.start(message);
  }

  const call = (kind: 'invocation' | 'simulation', message: Extract<HostToWorkerMessage, { type: 'tool_invocation' | 'tool_simulation' }>) => {
    const active = runtime;
    if (!active) return;
    // Filled in on arrival: the kept context is the one this call was sent with.
    const payload = contexts.payload(message);
    if (!payload) {
      const error = { code: 'TOOL_ERROR', message: 'The chat context of this call did not reach the extension worker.' };
      send({ type: 'tool_invocation_result', requestId: message.payload.requestId, ok: false, error });
      return;
    }
    void (loading ?? Promise.resolve()).then(() => active.invoke(kind, payload)).then(send);
  };

  /** What the worker does with each message from its host (which it trusts: the host checks what it sends). */
  const handlers: MessageHandlers<HostToWorkerMessage> = {
    ping: (message) => send({ type: 'heartbeat', seq: message.seq }),
    child_init: (message) => {
      if (!runtime && !child) startChild(message);
    },
    child_message: (message) => child?.message(message.payload),
    child_stop: (message) => child?.stop(message.reason),
    // A worker's own news of its processes; a child is never sent these.
    process_lifecycle: (message) => runtime?.onProcessNews('lifecycle', message.event),
    process_message: (message) => runtime?.onProcessNews('message', { processId: message.processId, payload: message.payload, userId: message.userId }),
    init: (message) => {
      if (runtime || child) return;
      const started = init(message).finally(() => {
        if (loading === started) loading = null;
      });
      loading = started;
    },
    tool_invocation: (message) => call('invocation', message),
    tool_simulation: (message) => call('simulation', message),
    cancel: (message) => runtime?.cancel(message.requestId, message.reason),
    rpc: (message) => runtime?.onRpc(message.message),
    frontend_message: (message) => void runtime?.onFrontendMessage(message.payload),
    command_invoked: (message) => void runtime?.onCommand(message.commandId, message.context),
    pipeline_call: (message) => {
      const active = runtime;
      if (!active) return;
      const args = Array.isArray(message.args) ? message.args : [];
      void (loading ?? Promise.resolve()).then(() => active.runPipeline(message.requestId, String(message.kind), String(message.id), args)).then(send);
    },
    event: (message) => {
      if (typeof message.event === 'string') track(runtime?.emit(message.event, message.payload));
    },
    permission_denied: (message) => void runtime?.emit('PERMISSION_DENIED', { permission: message.permission, operation: message.operation }),
    permissions_changed: (message) => {
      if (runtime && Array.isArray(message.granted)) void runtime.setPermissions((message.granted as unknown[]).filter((p): p is string => typeof p === 'string'));
    },
    error: (message) => void runtime?.emit('ERROR', { operation: message.operation, error: message.error }),
    shutdown: () => {
      const done = () => exitAfter(port, 0);
      if (!runtime) return done();
      const timer = setTimeout(done, SHUTDOWN_HANDLERS_MS);
      void Promise.allSettled([...handling, runtime.emit('SHUTDOWN', {})]).then(() => {
        clearTimeout(timer);
        done();
      });
    },
  };

  port.onMessage((raw) => {
    if (typeof raw === 'object' && raw !== null && typeof (raw as { type?: unknown }).type === 'string') dispatch(handlers, raw as HostToWorkerMessage);
  });
}

main();
