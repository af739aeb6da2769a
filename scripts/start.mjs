// `npm start`: the desktop app when the Electron binary is (or can be made) available, else browser mode.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
const args = process.argv.slice(2);

function electronBinary() {
  const electronDir = path.join(root, 'node_modules', 'electron');
  const pathFile = path.join(electronDir, 'path.txt');
  if (!fs.existsSync(pathFile)) return null;
  const binary = path.join(electronDir, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  return fs.existsSync(binary) ? binary : null;
}

/** Returns why the desktop app cannot start here, or null when it can. */
function desktopUnavailableReason() {
  if (!electronBinary()) {
    console.log('The Electron binary is not installed yet; fetching it (first start only)…');
    const fetch = spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron', 'install.js')], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 180_000,
      encoding: 'utf8',
    });
    if (!electronBinary()) {
      const detail = (fetch.stderr || '').split('\n').find((line) => /Error|ENOTFOUND|EAI_AGAIN|ECONN/.test(line));
      return `the Electron binary could not be downloaded${detail ? ` (${detail.trim()})` : ''}`;
    }
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return 'there is no graphical display (DISPLAY / WAYLAND_DISPLAY are not set)';
  }
  return null;
}

function run(command, commandArgs) {
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit', shell: false });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const reason = desktopUnavailableReason();
if (reason) {
  console.log(`Starting browser mode instead of the desktop app: ${reason}.`);
  run(bin('tsx'), [path.join(root, 'electron', 'headless', 'main.ts'), ...args]);
} else {
  const build = spawnSync(bin('electron-vite'), ['build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  run(electronBinary(), [root, ...args]);
}
