// `npm start`: the desktop app when the Electron binary is (or can be made) available, else browser mode.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DESKTOP_FLAG, planStart } from './desktop-binary.mjs';
import { ensureNodeDoorsBuilt, OUT_DIR } from './node-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
const args = process.argv.slice(2);
const appArgs = args.filter((arg) => arg !== DESKTOP_FLAG);

function run(command, commandArgs) {
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit', shell: false });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const plan = planStart({ root, args });
if (plan.mode === 'browser') {
  console.log(`Starting browser mode instead of the desktop app: ${plan.reason}.`);
  if (plan.retryHint) console.log(`To try the desktop download again: npm start -- ${DESKTOP_FLAG}`);
  // Browser mode runs built (out/node), as the CLI does: no TypeScript compiler at start.
  await ensureNodeDoorsBuilt((line) => console.log(line));
  run(process.execPath, [path.join(OUT_DIR, 'headless.js'), ...appArgs]);
} else {
  const build = spawnSync(bin('electron-vite'), ['build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  run(plan.binary, [root, ...appArgs]);
}
