// The layers that confine a worker: Node's permission model (what the process may read, and nothing it
// may write, spawn or thread), the runtime's lockdown, and a network namespace where Linux offers one.
//
// Node 20 names it --experimental-permission, later versions (22.13, 23.5) --permission. The read
// list is one --allow-fs-read flag per path, a folder covering everything inside it (Node 20.20
// warns that the older comma-separated form is no longer valid). Without --allow-fs-write,
// --allow-child-process, --allow-worker or --allow-addons those stay denied, as does
// process.binding. Node has no network permission before 25: the worker runtime closes the network
// itself (electron/worker/lockdown.ts), and on Linux the launcher adds a network namespace when
// unprivileged user namespaces are available (electron/core/extensions/workers/network-namespace.ts).
import path from 'node:path';
import type { WorkerIsolation } from './worker-host-types';

function version(node: string): [number, number] {
  const [major = 0, minor = 0] = node.split('.').map(Number);
  return [major, minor];
}

function hasStablePermissionFlag(node: string): boolean {
  const [major, minor] = version(node);
  return major >= 24 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13);
}

/**
 * Node flags that confine a worker to reading `readable` (files, or folders and everything in them).
 * Each path once, and none inside another: Node 20 aborts at start on a path given twice.
 */
export function permissionFlags(readable: string[], node = process.versions.node): string[] {
  const paths = [...new Set(readable.map((p) => path.resolve(p)))].sort();
  const kept = paths.filter((p) => !paths.some((other) => other !== p && p.startsWith(other.endsWith(path.sep) ? other : other + path.sep)));
  return [hasStablePermissionFlag(node) ? '--permission' : '--experimental-permission', ...kept.map((p) => `--allow-fs-read=${p}`)];
}

/** Node < 22.7 needs a flag to load an ESM .js entry that has no package.json "type". */
export function moduleDetectionFlags(node = process.versions.node): string[] {
  const [major, minor] = version(node);
  return major < 22 || (major === 22 && minor < 7) ? ['--experimental-detect-module'] : [];
}

const LOCKDOWN = 'runtime lockdown (no sockets, raw socket handles, DNS or module lookups outside its folder; signals only to itself)';

/** The log line of a worker's start: which layers it reported. */
export function isolationSummary(isolation: WorkerIsolation): string {
  if (!isolation.permissionModel) return 'NOT contained';
  return `contained (permission model${isolation.networkNamespace ? ', network namespace' : ''})`;
}

/**
 * What an extension's card says confines its worker: the launcher's own description until a worker
 * has started, then the layers that worker reported holding, and the ones that do not.
 */
export function describeContainment(launcher: string, isolation: WorkerIsolation | null): string {
  if (!isolation) return launcher;
  if (!isolation.permissionModel) {
    return `NOT contained: its worker started without Node's permission model and can read and write this user's files; ${LOCKDOWN} still holds`;
  }
  const layers = ["Node's permission model (reads only its own folder; no writes, child processes, threads or addons)", LOCKDOWN];
  layers.push(isolation.networkNamespace ? 'network namespace (no network interface at all)' : 'no network namespace (not available here)');
  return layers.join(' · ');
}
