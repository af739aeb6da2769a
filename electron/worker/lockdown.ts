// What a contained worker closes before extension code loads: the network, raw socket handles, module
// resolution outside its folder, and signals or priorities of other processes.
//
// Node's permission model (set by the launcher) already denies file access outside the extension's
// folder, child processes, threads, addons and process.binding. Node has no network permission before
// 25, so the runtime closes the entry points every socket goes through (net, tls, http, https, http2
// and fetch all connect through net.Socket; dgram and dns have their own) and the handle classes
// beneath them, which open sockets without net (a Pipe from process.stdout connects to any unix
// socket). The originals stay in this closure and the sealed properties cannot be redefined;
// extension code cannot reach internals (process.binding is denied) to get fresh ones.
const dgram = process.getBuiltinModule('node:dgram');
const dns = process.getBuiltinModule('node:dns');
const { syncBuiltinESMExports } = process.getBuiltinModule('node:module');
const net = process.getBuiltinModule('node:net');
const os = process.getBuiltinModule('node:os');
import { guardModuleResolution } from './module-guard';

export const NETWORK_DENIED_MESSAGE =
  'Extensions have no direct network access in the Council Workbench; with the cors_proxy permission, fetch() and spindle.cors go through the host.';

function denied(what: string): Error {
  return Object.assign(new Error(`${what}: ${NETWORK_DENIED_MESSAGE}`), { code: 'ERR_ACCESS_DENIED' });
}

/**
 * Replaces `target[name]` with `replacement` for good (not writable, not configurable). An export stays enumerable:
 * a builtin's ES module view made after this (`import { lookup } from 'node:dns'`) lists only enumerable names.
 */
function seal(target: object, name: string, replacement: unknown): void {
  const enumerable = Object.getOwnPropertyDescriptor(target, name)?.enumerable ?? false;
  Object.defineProperty(target, name, { value: replacement, writable: false, configurable: false, enumerable });
}

function denyAll(target: object, names: string[], what: string): void {
  for (const name of names) {
    if (typeof (target as Record<string, unknown>)[name] !== 'function') continue;
    seal(target, name, function deniedCall() {
      throw denied(`${what}.${name}`);
    });
  }
}

/** Methods of Node's handle classes (Pipe, TCP, UDP) that open, bind, listen or connect a socket. */
const HANDLE_OPENERS = ['open', 'bind', 'bind6', 'listen', 'connect', 'connect6', 'fchmod', 'setPendingInstances', 'send', 'send6'];

function handleOf(stream: object | undefined | null): object | null {
  const handle = (stream as { _handle?: unknown } | null | undefined)?._handle;
  return typeof handle === 'object' && handle !== null ? handle : null;
}

function sealHandleClass(handle: object | null, sealed: Set<object>): void {
  const proto = handle ? (Object.getPrototypeOf(handle) as object | null) : null;
  if (!proto || sealed.has(proto)) return;
  sealed.add(proto);
  const what = (proto.constructor as { name?: string } | undefined)?.name ?? 'handle';
  for (const name of HANDLE_OPENERS) {
    if (Object.prototype.hasOwnProperty.call(proto, name)) {
      seal(proto, name, function deniedHandleCall() {
        throw denied(`${what}.${name}`);
      });
    }
  }
}

/**
 * Seals the classes behind the worker's own streams and the other socket classes extension code could
 * reach (`process.stdout._handle.constructor` is Pipe; a UDP socket's state holds a UDP handle; an
 * unconnected TLSSocket wraps a fresh TCP handle). The streams must exist first: process.stdout
 * opens its pipe when first read.
 */
function sealRawHandles(streams: object[], networkIsolated: boolean): void {
  const sealed = new Set<object>();
  for (const stream of streams) sealHandleClass(handleOf(stream), sealed);
  const udp = dgram.createSocket('udp4');
  const state = Object.getOwnPropertySymbols(udp)
    .map((key) => (udp as unknown as Record<symbol, unknown>)[key])
    .find((value): value is { handle: object } => typeof value === 'object' && value !== null && 'handle' in value);
  sealHandleClass(state?.handle ?? null, sealed);
  udp.close();
  if (!networkIsolated) {
    // Loading tls costs ~20 ms, paid only where no network namespace already leaves TCP nowhere to go.
    const tls = process.getBuiltinModule('node:tls');
    const probe = new tls.TLSSocket(null as unknown as import('node:net').Socket);
    sealHandleClass((handleOf(probe) as { _parent?: object } | null)?._parent ?? null, sealed);
    probe.destroy();
  }
}

const DNS_FUNCTIONS = ['lookup', 'lookupService', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCaa', 'resolveCname', 'resolveMx', 'resolveNaptr', 'resolveNs', 'resolvePtr', 'resolveSoa', 'resolveSrv', 'resolveTxt', 'reverse'];

export interface LockdownOptions {
  /** What `fetch` does instead of opening a socket (the host's spindle.cors, when granted). */
  fetch: typeof globalThis.fetch;
  /** The folders the worker may read; module resolution answers "missing" for anything outside. */
  readable: string[];
  /** Streams the runtime talks to the host on: their handles' classes are sealed too. */
  channels: object[];
  /** In a network namespace of its own (no interfaces): TCP has nowhere to go, so its class is left alone. */
  networkIsolated: boolean;
}

/**
 * Node's permission model refuses inspector.open (ERR_ACCESS_DENIED, Node 20 and 24) unless the process was given
 * --allow-inspector; Node 20, which has no such flag, answers false for the scope it does not know.
 */
function inspectorRefused(): boolean {
  const permission = (process as unknown as { permission?: { has(scope: string): boolean } }).permission;
  return !!permission && !permission.has('inspector');
}

export function lockDown(options: LockdownOptions): void {
  sealRawHandles([process.stdout, process.stderr, ...options.channels], options.networkIsolated);
  guardModuleResolution(options.readable);
  denyAll(net.Socket.prototype, ['connect'], 'net.Socket');
  denyAll(net.Server.prototype, ['listen', '_listen2'], 'net.Server');
  denyAll(dgram.Socket.prototype, ['bind', 'connect', 'send'], 'dgram.Socket');
  denyAll(dns, DNS_FUNCTIONS, 'dns');
  denyAll(dns.promises, DNS_FUNCTIONS, 'dns.promises');
  denyAll(dns.Resolver.prototype, DNS_FUNCTIONS, 'dns.Resolver');
  denyAll(dns.promises.Resolver.prototype, DNS_FUNCTIONS, 'dns.promises.Resolver');
  // The inspector listens on a port; _debugProcess turns on another process's inspector. Loading the inspector
  // module (it brings worker_threads) costs ~4 ms of every start, so it is sealed where no permission model refuses it.
  if (!inspectorRefused()) denyAll(process.getBuiltinModule('node:inspector'), ['open'], 'inspector');
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
  // An extension's `import { lookup } from 'node:dns'` reads the builtin's ES module view. The runtime makes none
  // (it takes builtins with getBuiltinModule), so a view is made from the sealed exports; any made earlier is
  // brought in line here.
  syncBuiltinESMExports();
  for (const name of ['WebSocket', 'EventSource']) {
    if (name in globalThis) {
      // Deleted first: redefining the global in place makes Node load the client behind it (undici's WebSocket:
      // ~17 MB resident and tens of ms in every worker) only to throw it away.
      delete (globalThis as Record<string, unknown>)[name];
      seal(globalThis, name, function deniedConstructor() {
        throw denied(name);
      });
    }
  }
}
