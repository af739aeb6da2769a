// Makes sure the renderer is built before browser mode serves it (a fresh clone has no out/ yet).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '..', '..');
export const RENDERER_DIR = path.join(PROJECT_ROOT, 'out', 'renderer');

export function ensureRendererBuilt(log: (line: string) => void): void {
  if (fs.existsSync(path.join(RENDERER_DIR, 'index.html'))) return;
  log('Building the app for the first time (electron-vite build)…');
  const bin = path.join(PROJECT_ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-vite.cmd' : 'electron-vite');
  const result = spawnSync(bin, ['build'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('electron-vite build failed; see the output above.');
}
