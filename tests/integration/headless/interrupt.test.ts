// Ctrl+C ends a long command (`extensions test --watch`, `extensions log --follow`, browser mode) the way it chose,
// with its own exit code, even though the settings file's writer sends the signal a second time; the person's second
// Ctrl+C ends it at once.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const SCRIPT = path.join(FIXTURES, 'interrupted-gracefully.ts');

/** The fixture running, its output so far, a wait for a line of it, and its end. */
function start(script: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  const seen = { out: '', err: '' };
  child.stderr.on('data', (chunk: Buffer) => (seen.err += chunk.toString()));
  const waiters: Array<() => void> = [];
  child.stdout.on('data', (chunk: Buffer) => {
    seen.out += chunk.toString();
    for (const wake of waiters.splice(0)) wake();
  });
  const line = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => (seen.out.includes(`${text}\n`) ? resolve() : waiters.push(check));
      check();
    });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, seen, line, exited };
}

it.each(['SIGINT', 'SIGTERM'] as const)('%s runs the graceful end once, and the process exits with its code, not killed', async (signal) => {
  const run = start(SCRIPT);
  await run.line('ready');
  run.child.kill(signal);
  expect({ ...(await run.exited), ...run.seen }).toEqual({ code: 3, signal: null, out: 'ready\nstopping\n', err: '' });
}, 60_000);

it.each([
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const)('%s again while the graceful end is under way ends the process at once, with %i', async (signal, code) => {
  const run = start(path.join(FIXTURES, 'interrupted-twice.ts'));
  await run.line('ready');
  run.child.kill(signal);
  await run.line('stopping');
  run.child.kill(signal);
  expect({ ...(await run.exited), ...run.seen }).toEqual({ code, signal: null, out: 'ready\nstopping\n', err: '' });
}, 60_000);
