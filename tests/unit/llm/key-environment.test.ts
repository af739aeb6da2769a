// Key variables leave the host's environment once read; the host still uses them.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { keyEnvironment } from '../../../electron/core/connections/key-environment';
import { cleanupTempDirs } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

describe('keyEnvironment', () => {
  it('moves a variable out of the source on its first read and keeps answering with it', () => {
    const source: NodeJS.ProcessEnv = { MY_KEY: 'sk-one', PATH: '/bin' };
    const env = keyEnvironment(source);
    expect(env.MY_KEY).toBe('sk-one');
    expect(source.MY_KEY).toBeUndefined();
    expect(env.MY_KEY).toBe('sk-one');
    expect('MY_KEY' in env).toBe(true);
    expect(env.MISSING).toBeUndefined();
    expect(source.PATH).toBe('/bin');
  });
});

describe('takeKeyEnvironment (the doors call it at start)', () => {
  it('takes every key-looking variable at once and overwrites it where it was; a variable named later is taken the same way', () => {
    const source: NodeJS.ProcessEnv = { OPENAI_API_KEY: 'sk-a', GITHUB_TOKEN: 'gh-b', PATH: '/bin', MY_LLM: 'sk-c' };
    const scrubbed: string[][] = [];
    const env = keyEnvironment(source, { scrub: (names) => scrubbed.push([...names]) });
    expect(source).toEqual({ PATH: '/bin', MY_LLM: 'sk-c' });
    expect(scrubbed).toEqual([['OPENAI_API_KEY', 'GITHUB_TOKEN']]);
    expect(env.OPENAI_API_KEY).toBe('sk-a');
    expect(env.MY_LLM).toBe('sk-c');
    expect(source.MY_LLM).toBeUndefined();
    expect(scrubbed).toEqual([['OPENAI_API_KEY', 'GITHUB_TOKEN'], ['MY_LLM']]);
  });

  // security.md B7: /proc/<pid>/environ shows the block a process started with, whatever process.env says since.
  it.runIf(process.platform === 'linux')('B7: after the start, /proc/<pid>/environ of the process no longer holds the key; the process still has it', { timeout: 30_000 }, async () => {
    const module = new URL('../../../electron/core/connections/key-environment.ts', import.meta.url).href;
    const code = `const { takeKeyEnvironment } = await import(${JSON.stringify(module)});
const env = takeKeyEnvironment();
process.stdout.write(JSON.stringify({ inEnv: process.env.CANARY_API_KEY ?? null, kept: env.CANARY_API_KEY }) + '\\n');
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));`;
    const canary = 'sk-canary-environ-4711';
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { env: { PATH: process.env.PATH, CANARY_API_KEY: canary, OTHER: 'stays' }, stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        child.stdout.setEncoding('utf8').once('data', resolve);
        child.once('exit', (code) => reject(new Error(`child exited ${code}`)));
      });
      expect(JSON.parse(line)).toEqual({ inEnv: null, kept: canary });
      const environ = fs.readFileSync(`/proc/${child.pid}/environ`, 'latin1');
      expect(environ).not.toContain(canary);
      expect(environ).toContain('OTHER=stays');
    } finally {
      child.stdin.end();
      child.kill();
    }
  });
});
