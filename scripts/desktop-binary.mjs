// Whether `npm start` can open the desktop app: the Electron binary, its one fetch attempt, and the
// remembered failure that sends later starts straight to browser mode.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Asks `npm start` to try the Electron download again even after a remembered failure. */
export const DESKTOP_FLAG = '--desktop';

/** The installed Electron binary, or null when it is missing. */
export function electronBinary(root) {
  const electronDir = path.join(root, 'node_modules', 'electron');
  const pathFile = path.join(electronDir, 'path.txt');
  if (!fs.existsSync(pathFile)) return null;
  const binary = path.join(electronDir, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  return fs.existsSync(binary) ? binary : null;
}

function electronVersion(root) {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version ?? '?';
  } catch {
    return '?';
  }
}

/** Where a failed fetch is remembered: outside node_modules, so a reinstall does not forget it. */
export function failureFile(root) {
  return path.join(root, '.tmp', 'electron-fetch-failed.json');
}

/** The remembered failure for this Electron version, or null. A record for another version is stale. */
export function rememberedFailure(root) {
  try {
    const record = JSON.parse(fs.readFileSync(failureFile(root), 'utf8'));
    return record && record.version === electronVersion(root) && typeof record.reason === 'string' ? record : null;
  } catch {
    return null;
  }
}

function remember(root, reason, now) {
  const file = failureFile(root);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ version: electronVersion(root), reason, failedAt: now.toISOString() }, null, 2)}\n`);
}

function forget(root) {
  fs.rmSync(failureFile(root), { force: true });
}

/** The first line of the installer's output that names the cause (ENOTFOUND github.com, a status code…). */
export function fetchErrorDetail(output) {
  const lines = String(output ?? '').split('\n').map((line) => line.trim()).filter(Boolean);
  return lines.find((line) => /Error|ENOTFOUND|EAI_AGAIN|ECONN|ETIMEDOUT|status code/i.test(line)) ?? lines[0] ?? null;
}

/** Runs electron's own installer once; null when the binary is there afterwards, else why not. */
function fetchBinary(root, log, fetcher) {
  log('Fetching the Electron binary for the desktop app (about 100 MB, once)…');
  const result = fetcher(root);
  if (electronBinary(root)) return null;
  const detail = result.timedOut ? 'no answer within 3 minutes' : fetchErrorDetail(result.output);
  return `the Electron binary could not be downloaded${detail ? ` (${detail})` : ''}`;
}

/** electron's postinstall script, run by hand: `npm ci` does not run dependencies' install scripts (.npmrc). */
export function runElectronInstaller(root) {
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron', 'install.js')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 180_000,
    encoding: 'utf8',
  });
  return { output: `${result.stderr ?? ''}\n${result.stdout ?? ''}`, timedOut: result.error?.code === 'ETIMEDOUT' };
}

/**
 * Decides how `npm start` runs: `{ mode: 'desktop', binary }` or `{ mode: 'browser', reason, retryHint }`.
 * A failed fetch is remembered; later starts skip it until `--desktop` asks for another try.
 */
export function planStart({ root, args, env = process.env, platform = process.platform, log = console.log, fetcher = runElectronInstaller, now = new Date() }) {
  const retry = args.includes(DESKTOP_FLAG);
  let binary = electronBinary(root);
  if (!binary) {
    const remembered = retry ? null : rememberedFailure(root);
    if (remembered) {
      return { mode: 'browser', reason: `${remembered.reason} on ${remembered.failedAt.slice(0, 10)}`, retryHint: true };
    }
    const reason = fetchBinary(root, log, fetcher);
    if (reason) {
      remember(root, reason, now);
      return { mode: 'browser', reason, retryHint: true };
    }
    forget(root);
    binary = electronBinary(root);
  }
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return { mode: 'browser', reason: 'there is no graphical display (DISPLAY / WAYLAND_DISPLAY are not set)', retryHint: false };
  }
  return { mode: 'desktop', binary };
}
