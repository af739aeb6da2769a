// Builds an extension that ships its TypeScript source but no build, as Lumiverse does with
// `bun build src/backend.ts --outfile <entry_backend> --target bun`: esbuild, one ESM bundle for Node.
//
// The build is a stranger's input, so it runs contained (electron/worker/build-runner.ts): a process
// of its own under Node's permission model (it reads the extension's folder and esbuild, writes
// nothing, starts only esbuild's binary), in a network namespace where Linux offers one, with no key
// in its environment, and every import resolved through a plugin that refuses the world outside the
// folder. The host writes the bundle it answers, inside the folder. Dependencies are not installed:
// what src/ imports must be in the folder (or a Node built-in).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { HostFailure } from '../../../../shared/errors';
import type { BuildAnswer, BuildJob, BuildMessage } from '../../../../shared/protocol/build';
import { moduleDetectionFlags, permissionFlags } from '../workers/containment';
import { minimalWorkerEnv } from '../workers/launcher';
import { networkNamespacePrefix } from '../workers/network-namespace';
import { runnableRuntime } from '../workers/runtime-script';

export interface BuildResult {
  /** The entry written, relative to the folder. */
  output: string;
  warnings: string[];
}

/** Where the build runner is and where its bundle may be written (a private folder of the data folder's). */
export interface BuildRunner {
  /** electron/worker/build-runner.ts from source, or the built out/main/build-runner.js. */
  entry: string;
  runtimeDir: string;
}

const BUILD_TIMEOUT_MS = 120_000;
/** A bundle larger than this is not an extension backend. */
const MAX_ANSWER_CHARS = 64 * 1024 * 1024;

/** The runner beside the worker runtime: the same folder, source or built. */
export function buildRunnerBeside(workerEntry: string, runtimeDir: string): BuildRunner {
  return { entry: path.join(path.dirname(workerEntry), workerEntry.endsWith('.ts') ? 'build-runner.ts' : 'build-runner.js'), runtimeDir };
}

/** `src/backend.ts:12:5: Could not resolve "lodash"` — where and what, as a person reads it. */
function describe(message: BuildMessage, folder: string): string {
  const where = message.location ? `${path.relative(folder, path.resolve(folder, message.location.file)) || message.location.file}:${message.location.line}:${message.location.column + 1}: ` : '';
  return `${where}${message.text}`;
}

/** esbuild's JavaScript API and the folders the build process must read to run it. */
function esbuildFiles(): { main: string; folders: string[] } {
  const require = createRequire(import.meta.url);
  const main = require.resolve('esbuild');
  const folders = [path.dirname(path.dirname(main))];
  try {
    folders.push(path.dirname(require.resolve(`@esbuild/${process.platform}-${process.arch}/package.json`)));
  } catch {
    // esbuild finds its binary some other way here (ESBUILD_BINARY_PATH, a bundled copy).
  }
  return { main, folders };
}

function failed(relSource: string, message: string, hint: string): HostFailure {
  return new HostFailure({ code: 'BUILD_FAILED', message: `Building ${relSource} failed: ${message}`, hint, path: `/${relSource}` });
}

/** Runs the contained build process on one job and returns its answer. */
function runContained(job: BuildJob, runner: BuildRunner, relSource: string): Promise<BuildAnswer> {
  const script = runnableRuntime(runner.entry, runner.runtimeDir);
  const esbuild = esbuildFiles();
  job.esbuild = esbuild.main;
  const flags = [...permissionFlags([job.folder, path.dirname(script), ...esbuild.folders]), '--allow-child-process', ...moduleDetectionFlags(), '--disable-warning=ExperimentalWarning'];
  const [command, ...prefix] = [...(networkNamespacePrefix() ?? []), process.execPath];
  // Inside Electron the main process's binary runs as plain Node for this.
  const env = minimalWorkerEnv(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {});
  const child = spawn(command!, [...prefix, ...flags, script], { cwd: job.folder, env, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32', windowsHide: true });
  const killGroup = () => {
    try {
      if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
      else child.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  };
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      killGroup();
      reject(failed(relSource, `it took longer than ${BUILD_TIMEOUT_MS / 1000} s.`, 'Ship the built entry (entry_backend) with the extension.'));
    }, BUILD_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.length > MAX_ANSWER_CHARS) {
        killGroup();
        reject(failed(relSource, `the bundle is larger than ${MAX_ANSWER_CHARS / 1024 / 1024} MB.`, 'Ship the built entry (entry_backend) with the extension.'));
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (err.length < 64 * 1024) err += chunk;
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(failed(relSource, `the build process could not start (${error.message}).`, 'Check that esbuild is installed with the app.'));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(out) as BuildAnswer);
      } catch {
        const last = err.trim().split("\n").slice(-3).join(" ");
        reject(failed(relSource, `the build process ended (code ${code}) without an answer${last ? `: ${last}` : '.'}`, 'This is a fault of the Workbench, not of the extension: the message above holds the end of what the build process wrote.'));
      }
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify(job));
  });
}

export async function buildExtensionEntry(folder: string, source: string, entry: string, progress: (line: string) => void, runner: BuildRunner, platform: BuildJob['platform'] = 'node'): Promise<BuildResult> {
  const relSource = path.relative(folder, source);
  const relEntry = path.relative(folder, entry);
  progress(`Building ${relSource} → ${relEntry}…`);
  const answer = await runContained({ folder, source, esbuild: '', platform }, runner, relSource);
  for (const note of answer.notes) progress(note);
  if (!answer.contained) progress("warning: the build ran without Node's permission model here; the plugin that keeps imports inside the folder still held.");
  if (!answer.ok) {
    const errors = answer.errors.map((m) => describe(m, folder));
    const first = errors[0] ?? 'unknown error';
    throw failed(
      relSource,
      `${first}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`,
      errors.length > 1 ? errors.slice(1, 6).join('\n') : 'Fix the source, or ship the built entry (entry_backend) with the extension.',
    );
  }
  await fs.promises.mkdir(path.dirname(entry), { recursive: true });
  await fs.promises.writeFile(entry, answer.code);
  const warnings = answer.warnings.map((w) => describe(w, folder));
  for (const warning of warnings) progress(`warning: ${warning}`);
  progress(`Built ${relEntry}.`);
  return { output: relEntry, warnings };
}
