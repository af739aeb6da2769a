// Ctrl+C ends a long command (`extensions test --watch`, `extensions log --follow`, browser mode) the way it chose,
// with its own exit code, even though the settings file's writer sends the signal a second time.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'interrupted-gracefully.ts');

it.each(['SIGINT', 'SIGTERM'] as const)('%s runs the graceful end once, and the process exits with its code, not killed', async (signal) => {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const ready = new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready\n')) resolve();
    }),
  );
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  await ready;
  child.kill(signal);
  expect({ ...(await exited), out, err }).toEqual({ code: 3, signal: null, out: 'ready\nstopping\n', err: '' });
}, 60_000);
