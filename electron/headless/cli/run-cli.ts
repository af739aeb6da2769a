// Parses argv, runs one command against a Node host, prints one result; exit code 0 on success, 1 on error.
import type { Env } from '../../core/connections/secret-store';
import { parseArgs } from 'node:util';
import { HostFailure, type HostError } from '../../../shared/errors';
import { silentLogger, type Logger } from '../../core/ports';
import { connectToApp } from '../../core/app-socket/client';
import { resolveDataDir } from '../../core/data-dir';
import type { CliCommand, CliHost, StandaloneContext } from './command';
import { helpText } from './help-text';
import { waitForToolSources } from './tool-sources';
import { commands as allCommands } from './index';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

const GLOBAL_FLAGS = {
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean' },
  /** Glob over qualified tool names whose approvals this run grants (repeatable); the rest are denied. */
  approve: { type: 'string', multiple: true },
  /** Run on the data folder in this process even when the app is running on it. */
  'no-host': { type: 'boolean' },
} as const;

/** The words before a command's own flags: the global flags' values (`--data-dir DIR`) are not words. */
function commandWords(argv: string[]): string[] {
  return parseArgs({ args: argv, options: GLOBAL_FLAGS, allowPositionals: true, strict: false }).positionals;
}

function findCommand(words: string[], commands: CliCommand[]): CliCommand | undefined {
  return [...commands]
    .sort((a, b) => b.words.length - a.words.length)
    .find((c) => c.words.every((w, i) => words[i] === w));
}

export interface RunCliOptions {
  log?: Logger;
  commands?: CliCommand[];
  /** For tests: null runs the CLI without starting the bundled extensions. */
  bundledExtensionsDir?: string | null;
  /** Key variables taken at the CLI's start (cli.ts); tests leave it out. */
  env?: Env;
  /** For tests: false never looks for a running app (as --no-host). */
  useRunningApp?: boolean;
}

export async function runCli(argv: string[], io: CliIo, options: RunCliOptions = {}): Promise<number> {
  const commands = options.commands ?? allCommands;
  const json = argv.includes('--json');
  const report = (error: HostError): number => {
    if (json) io.out(JSON.stringify({ error: { code: error.code, message: error.message, ...(error.path ? { path: error.path } : {}), ...(error.hint ? { hint: error.hint } : {}) } }));
    else io.err(`Error ${error.code}: ${error.message}${error.hint ? `\nHint: ${error.hint}` : ''}`);
    return 1;
  };

  const command = findCommand(commandWords(argv), commands);
  if (!command) {
    if (argv.includes('--help') || argv.length === 0) {
      io.out(helpText(commands));
      return argv.length === 0 ? 1 : 0;
    }
    return report({ code: 'UNKNOWN_METHOD', message: `Unknown command "${commandWords(argv).join(' ')}". Run with --help to list commands.` });
  }

  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...GLOBAL_FLAGS, ...(command.flags ?? {}) }, allowPositionals: true, strict: true });
  } catch (err) {
    const code = report({ code: 'INVALID_INPUT', message: `${(err as Error).message}\nUsage: ${command.usage}` });
    // A command that answers its own exit codes tells a usage error apart from a failure.
    return command.standalone ? 2 : code;
  }
  if (parsed.values.help) {
    io.out(`Usage: npm run cli -- ${command.usage}\n${command.summary}`);
    return 0;
  }

  if (command.standalone) {
    try {
      return await command.standalone({ flags: parsed.values as StandaloneContext['flags'], positionals: parsed.positionals.slice(command.words.length), json, out: io.out, err: io.err });
    } catch (err) {
      report(err instanceof HostFailure ? err.error : { code: 'INTERNAL', message: (err as Error).message });
      return 2;
    }
  }

  let host: CliHost;
  try {
    host = (await runningApp(parsed.values, options)) ?? (await inProcessHost(parsed.values, command, options));
  } catch (err) {
    // Whatever stops the host from starting is still an {"error"} document (and exit 1), never a stack trace.
    return report(err instanceof HostFailure ? err.error : { code: 'INTERNAL', message: `The host could not start: ${(err as Error).message}` });
  }
  // What the host has to tell a person (settings recovered, an extension held in safe mode…) goes to stderr,
  // so it is seen whatever the command, and never mixes into --json output.
  for (const notice of await host.notices()) io.err(`Notice (${notice.level}): ${notice.message}`);
  try {
    if (command.usesTools && host.local) {
      for (const note of await waitForToolSources(host.local)) io.err(note);
    }
    const value = await command.run!({
      host,
      flags: parsed.values as Record<string, string | boolean | string[] | undefined>,
      positionals: parsed.positionals.slice(command.words.length),
      progress: (line) => {
        if (!json) io.err(line);
      },
      out: (line) => io.out(line),
    });
    io.out(json ? JSON.stringify(value) : command.format ? command.format(value) : JSON.stringify(value, null, 2));
    return 0;
  } catch (err) {
    if (err instanceof HostFailure) return report(err.error);
    return report({ code: 'INTERNAL', message: (err as Error).message });
  } finally {
    await host.dispose();
  }
}

/**
 * The app running on the data folder, when one answers: the command then goes to it, so there is one writer and
 * its window shows the change. `--no-host` (or a folder no app runs on) keeps the command in this process.
 */
async function runningApp(flags: Record<string, unknown>, options: RunCliOptions): Promise<CliHost | null> {
  if (flags['no-host'] === true || options.useRunningApp === false) return null;
  const app = await connectToApp(resolveDataDir(flags['data-dir'] as string | undefined));
  if (app && (flags.approve as string[] | undefined)?.length) {
    await app.dispose();
    throw new HostFailure({
      code: 'INVALID_INPUT',
      message: 'The app is running on this data folder, and approvals are given in its window, not with --approve.',
      hint: 'Approve in the app, or add --no-host to run the command in this process with --approve.',
      path: '--approve',
    });
  }
  return app;
}

/** A host in this process on the data folder; a data-only command starts no extension or MCP server. */
async function inProcessHost(flags: Record<string, unknown>, command: CliCommand, options: RunCliOptions): Promise<CliHost> {
  // The core loads only here: a command the running app answers never loads it.
  const { createNodeHost } = await import('../node-host');
  const local = await createNodeHost({
    dataDir: flags['data-dir'] as string | undefined,
    mode: 'cli',
    log: options.log ?? silentLogger,
    approve: (flags.approve as string[] | undefined) ?? [],
    ...(options.bundledExtensionsDir !== undefined ? { bundledExtensionsDir: options.bundledExtensionsDir } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(command.dataOnly ? { startToolSources: false } : {}),
  });
  return { api: local.api, onEvent: (listener) => local.onEvent(listener), notices: async () => local.notices(), dispose: () => local.dispose(), local };
}
