// The shape of a CLI command: its words, flags, what it calls on the host and how it prints for people.
import type { Host } from '../../core/host';
import type { AppClient } from '../../core/app-socket/client';
import type { MethodInput, MethodName, MethodOutput } from '../../../shared/contract';
import { HostFailure } from '../../../shared/errors';

/**
 * What a command runs against: the contract and the host's events, answered by the app running on the data folder
 * (app-socket) or by a host in this process, which is then also `local`.
 */
export interface CliHost extends AppClient {
  local?: Host;
}

export type FlagSpec = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

export interface CliContext {
  host: CliHost;
  flags: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  /** Writes progress for people (stderr), never mixed into --json output. */
  progress(line: string): void;
  /** Writes a line of output now (commands that stream, like `extensions log --follow`). */
  out(line: string): void;
}

export interface StandaloneContext {
  flags: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  json: boolean;
  out(text: string): void;
  err(text: string): void;
}

export interface CliCommand {
  words: string[];
  usage: string;
  summary: string;
  flags?: FlagSpec;
  /** Runs or lists tools: waits first for enabled extensions and MCP servers to finish starting. */
  usesTools?: boolean;
  /** Only reads or writes the data folder: no extension worker or MCP server is started for it. */
  dataOnly?: boolean;
  run?(ctx: CliContext): Promise<unknown>;
  /**
   * Instead of run(): no host is started on the data folder (the command makes what it needs) and the command
   * answers its exit code itself. Its HostFailure is a usage or set-up error: exit 2.
   */
  standalone?(ctx: StandaloneContext): Promise<number>;
  /** Human output; defaults to pretty JSON. */
  format?(value: unknown): string;
}

/** Calls the host through the same dispatcher every door uses; a structured error becomes a failure. */
export async function callHost<M extends MethodName>(host: CliHost, method: M, input: MethodInput<M>): Promise<MethodOutput<M>> {
  const result = await host.api.call(method, input, { origin: 'cli' });
  if (!result.ok) throw new HostFailure(result.error);
  return result.value as MethodOutput<M>;
}

/** The positional argument at `index`, or INVALID_INPUT naming it with the command's usage. */
export function positional(ctx: CliContext, index: number, name: string, usage: string): string {
  const value = ctx.positionals[index];
  if (!value) throw new HostFailure({ code: 'INVALID_INPUT', message: `Missing <${name}>. Usage: ${usage}`, path: name });
  return value;
}
