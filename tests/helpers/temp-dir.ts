// Fresh temporary folders per test, removed afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const made: string[] = [];

export function tempDir(prefix = 'cw-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function cleanupTempDirs(): void {
  while (made.length) fs.rmSync(made.pop()!, { recursive: true, force: true });
}
