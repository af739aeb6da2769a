// spindle.presets (permission `presets`): the person's generation presets, shared by every extension that holds the
// permission, as Lumiverse's preset service answers them. Without the store (tests, the CLI before start) reads are
// empty and writes refused.
import type { PresetStore } from '../../presets/preset-store';
import type { RegexStore } from '../../regex/regex-store';
import { fail, type HandlersOf } from './handlers';

export function presetHandlers(store: () => PresetStore | null, regex: () => Pick<RegexStore, 'forgetScope'> | null = () => null): HandlersOf<'presets'> {
  const writable = (): PresetStore => store() ?? fail('UNSUPPORTED_HERE', 'Presets are not open yet.');
  const found = <T>(value: T | null, presetId: string): T => value ?? fail('NOT_FOUND', `There is no preset ${presetId}.`, '/presetId');
  return {
    'presets.list': ({ options }) => store()?.list(options ?? {}) ?? { data: [], total: 0 },
    'presets.get': ({ presetId }) => store()?.get(presetId) ?? null,
    'presets.create': ({ input }) => writable().create(input),
    'presets.update': ({ presetId, input }) => writable().update(presetId, input),
    'presets.delete': ({ presetId }) => {
      const deleted = writable().delete(presetId);
      // Its own regex scripts (its import brought them) go with it.
      if (deleted) regex()?.forgetScope(presetId);
      return deleted;
    },
    'presets.blocks.list': ({ presetId }) => found(store()?.blocks(presetId) ?? null, presetId),
    'presets.blocks.get': ({ presetId, blockId }) => store()?.blocks(presetId)?.find((b) => b.id === blockId) ?? null,
    'presets.blocks.create': ({ presetId, input, options }) => writable().createBlock(presetId, input, options?.index),
    'presets.blocks.update': ({ presetId, blockId, input }) => writable().updateBlock(presetId, blockId, input),
    'presets.blocks.delete': ({ presetId, blockId }) => writable().deleteBlock(presetId, blockId),
    'presets.categories.list': ({ presetId }) => found(store()?.categories(presetId) ?? null, presetId),
  };
}
