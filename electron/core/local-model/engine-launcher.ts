// Starts the local model engine as a Node child process on two framed pipes, in its own process group, with an
// environment of its own (never the host's: no key reaches it). From source it runs through tsx; built, as plain JS.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { minimalWorkerEnv, PipeWorker, type WorkerHandle } from '../extensions/workers/launcher';

export type EngineLauncher = (entry: string) => WorkerHandle;

/** The engine's source entry (electron/local-model/engine-main.ts). */
export function engineSourceEntry(): string {
  return fileURLToPath(new URL('../../local-model/engine-main.ts', import.meta.url));
}

export const nodeEngineLauncher: EngineLauncher = (entry) => {
  const args = entry.endsWith('.ts') ? ['--import', 'tsx', entry] : [entry];
  const child = spawn(process.execPath, args, {
    // llama.cpp reads nothing from the environment we need to pass but a home and a temp folder.
    env: { ...minimalWorkerEnv({ HOME: os.homedir(), TMPDIR: os.tmpdir() }), COUNCIL_WORKER_FDS: '3,4' },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
    windowsHide: true,
  });
  return new PipeWorker(child);
};
