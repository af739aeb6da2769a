// Entry of an extension worker process: opens the host link, locks down, waits for `init`, installs `spindle`, loads the extension.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ExtensionPermission } from '../../shared/types/spindle';
import type { HostToWorkerMessage, InitMessage, LogLevel, WorkerToHostMessage } from '../../shared/protocol';
import { openHostPort, type HostPort } from './host-port';
import { lockDown } from './lockdown';
import { createSpindle, formatLogArgs, type SpindleRuntime } from './spindle-api';

const SHUTDOWN_HANDLERS_MS = 500;

function routeConsole(send: (message: WorkerToHostMessage) => void): void {
  const levels: Record<string, LogLevel> = { log: 'info', info: 'info', debug: 'debug', trace: 'debug', warn: 'warn', error: 'error' };
  const target = console as unknown as Record<string, (...args: unknown[]) => void>;
  for (const [method, level] of Object.entries(levels)) {
    target[method] = (...args: unknown[]) => send({ type: 'log', level, message: formatLogArgs(args) });
  }
}

function isPermissionList(value: unknown): value is ExtensionPermission[] {
  return Array.isArray(value) && value.every((p) => typeof p === 'string');
}

/** Ends the worker and anything it started: it leads its own process group (the launcher made it so). */
function endProcessGroup(code: number): never {
  try {
    process.kill(-process.pid, 'SIGKILL');
  } catch {
    // Not a group leader (Windows, utilityProcess): only this process ends.
  }
  process.exit(code);
}

function main(): void {
  const opened = openHostPort();
  if (!opened) {
    process.stderr.write('This is the Council Workbench extension worker; the host starts it.\n');
    process.exit(2);
  }
  const port: HostPort = opened;
  // One writer: every message, heartbeats included, leaves through port.send in order, one frame each.
  const send = (message: WorkerToHostMessage) => port.send(message);
  // An orphaned worker must not outlive its host, nor leave anything it started behind.
  port.onClose(() => endProcessGroup(0));
  const { permissionModel } = lockDown();
  routeConsole(send);
  process.on('unhandledRejection', (reason) => send({ type: 'log', level: 'error', message: formatLogArgs(['Unhandled promise rejection:', reason]) }));
  if (!permissionModel) {
    send({ type: 'log', level: 'warn', message: 'This runtime does not apply Node\u2019s permission model: the extension\u2019s file access is not confined.' });
  }

  let runtime: SpindleRuntime | null = null;
  // Calls that arrive while main is still loading (top-level await) wait for it to finish.
  let loading: Promise<void> | null = null;

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
      send({ type: 'log', level: 'error', message: formatLogArgs([`Loading ${message.manifest.main} failed:\n${detail}`]) });
      process.exit(1);
    }
    send({ type: 'ready' });
  }

  port.onMessage((raw) => {
    const message = raw as HostToWorkerMessage;
    if (typeof message !== 'object' || message === null) return;
    switch (message.type) {
      case 'ping':
        send({ type: 'heartbeat', seq: message.seq, rss: process.memoryUsage.rss() });
        return;
      case 'init':
        if (!runtime) {
          const started = init(message).finally(() => {
            if (loading === started) loading = null;
          });
          loading = started;
        }
        return;
      case 'tool_invocation':
      case 'tool_simulation': {
        const active = runtime;
        if (!active) return;
        const kind = message.type === 'tool_simulation' ? 'simulation' : 'invocation';
        if (loading) {
          void loading.then(() => active.invoke(kind, message.payload)).then(send);
          return;
        }
        const result = active.invoke(kind, message.payload);
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
        if (!runtime) process.exit(0);
        const timer = setTimeout(() => process.exit(0), SHUTDOWN_HANDLERS_MS);
        void runtime.emit('SHUTDOWN', {}).then(() => {
          clearTimeout(timer);
          process.exit(0);
        });
        return;
      }
    }
  });
}

main();
