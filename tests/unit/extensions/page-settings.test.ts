// An extension's rows of Lumiverse's settings (its frontend's /api/v1/settings): its own, read back after the host
// reads the folder anew; Lumiverse's key and value rules; a row named like Object's prototype is a row like any other;
// past the extension's quota nothing of the put is kept.
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_PAGE_SETTING_CHARS, MAX_PAGE_SETTINGS_BYTES, PageSettings } from '../../../electron/core/extensions/spindle-host/page-settings';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

describe('page settings', () => {
  it('keeps each extension’s rows apart, with the time in seconds, and reads them back from the folder', async () => {
    const root = tempDir('cw-page-settings-');
    const settings = new PageSettings(root, () => 5_500);
    expect(await settings.put('ext_a', { theme: 'dark', __proto__: 1 } as Record<string, unknown>)).toEqual([{ key: 'theme', value: 'dark', updated_at: 5 }]);
    await settings.put('ext_a', JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(settings.get('ext_b', 'theme')).toBeNull();
    const again = new PageSettings(root, () => 0);
    expect(again.get('ext_a', 'theme')).toEqual({ key: 'theme', value: 'dark', updated_at: 5 });
    expect(again.get('ext_a', '__proto__')).toEqual({ key: '__proto__', value: { polluted: true }, updated_at: 5 });
    expect(again.get('ext_a', 'toString')).toBeNull();
    expect(again.list('ext_a').map((r) => r.key)).toEqual(['theme', '__proto__']);
    expect(await again.delete('ext_a', 'theme')).toBe(true);
    expect(await again.delete('ext_a', 'theme')).toBe(false);
  });

  it('refuses a key or value Lumiverse refuses, and a put past the quota, keeping none of it', async () => {
    const settings = new PageSettings(tempDir('cw-page-settings-'), () => 0);
    await expect(settings.put('ext_a', { 'no spaces': 1 })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT' } });
    await expect(settings.put('ext_a', { ok: 1, ['k'.repeat(201)]: 1 })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT' } });
    await expect(settings.put('ext_a', { big: 'x'.repeat(MAX_PAGE_SETTING_CHARS) })).rejects.toMatchObject({ error: { code: 'INPUT_TOO_LARGE', path: '/big' } });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(settings.put('ext_a', { cyclic })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT' } });
    const part = 'x'.repeat(MAX_PAGE_SETTING_CHARS - 10);
    const fill = Object.fromEntries(Array.from({ length: Math.ceil(MAX_PAGE_SETTINGS_BYTES / MAX_PAGE_SETTING_CHARS) + 1 }, (_, i) => [`k${i}`, part]));
    await expect(settings.put('ext_a', fill)).rejects.toMatchObject({ error: { code: 'QUOTA_EXCEEDED' } });
    expect(settings.list('ext_a')).toEqual([]);
  });
});
