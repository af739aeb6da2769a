// What a contained worker closes before extension code loads: the network, and signals or priorities of other processes.
//
// Node's permission model (set by the launcher) already denies file access outside the extension's
// folder, child processes, threads, addons and process.binding. Node 20 has no network permission,
// so the runtime closes the entry points every socket goes through (net, tls, http, https, http2
// and fetch all connect through net.Socket; dgram and dns have their own). The originals stay in
// this closure: extension code cannot reach internals (process.binding is denied) to undo it.
import dgram from 'node:dgram';
import dns from 'node:dns';
import inspector from 'node:inspector';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import os from 'node:os';

export const NETWORK_DENIED_MESSAGE =
  'Extensions have no direct network access in the Council Workbench; ask the host with spindle.cors (cors_proxy permission).';

function denied(what: string): Error {
  return Object.assign(new Error(`${what}: ${NETWORK_DENIED_MESSAGE}`), { code: 'ERR_ACCESS_DENIED' });
}

/** Replaces `target[name]` with `replacement` for good (not writable, not configurable). */
function seal(target: object, name: string, replacement: unknown): void {
  Object.defineProperty(target, name, { value: replacement, writable: false, configurable: false, enumerable: false });
}

function denyAll(target: object, names: string[], what: string): void {
  for (const name of names) {
    if (typeof (target as Record<string, unknown>)[name] !== 'function') continue;
    seal(target, name, function deniedCall() {
      throw denied(`${what}.${name}`);
    });
  }
}

const DNS_FUNCTIONS = ['lookup', 'lookupService', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCaa', 'resolveCname', 'resolveMx', 'resolveNaptr', 'resolveNs', 'resolvePtr', 'resolveSoa', 'resolveSrv', 'resolveTxt', 'reverse'];

export interface LockdownOptions {
  /** What `fetch` does instead of opening a socket (the host's spindle.cors, when granted). */
  fetch: typeof globalThis.fetch;
}

export function lockDown(options: LockdownOptions): void {
  denyAll(net.Socket.prototype, ['connect'], 'net.Socket');
  denyAll(net.Server.prototype, ['listen'], 'net.Server');
  denyAll(dgram.Socket.prototype, ['bind', 'connect', 'send'], 'dgram.Socket');
  denyAll(dns, DNS_FUNCTIONS, 'dns');
  denyAll(dns.promises, DNS_FUNCTIONS, 'dns.promises');
  denyAll(dns.Resolver.prototype, DNS_FUNCTIONS, 'dns.Resolver');
  denyAll(dns.promises.Resolver.prototype, DNS_FUNCTIONS, 'dns.promises.Resolver');
  // The inspector listens on a port; _debugProcess turns on another process's inspector.
  denyAll(inspector, ['open'], 'inspector');
  denyAll(process, ['_debugProcess', '_debugEnd'], 'process');
  const ownOnly = (what: string) => Object.assign(new Error(`${what}: an extension may only act on its own process.`), { code: 'ERR_ACCESS_DENIED' });
  const ownKill = process.kill.bind(process);
  seal(process, 'kill', function kill(pid: number, signal?: string | number) {
    if (pid !== process.pid) throw ownOnly('process.kill');
    return ownKill(pid, signal);
  });
  // The native process.kill calls: left open, `process._kill(process.ppid, 9)` would end the host.
  const rawKill = (process as unknown as { _kill: (pid: number, signal: number) => number })._kill.bind(process);
  seal(process, '_kill', function _kill(pid: number, signal: number) {
    if (pid !== process.pid) throw ownOnly('process._kill');
    return rawKill(pid, signal);
  });
  const setPriority = os.setPriority.bind(os);
  seal(os, 'setPriority', function setOwnPriority(pidOrPriority: number, priority?: number) {
    if (priority === undefined) return setPriority(pidOrPriority);
    if (pidOrPriority !== 0 && pidOrPriority !== process.pid) throw ownOnly('os.setPriority');
    return setPriority(pidOrPriority, priority);
  });
  seal(globalThis, 'fetch', options.fetch);
  // `import { lookup } from 'node:dns'` reads the builtin's ESM view, made before these changes: bring it in line.
  syncBuiltinESMExports();
  for (const name of ['WebSocket', 'EventSource']) {
    if (name in globalThis) {
      seal(globalThis, name, function deniedConstructor() {
        throw denied(name);
      });
    }
  }
}
