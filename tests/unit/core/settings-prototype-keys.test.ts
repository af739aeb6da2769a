// Issue 18, finding 5: ids that are Object.prototype names (constructor, __proto__, toString) are ordinary keys in
// the settings maps: a missing one is missing (no inherited function), a saved one is kept, none pollutes.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { settingsExtensionState } from '../../../electron/core/extensions/settings-state';
import { silentLogger } from '../../../electron/core/ports';
import { confBackend } from '../../../electron/core/settings/conf-backend';
import { mergePatch, SettingsStore } from '../../../electron/core/settings/settings-store';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

const open = (dataDir: string) => SettingsStore.open({ dataDir, backend: confBackend, clock: { now: () => 1 }, log: silentLogger });
const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

describe('S2: prototype names as settings keys', () => {
  it.each(PROTOTYPE_NAMES)('S2: an extension "%s" with no saved entry has no state (nothing inherited)', async (id) => {
    const state = settingsExtensionState(await open(tempDir()));
    expect(state.getState(id)).toBeUndefined();
  });

  it('S2: an extension named constructor keeps its entry through a function update and a patch update, and can be removed', async () => {
    const dir = tempDir();
    const store = await open(dir);
    const state = settingsExtensionState(store);
    await state.setState('constructor', { enabled: true, granted: ['tools'] });
    expect(state.getState('constructor')).toEqual({ enabled: true, granted: ['tools'] });
    // A patch (the settings.update contract) names the same map entry: it is merged, not dropped.
    await store.update({ extensions: { constructor: { enabled: false, granted: [] } } });
    expect(state.getState('constructor')).toEqual({ enabled: false, granted: [] });
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'settings.json'), 'utf8')).extensions).toEqual({ constructor: { enabled: false, granted: [] } });
    // Reopened from the file (another start), it is still an own entry.
    expect(settingsExtensionState(await open(dir)).getState('constructor')).toEqual({ enabled: false, granted: [] });
    await state.removeState?.('constructor');
    expect(state.getState('constructor')).toBeUndefined();
  });

  it('S2: a __proto__ key in a patch or in the file never reaches a prototype', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'settings.json'), '{"version":1,"ui":{"theme":"dark"},"extensions":{"__proto__":{"enabled":true,"granted":["tools"]}},"council":{"councilMode":false,"members":[]}}');
    const store = await open(dir);
    expect(({} as Record<string, unknown>).enabled).toBeUndefined();
    expect(store.get().ui.theme).toBe('dark');
    const merged = mergePatch({ a: 1 }, JSON.parse('{"__proto__":{"polluted":true},"b":2}')) as Record<string, unknown>;
    expect(merged).toEqual({ a: 1, b: 2 });
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
