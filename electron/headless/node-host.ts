// Builds the core for plain Node (browser mode, CLI, tests): conf-backed settings, console logging.
import { resolveDataDir } from '../core/data-dir';
import { createHost, type Host } from '../core/host';
import { consoleLogger, type Logger } from '../core/ports';
import { confBackend } from '../core/settings/conf-backend';

export async function createNodeHost(options: {
  dataDir?: string;
  mode: 'browser' | 'cli';
  log?: Logger;
}): Promise<Host> {
  const dataDir = resolveDataDir(options.dataDir);
  const host = await createHost({ dataDir, mode: options.mode, settingsBackend: confBackend, log: options.log ?? consoleLogger });
  // A CLI command runs once: let extensions finish registering their tools first.
  if (options.mode === 'cli') await host.extensions.whenSettled();
  return host;
}
