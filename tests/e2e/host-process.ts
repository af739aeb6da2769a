// Starts the headless host (browser mode, as `npm start` runs it from out/node) as a child process for e2e tests and
// stops it again (its whole process group: the host and its extension workers).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { builtCli } from '../helpers/built-cli';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

let built: string | null = null;
/**
 * The CLI's entry in out/node, brought up to date with the sources once per test worker: the host and the CLI run
 * as `npm start` (browser mode) and `npm run cli` run them, built, not through tsx.
 */
function builtCliEntry(): string {
  return (built ??= builtCli());
}

/** Runs the CLI on a data folder (before the host starts, or beside it) and returns what it printed. */
export function cli(dataDir: string, ...args: string[]): string {
  return execFileSync(process.execPath, [builtCliEntry(), ...args, '--data-dir', dataDir], { cwd: ROOT, encoding: 'utf8' });
}
/** Adds an OpenAI-compatible connection to the local LLM server at `origin` with the CLI; returns its id. */
export function addLocalConnection(dataDir: string, origin: string, model: string, name = 'Local'): string {
  const added = JSON.parse(cli(dataDir, 'connections', 'add', '--type', 'openai-compatible', '--base-url', `${origin}/v1`, '--model', model, '--name', name, '--json')) as { id?: string };
  if (!added.id) throw new Error(`connections add printed no id: ${JSON.stringify(added)}`);
  return added.id;
}

const READY = /(http:\/\/127\.0\.0\.1:\d+)\/#token=([0-9a-f]+)/;

export interface RunningHost {
  url: string;
  origin: string;
  token: string;
  dataDir: string;
  output(): string;
  stop(): Promise<void>;
}

export function assertRendererBuilt(): void {
  if (!fs.existsSync(path.join(ROOT, 'out', 'renderer', 'index.html'))) {
    throw new Error('out/renderer is missing: run `npx electron-vite build` (or `npm test`, which builds first).');
  }
}

export async function startHost(dataDir: string, timeoutMs = 30_000): Promise<RunningHost> {
  const headless = path.join(path.dirname(builtCliEntry()), 'headless.js');
  const child: ChildProcess = spawn(process.execPath, [headless, '--port', '0', '--data-dir', dataDir, '--no-open'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Own process group, so stop() reaches the workers it started too, and nothing else.
    detached: process.platform !== 'win32',
    env: { ...process.env, NO_COLOR: '1' },
  });
  let output = '';
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (output += chunk));

  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const signal = (sig: NodeJS.Signals) => {
      try {
        if (child.pid && process.platform !== 'win32') process.kill(-child.pid, sig);
        else child.kill(sig);
      } catch {
        // Already gone.
      }
    };
    signal('SIGTERM');
    const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 5000));
    if ((await Promise.race([exited, timer])) === 'timeout') {
      signal('SIGKILL');
      await exited;
    }
  };

  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`headless host did not print its URL within ${timeoutMs} ms. Output:\n${output}`));
    }, timeoutMs);
    child.stdout?.on('data', (chunk: string) => {
      output += chunk;
      const found = output.match(READY);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.once('exit', (code, sig) => {
      clearTimeout(timer);
      reject(new Error(`headless host exited (${code ?? sig}) before it was ready. Output:\n${output}`));
    });
  }).catch(async (err: unknown) => {
    await stop();
    throw err;
  });

  return {
    url: match[0],
    origin: match[1]!,
    token: match[2]!,
    dataDir,
    output: () => output,
    stop,
  };
}
