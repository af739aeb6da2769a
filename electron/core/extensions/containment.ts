// What a worker process may touch, as Node permission-model flags: reads in its folder and the runtime, writes in its data folder only.
import fs from 'node:fs';
import path from 'node:path';

export interface Containment {
  /** Folders (or files) the worker may read: the extension's folder, the runtime's files. */
  read: string[];
  /** Folders the worker may write. */
  write: string[];
  /**
   * Let the worker start child processes. Never for an extension: only for tests that check that
   * what a worker started dies with it.
   */
  childProcesses?: boolean;
}

/**
 * The flag that turns the permission model on: `--experimental-permission` until Node 22.13 / 23.5
 * renamed it `--permission`; null before Node 20, which has none.
 */
export function permissionFlag(nodeVersion: string): string | null {
  const [major = 0, minor = 0] = nodeVersion.replace(/^v/, '').split('.').map(Number);
  if (major < 20) return null;
  const renamed = major > 23 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13);
  return renamed ? '--permission' : '--experimental-permission';
}

/** A path as given and as the file system resolves it: the model checks the path code names, which may be either. */
function bothForms(target: string): string[] {
  const absolute = path.resolve(target);
  try {
    const real = fs.realpathSync(absolute);
    return real === absolute ? [absolute] : [absolute, real];
  } catch {
    return [absolute];
  }
}

/**
 * Node flags that confine a worker. Files: reads only under `read`, writes only under `write`;
 * no child processes, worker threads, addons, WASI or inspector (the model's defaults). The network
 * is closed by the runtime itself (electron/worker/lockdown.ts): Node 20 has no network permission.
 */
export function permissionArgs(containment: Containment, nodeVersion = process.versions.node): string[] {
  const flag = permissionFlag(nodeVersion);
  if (!flag) return [];
  const args = [flag];
  for (const target of new Set(containment.read.flatMap(bothForms))) args.push(`--allow-fs-read=${target}`);
  for (const target of new Set(containment.write.flatMap(bothForms))) args.push(`--allow-fs-write=${target}`);
  if (containment.childProcesses) args.push('--allow-child-process');
  return args;
}

/**
 * An extension's containment (the launcher adds the runtime's files): its own folder to read, its
 * data folder to read and write. The data folder stays writable until spindle.storage carries writes through the host.
 */
export function extensionContainment(options: { extensionPath: string; dataPath: string }): Containment {
  return { read: [options.extensionPath, options.dataPath], write: [options.dataPath] };
}
