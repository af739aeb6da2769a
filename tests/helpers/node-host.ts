// A real core host on a fresh data folder, for tests.
import { createHost, type Host } from '../../electron/core/host';
import { silentLogger } from '../../electron/core/ports';
import { confBackend } from '../../electron/core/settings/conf-backend';
import { tempDir } from './temp-dir';

export async function testHost(dataDir = tempDir()): Promise<Host> {
  return createHost({ dataDir, mode: 'cli', settingsBackend: confBackend, log: silentLogger });
}
