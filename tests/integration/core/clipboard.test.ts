// app.clipboard.write: the desktop app's host puts text on the system clipboard (its page may not write it); a host
// without one says so, and the window writes its own; a text over the cap is refused at its field, nothing written.
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../../../electron/core/host';
import { silentLogger } from '../../../electron/core/ports';
import { confBackend } from '../../../electron/core/settings/conf-backend';
import { MAX_CLIPBOARD_CHARS } from '../../../shared/contract/host';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { testHost } from '../../helpers/node-host';

afterEach(cleanupTempDirs);
const ctx = { origin: 'test' } as const;

describe('the system clipboard', () => {
  it("the desktop host's port is written; too long a text is refused at its field and nothing is written", async () => {
    const written: string[] = [];
    const host = await createHost({ dataDir: tempDir(), mode: 'desktop', settingsBackend: confBackend, log: silentLogger, bundledExtensionsDir: null, clipboard: { writeText: (text) => written.push(text) } });
    try {
      expect(await host.api.call('app.clipboard.write', { text: 'The reply, copied.' }, ctx)).toEqual({ ok: true, value: { written: true } });
      expect(written).toEqual(['The reply, copied.']);
      expect(await host.api.call('app.clipboard.write', { text: 'x'.repeat(MAX_CLIPBOARD_CHARS + 1) }, ctx)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/text' } });
      expect(written).toHaveLength(1);
    } finally {
      await host.dispose();
    }
  });

  it('a host without one answers written: false (the window writes its own)', async () => {
    const host = await testHost();
    try {
      expect(await host.api.call('app.clipboard.write', { text: 'x' }, ctx)).toEqual({ ok: true, value: { written: false } });
    } finally {
      await host.dispose();
    }
  });
});
