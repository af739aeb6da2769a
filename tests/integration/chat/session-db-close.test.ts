// Closing the store waits for its checkpoint thread, and the process stays up until it has: a script whose last
// work is `await store.close()` reaches its next line (an unreferenced thread once let Node exit there, silently).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'close-after-checkpoint.ts');

afterEach(cleanupTempDirs);

it('closes after its checkpoint thread, and the process goes on to the next line', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, tempDir()], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect({ code, out, err }).toEqual({ code: 0, out: 'closed\n', err: '' });
}, 60_000);
