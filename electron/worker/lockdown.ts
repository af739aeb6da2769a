// What the runtime takes away before extension code loads: raw network, DNS, signals to other processes.
//
// Node's permission model (the launcher's flags) is the wall for files, child processes, worker
// threads and addons. Node 20 has no network permission, so the runtime closes the network itself:
// every way to open a socket ends in net.Socket#connect, net.Server#listen or dgram.Socket#bind/send,
// and those are replaced on the prototypes (so an Agent or a library holding an old reference to
// net.connect still ends here), beside the public entry points (for a clear error) and DNS. `fetch`
// fails the same way: network access is something the host grants (spindle.cors with the cors_proxy
// permission), not something an extension takes. The process-level natives that bypass the permission
// model (signals to the host, starting its inspector) are narrowed to the worker itself.
import childProcess from 'node:child_process';
import dgram from 'node:dgram';
import dns from 'node:dns';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import tls from 'node:tls';
import workerThreads from 'node:worker_threads';

type Patchable = Record<string, unknown>;

function denied(what: string, hint: string): Error {
  return Object.assign(new Error(`${what} is not available to extensions in the Council Workbench.`), { code: 'ERR_ACCESS_DENIED', hint });
}

const NETWORK_HINT = 'Extensions have no direct network access; the host makes requests for an extension that was granted them.';

function block(target: object, names: readonly string[], what: string, hint = NETWORK_HINT): void {
  for (const name of names) {
    if (typeof (target as Patchable)[name] !== 'function') continue;
    Object.defineProperty(target, name, {
      value: function blocked(): never {
        throw denied(`${what}.${name}`, hint);
      },
      writable: false,
      configurable: false,
    });
  }
}

/** Every function of a DNS namespace (or Resolver prototype) that asks the network. */
function dnsQueries(target: object): string[] {
  const local = new Set(['constructor', 'getServers', 'setServers', 'setLocalAddress', 'cancel', 'getDefaultResultOrder', 'setDefaultResultOrder']);
  return Object.getOwnPropertyNames(target).filter((name) => !local.has(name) && typeof (target as Patchable)[name] === 'function' && !/^[A-Z]/.test(name));
}

function closeNetwork(): void {
  block(net.Socket.prototype, ['connect'], 'net.Socket');
  block(net.Server.prototype, ['listen'], 'net.Server');
  block(net, ['connect', 'createConnection'], 'net');
  block(tls, ['connect'], 'tls');
  block(dgram.Socket.prototype, ['bind', 'connect', 'send', 'sendto'], 'dgram.Socket');
  block(dgram, ['createSocket'], 'dgram');
  block(http, ['request', 'get'], 'http');
  block(https, ['request', 'get'], 'https');
  block(http2, ['connect'], 'http2');
  for (const namespace of [dns, dns.promises, dns.Resolver.prototype, dns.promises.Resolver.prototype]) block(namespace, dnsQueries(namespace), 'dns');
  const fetchDenied = denied('fetch', NETWORK_HINT);
  const globals = globalThis as unknown as Patchable;
  globals.fetch = () => Promise.reject(fetchDenied);
  for (const name of ['WebSocket', 'EventSource']) {
    if (typeof globals[name] === 'function') {
      globals[name] = function blocked(): never {
        throw denied(name, NETWORK_HINT);
      };
    }
  }
}

function guard<T extends (...args: never[]) => unknown>(target: object, name: string, allowed: (...args: Parameters<T>) => boolean, what: string, hint: string): void {
  const original = (target as Patchable)[name] as T;
  Object.defineProperty(target, name, {
    value: function guarded(this: unknown, ...args: Parameters<T>) {
      if (!allowed(...args)) throw denied(what, hint);
      return original.apply(this, args);
    },
    writable: false,
    configurable: false,
  });
}

/** Signals and priorities reach only this process and its own process group. */
function narrowProcessControls(): void {
  const own = (pid: unknown) => Number(pid) === process.pid || Number(pid) === 0 || Number(pid) === -process.pid;
  const hint = 'An extension may signal only its own process.';
  // process.kill validates its arguments and calls the native process._kill, so guarding the native covers both.
  guard(process, '_kill', own, 'Signalling another process', hint);
  // SIGUSR1 to another process opens its inspector.
  block(process, ['_debugProcess', '_debugEnd'], 'process', hint);
  guard(os, 'setPriority', (pid: unknown, priority?: unknown) => priority === undefined || own(pid), 'Changing another process\u2019s priority', hint);
}

/**
 * Where Node's permission model is not in force (Electron's utilityProcess does not apply it), the
 * same doors closed at the JavaScript level. Best effort: the file system stays open there.
 */
function closeWhatThePermissionModelWould(): void {
  const hint = 'Extensions cannot start processes, threads or native code.';
  block(childProcess, ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'], 'child_process', hint);
  block(workerThreads, ['Worker'], 'worker_threads', hint);
  block(process as unknown as Patchable, ['binding', '_linkedBinding', 'dlopen'], 'process', hint);
}

export interface Lockdown {
  /** Node's permission model confines files, child processes and threads in this process. */
  permissionModel: boolean;
}

/** Applies the lockdown; call once, before any extension code is loaded. */
export function lockDown(): Lockdown {
  const permissionModel = typeof (process as unknown as { permission?: unknown }).permission === 'object';
  closeNetwork();
  narrowProcessControls();
  if (!permissionModel) closeWhatThePermissionModelWould();
  // `import { connect } from 'node:net'` reads the ESM view of a builtin: bring it in line.
  syncBuiltinESMExports();
  return { permissionModel };
}
