// A worker stopped for its memory says how to give it more: the setting it names is one the settings file takes,
// and the default it quotes is the one the host uses.
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { exitError } from '../../../electron/core/extensions/workers/worker-exit';
import { DEFAULT_WORKER_MEMORY_MB, defaultSettings, SettingsSchema } from '../../../shared/settings';

describe('the memory cap hint', () => {
  it('names a settings key that settings.json accepts, with the real default', () => {
    const error = exitError('greedy', { reason: 'memory', exitCode: null, signal: 'SIGKILL', detail: '1.1 GB over 1 GB', crashLine: undefined });
    expect(error.code).toBe('WORKER_MEMORY');
    const [, section, key] = /\b([a-zA-Z]+)\.([a-zA-Z]+) \(in MB; default (\d+)\)/.exec(error.hint ?? '') ?? [];
    expect(section).toBeDefined();
    expect(error.hint).toContain(`default ${DEFAULT_WORKER_MEMORY_MB})`);
    const settings = { ...defaultSettings(), [section!]: { [key!]: 2048 } };
    expect(Value.Check(SettingsSchema, settings), JSON.stringify([...Value.Errors(SettingsSchema, settings)].slice(0, 2))).toBe(true);
  });
});
