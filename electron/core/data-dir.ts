// Finds and checks the data folder: the OS user-data dir by default, or an explicit --data-dir.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HostFailure } from '../../shared/errors';

export const APP_DIR_NAME = 'council-workbench';

/** Same place Electron's app.getPath('userData') uses for this app name. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'), APP_DIR_NAME);
  if (platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', APP_DIR_NAME);
  return path.join(env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), APP_DIR_NAME);
}

function probeWritable(dir: string): void {
  const probe = path.join(dir, `.write-probe-${process.pid}-${Date.now()}`);
  try {
    fs.writeFileSync(probe, '');
    fs.rmSync(probe, { force: true });
  } catch (err) {
    throw new HostFailure({
      code: 'DATA_DIR_READ_ONLY',
      message: `The data folder ${dir} is not writable (${(err as NodeJS.ErrnoException).code ?? 'error'}).`,
      hint: 'Choose a folder you can write to with --data-dir.',
      path: '--data-dir',
    });
  }
}

/**
 * An explicit folder must already exist, be a folder and be writable: a typo must not scatter
 * data somewhere new. The default folder is created on first use.
 */
export function resolveDataDir(explicit?: string): string {
  if (explicit === undefined || explicit === '') {
    const dir = defaultDataDir();
    // Private from its first moment (the host closes an older, open one: data-privacy.ts).
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    probeWritable(dir);
    return dir;
  }
  const dir = path.resolve(explicit);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch {
    throw new HostFailure({
      code: 'DATA_DIR_MISSING',
      message: `The data folder ${dir} does not exist.`,
      hint: 'Create it first, or leave out --data-dir to use the default folder.',
      path: '--data-dir',
    });
  }
  if (!stat.isDirectory()) {
    throw new HostFailure({
      code: 'DATA_DIR_NOT_DIRECTORY',
      message: `The data folder ${dir} is a file, not a folder.`,
      hint: 'Pass a folder to --data-dir.',
      path: '--data-dir',
    });
  }
  probeWritable(dir);
  return dir;
}
