// What a contained worker closes before extension code loads: the network, and signals to other processes.
//
// Node's permission model (set by the launcher) already denies file access outside the extension's
// folder, child processes, threads, addons and process.binding. Node 20 has no network permission,
// so the runtime closes the entry points every socket goes through (net, tls, http, https, http2
// and fetch all connect through net.Socket; dgram and dns have their own). The originals stay in
// this closure: extension code cannot reach internals (process.binding is denied) to undo it.
import dgram from 'node:dgram';
import dns from 'node:dns';
import inspector from 'node:inspector';
import net from 'node:net';

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
  const ownKill = process.kill.bind(process);
  seal(process, 'kill', function kill(pid: number, signal?: string | number) {
    if (pid !== process.pid) throw Object.assign(new Error('process.kill: an extension may only signal its own process.'), { code: 'ERR_ACCESS_DENIED' });
    return ownKill(pid, signal);
  });
  seal(globalThis, 'fetch', options.fetch);
  for (const name of ['WebSocket', 'EventSource']) {
    if (name in globalThis) {
      seal(globalThis, name, function deniedConstructor() {
        throw denied(name);
      });
    }
  }
}
