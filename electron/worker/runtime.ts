// Entry of an extension worker process: waits for `init`, installs the `spindle` global, loads the extension's main.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ExtensionPermission } from '../../shared/types/spindle';
import {
  MAX_BATCH_BYTES,
  FLUSH_BATCH_ITEMS,
  MAX_SHARED_CONTEXTS,
  Outbox,
  expandContext,
  isBatch,
  type HostToWorkerMessage,
  type InitMessage,
  type LogLevel,
  type SharedContext,
  type WorkerToHostMessage,
} from '../../shared/protocol';
import { detectHostPort, type HostPort } from './host-port';
import { createSpindle, formatLogArgs, type SpindleRuntime } from './spindle-api';

const SHUTDOWN_HANDLERS_MS = 500;
const EXIT_FLUSH_MS = 500;

function routeConsole(send: (message: WorkerToHostMessage) => void): void {
  const levels: Record<string, LogLevel> = { log: 'info', info: 'info', debug: 'debug', trace: 'debug', warn: 'warn', error: 'error' };
  const target = console as unknown as Record<string, (...args: unknown[]) => void>;
  for (const [method, level] of Object.entries(levels)) {
    target[method] = (...args: unknown[]) => send({ type: 'log', level, message: formatLogArgs(args) });
  }
}

/** Sends what is queued and a last log line, then exits once it is handed over (or after a short wait). */
function exitAfter(port: HostPort, outbox: Outbox<WorkerToHostMessage>, code: number, message?: WorkerToHostMessage): void {
  outbox.flush();
  if (!message) process.exit(code);
  const timer = setTimeout(() => process.exit(code), EXIT_FLUSH_MS);
  port.send(message, () => {
    clearTimeout(timer);
    process.exit(code);
  });
}

function isPermissionList(value: unknown): value is ExtensionPermission[] {
  return Array.isArray(value) && value.every((p) => typeof p === 'string');
}

function main(): void {
  const detected = detectHostPort();
  if (!detected) {
    process.stderr.write('This is the Council Workbench extension worker; the host starts it.\n');
    process.exit(2);
  }
  const port: HostPort = detected;
  // Everything the worker says goes through one outbox, so order is kept and what is ready in the
  // same turn of the event loop leaves in one write. setImmediate rather than nextTick: results of
  // timers that fire together (many calls that started together) then share a write instead of
  // one write each, and a call that arrived by IPC still flushes in the same loop iteration.
  const outbox = new Outbox<WorkerToHostMessage>({
    write: (message) => {
      port.send(message);
      return true;
    },
    schedule: (flush) => setImmediate(flush),
    maxItems: FLUSH_BATCH_ITEMS,
    maxBytes: MAX_BATCH_BYTES,
  });
  const send = (message: WorkerToHostMessage) => outbox.push(message);
  // A crash (uncaught exception, process.exit in extension code) must not swallow what was said
  // just before it: 'exit' still runs, and the IPC write is synchronous.
  process.on('exit', () => outbox.flush());
  routeConsole(send);
  process.on('unhandledRejection', (reason) => send({ type: 'log', level: 'error', message: formatLogArgs(['Unhandled promise rejection:', reason]) }));
  // An orphaned worker must not outlive its host.
  port.onDisconnect(() => process.exit(0));

  let runtime: SpindleRuntime | null = null;
  // Calls that arrive while main is still loading (top-level await) wait for it to finish.
  let loading: Promise<void> | null = null;
  /** Chat contexts the host sent once for many calls (shared/protocol/context.ts), oldest first. */
  const contexts = new Map<string, SharedContext>();

  async function init(message: InitMessage): Promise<void> {
    const created = createSpindle({ manifest: message.manifest, granted: message.granted, dataDir: message.dataPath, send });
    runtime = created;
    Object.defineProperty(globalThis, 'spindle', { value: created.api, enumerable: false, configurable: false, writable: false });
    const entry = path.resolve(message.extensionPath, message.manifest.main);
    try {
      // The extension's own entry: the host checked that it is a .js file inside the extension folder.
      // eslint-disable-next-line no-unsanitized/method
      await import(pathToFileURL(entry).href);
    } catch (err) {
      const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
      exitAfter(port, outbox, 1, { type: 'log', level: 'error', message: formatLogArgs([`Loading ${message.manifest.main} failed:\n${detail}`]) });
      return;
    }
    send({ type: 'ready' });
  }

  port.onMessage((raw) => {
    if (!isBatch(raw)) return handle(raw);
    if (!Array.isArray(raw.messages)) return;
    for (const item of raw.messages as unknown[]) if (!isBatch(item)) handle(item);
  });

  function handle(raw: unknown): void {
    const message = raw as HostToWorkerMessage;
    if (typeof message !== 'object' || message === null) return;
    switch (message.type) {
      case 'ping':
        // At once, not at the end of the tick: a handler that blocks next must not hold it back.
        send({ type: 'heartbeat', seq: message.seq });
        outbox.flush();
        return;
      case 'init':
        if (!runtime) {
          const started = init(message).finally(() => {
            if (loading === started) loading = null;
          });
          loading = started;
        }
        return;
      case 'context_put': {
        const shared: SharedContext = {};
        if (Array.isArray(message.contextMessages)) shared.contextMessages = message.contextMessages;
        if (typeof message.context === 'string') shared.context = message.context;
        contexts.delete(message.contextId);
        contexts.set(message.contextId, shared);
        // The host drops what it evicts (it never holds more than MAX_SHARED_CONTEXTS); this only bounds a host that would not.
        if (contexts.size > 2 * MAX_SHARED_CONTEXTS) contexts.delete(contexts.keys().next().value!);
        return;
      }
      case 'context_drop':
        contexts.delete(message.contextId);
        return;
      case 'tool_invocation':
      case 'tool_simulation': {
        const active = runtime;
        if (!active) return;
        const kind = message.type === 'tool_simulation' ? 'simulation' : 'invocation';
        let payload = message.payload;
        if (message.contextRef !== undefined) {
          // Resolved on arrival: a later context_drop must not affect a call that waits for loading.
          const shared = contexts.get(message.contextRef);
          if (!shared) {
            const error = { code: 'TOOL_ERROR', message: 'The chat context of this call did not reach the extension worker.' };
            send({ type: 'tool_invocation_result', requestId: payload.requestId, ok: false, error });
            return;
          }
          payload = expandContext(payload, shared);
        }
        if (loading) {
          void loading.then(() => active.invoke(kind, payload)).then(send);
          return;
        }
        const result = active.invoke(kind, payload);
        if (result instanceof Promise) void result.then(send);
        else send(result);
        return;
      }
      case 'cancel':
        runtime?.cancel(message.requestId, message.reason);
        return;
      case 'generate_result':
        runtime?.onGenerateResult(message);
        return;
      case 'permission_denied':
        void runtime?.emit('PERMISSION_DENIED', { permission: message.permission, operation: message.operation });
        return;
      case 'permissions_changed':
        if (runtime && isPermissionList(message.granted)) {
          runtime.setPermissions(message.granted);
          void runtime.emit('PERMISSIONS_CHANGED', { granted: [...message.granted] });
        }
        return;
      case 'error':
        void runtime?.emit('ERROR', { operation: message.operation, error: message.error });
        return;
      case 'shutdown': {
        const done = () => exitAfter(port, outbox, 0);
        if (!runtime) return done();
        const timer = setTimeout(done, SHUTDOWN_HANDLERS_MS);
        void runtime.emit('SHUTDOWN', {}).then(() => {
          clearTimeout(timer);
          done();
        });
        return;
      }
    }
  }
}

main();
