// Builds the core for plain Node (browser mode, CLI, tests): conf-backed settings, console logging.
import { resolveDataDir } from '../core/data-dir';
import type { Env } from '../core/connections/secret-store';
import { createHost, type Host } from '../core/host';
import { consoleLogger, type Logger } from '../core/ports';
import { confBackend } from '../core/settings/conf-backend';
import { patternApprovalPolicy } from '../core/safety/approval-policy';
import { builtPaths } from './built-paths';

export async function createNodeHost(options: {
  dataDir?: string;
  mode: 'browser' | 'cli';
  log?: Logger;
  /** CLI: glob patterns of tools whose approvals are granted (--approve); every other approval is denied. */
  approve?: string[];
  /** Tests that don't need the bundled extensions skip starting their workers. */
  bundledExtensionsDir?: string | null;
  /** Key variables, taken at the door's start (takeKeyEnvironment); default: read from process.env when named. */
  env?: Env;
  /** false: no extension worker or MCP server is started (a command that only reads or writes the data folder). */
  startToolSources?: boolean;
  /** Browser mode: they start when host.startToolSources() is called, once the page is served. */
  deferToolSources?: boolean;
  /** The council's dice (the test bench fixes the seed). */
  councilSeed?: () => number;
}): Promise<Host> {
  const dataDir = resolveDataDir(options.dataDir);
  const host = await createHost({
    dataDir,
    mode: options.mode,
    settingsBackend: confBackend,
    log: options.log ?? consoleLogger,
    ...builtPaths(),
    ...(options.bundledExtensionsDir !== undefined ? { bundledExtensionsDir: options.bundledExtensionsDir } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.startToolSources === false ? { startToolSources: false } : {}),
    ...(options.deferToolSources ? { deferToolSources: true } : {}),
    ...(options.councilSeed ? { councilSeed: options.councilSeed } : {}),
    ...(options.mode === 'cli' ? { approvalPolicy: patternApprovalPolicy(options.approve ?? []) } : {}),
  });
  // A CLI command runs once: let extensions finish registering their tools first.
  if (options.mode === 'cli' && options.startToolSources !== false) await host.extensions.whenSettled();
  return host;
}
