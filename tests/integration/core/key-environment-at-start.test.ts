// The host takes the key variables of saved connections out of process.env as it starts, and still uses them.
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeHost } from '../../../electron/headless/node-host';
import { silentLogger } from '../../../electron/core/ports';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

describe('key variables at start', () => {
  it('the host takes the key variables of saved connections out of process.env at start', async () => {
    const dataDir = tempDir();
    const name = 'CW_TEST_4711_API_KEY';
    process.env[name] = 'sk-from-the-environment';
    try {
      const first = await createNodeHost({ dataDir, mode: 'cli', log: silentLogger, bundledExtensionsDir: null });
      const saved = await first.api.call('connections.save', { profile: { id: 'p', name: 'P', provider: 'openai', baseUrl: 'https://api.example.test/v1', defaultModel: 'm', keyRef: { kind: 'env', name } } }, { origin: 'test' });
      expect(saved.ok).toBe(true);
      await first.dispose();
      process.env[name] = 'sk-from-the-environment';
      const host = await createNodeHost({ dataDir, mode: 'cli', log: silentLogger, bundledExtensionsDir: null });
      expect(process.env[name]).toBeUndefined();
      const listed = await host.api.call('connections.list', {}, { origin: 'test' });
      expect(listed).toMatchObject({ ok: true, value: [expect.objectContaining({ id: 'p', hasKey: true })] });
      await host.dispose();
    } finally {
      delete process.env[name];
    }
  });
});
