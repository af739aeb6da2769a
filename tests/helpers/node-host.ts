// A real core host on a fresh data folder, for tests.
import { createHost, type Host } from '../../electron/core/host';
import { silentLogger } from '../../electron/core/ports';
import { confBackend } from '../../electron/core/settings/conf-backend';
import { tempDir } from './temp-dir';

/** Without bundled extensions unless asked: most tests are about the host, not the workers. */
export async function testHost(dataDir = tempDir(), options: { bundledExtensionsDir?: string | null } = {}): Promise<Host> {
  return createHost({ dataDir, mode: 'cli', settingsBackend: confBackend, log: silentLogger, bundledExtensionsDir: options.bundledExtensionsDir ?? null, checkOutputs: true });
}
