// `npm start`'s choice between the desktop app and browser mode, with a remembered failed download.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without type declarations
import { failureFile, fetchErrorDetail, planStart } from '../../../scripts/desktop-binary.mjs';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

interface Plan {
  mode: 'desktop' | 'browser';
  reason?: string;
  retryHint?: boolean;
  binary?: string;
}

function fakeCheckout(version = '41.7.1'): string {
  const root = tempDir();
  fs.mkdirSync(path.join(root, 'node_modules', 'electron'), { recursive: true });
  fs.writeFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), JSON.stringify({ version }));
  return root;
}

const offline = () => ({ output: 'RequestError: getaddrinfo ENOTFOUND github.com\n    at ClientRequest.<anonymous>', timedOut: false });

function installs(root: string) {
  fs.mkdirSync(path.join(root, 'node_modules', 'electron', 'dist'), { recursive: true });
  fs.writeFileSync(path.join(root, 'node_modules', 'electron', 'path.txt'), 'electron');
  fs.writeFileSync(path.join(root, 'node_modules', 'electron', 'dist', 'electron'), '');
  return { output: '', timedOut: false };
}

function plan(root: string, options: { args?: string[]; fetcher?: (root: string) => { output: string; timedOut: boolean }; env?: Record<string, string> } = {}) {
  let fetches = 0;
  const lines: string[] = [];
  const result = planStart({
    root,
    args: options.args ?? [],
    env: options.env ?? { DISPLAY: ':0' },
    platform: 'linux',
    log: (line: string) => lines.push(line),
    fetcher: (r: string) => {
      fetches += 1;
      return (options.fetcher ?? offline)(r);
    },
    now: new Date('2026-11-23T10:00:00Z'),
  }) as Plan;
  return { result, fetches, lines };
}

describe('npm start without the Electron binary', () => {
  it('tries the download once, names the cause, and remembers the failure', () => {
    const root = fakeCheckout();
    const first = plan(root);
    expect(first.fetches).toBe(1);
    expect(first.lines.join('\n')).toMatch(/Fetching the Electron binary/);
    expect(first.result).toMatchObject({ mode: 'browser', retryHint: true });
    expect(first.result.reason).toContain('ENOTFOUND github.com');
    expect(fs.existsSync(failureFile(root))).toBe(true);

    const later = plan(root);
    expect(later.fetches).toBe(0);
    expect(later.result).toMatchObject({ mode: 'browser', retryHint: true });
    expect(later.result.reason).toContain('ENOTFOUND github.com');
    expect(later.result.reason).toContain('2026-11-23');
  });

  it('--desktop tries again, and a download that works forgets the failure', () => {
    const root = fakeCheckout();
    plan(root);
    const retried = plan(root, { args: ['--desktop'], fetcher: installs });
    expect(retried.fetches).toBe(1);
    expect(retried.result.mode).toBe('desktop');
    expect(retried.result.binary).toBe(path.join(root, 'node_modules', 'electron', 'dist', 'electron'));
    expect(fs.existsSync(failureFile(root))).toBe(false);
  });

  it('a failure remembered for another Electron version is tried again', () => {
    const root = fakeCheckout('40.0.0');
    plan(root);
    const upgraded = fakeCheckout('41.7.1');
    fs.mkdirSync(path.dirname(failureFile(upgraded)), { recursive: true });
    fs.copyFileSync(failureFile(root), failureFile(upgraded));
    expect(plan(upgraded).fetches).toBe(1);
  });

  it('a download that hangs is reported as such', () => {
    const root = fakeCheckout();
    const { result } = plan(root, { fetcher: () => ({ output: '', timedOut: true }) });
    expect(result.reason).toContain('no answer within 3 minutes');
  });

  it('with the binary but no display it starts browser mode without a retry hint and without fetching', () => {
    const root = fakeCheckout();
    installs(root);
    const { result, fetches } = plan(root, { env: {} });
    expect(fetches).toBe(0);
    expect(result).toMatchObject({ mode: 'browser', retryHint: false });
    expect(result.reason).toMatch(/no graphical display/);
  });
});

describe('fetchErrorDetail', () => {
  it('picks the line that names the cause', () => {
    expect(fetchErrorDetail('\n  at x\nHTTPError: Response code 404 status code\n')).toBe('HTTPError: Response code 404 status code');
    expect(fetchErrorDetail('')).toBeNull();
  });
});
