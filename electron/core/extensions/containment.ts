// Node's permission model for a worker: what the process may read, and nothing it may write, spawn or thread.
//
// Node 20 names it --experimental-permission, later versions (22.13, 23.5) --permission. The read
// list is one --allow-fs-read flag per path, a folder covering everything inside it (Node 20.20
// warns that the older comma-separated form is no longer valid). Without --allow-fs-write,
// --allow-child-process, --allow-worker or --allow-addons those stay denied, as does
// process.binding. Node has no network permission before 25: the worker runtime closes the network
// itself (electron/worker/lockdown.ts).

function version(node: string): [number, number] {
  const [major = 0, minor = 0] = node.split('.').map(Number);
  return [major, minor];
}

function hasStablePermissionFlag(node: string): boolean {
  const [major, minor] = version(node);
  return major >= 24 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13);
}

/** Node flags that confine a worker to reading `readable` (files, or folders and everything in them). */
export function permissionFlags(readable: string[], node = process.versions.node): string[] {
  return [hasStablePermissionFlag(node) ? '--permission' : '--experimental-permission', ...readable.map((path) => `--allow-fs-read=${path}`)];
}

/** Node < 22.7 needs a flag to load an ESM .js entry that has no package.json "type". */
export function moduleDetectionFlags(node = process.versions.node): string[] {
  const [major, minor] = version(node);
  return major < 22 || (major === 22 && minor < 7) ? ['--experimental-detect-module'] : [];
}
