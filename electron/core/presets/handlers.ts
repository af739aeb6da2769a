// Contract handlers for the presets the chat's prompt may be built from: the list the chat settings pick from, a
// Lumiverse preset file imported (preset-import.ts), and the preset editor's read and write of one preset.
import type { Handlers } from '../../../shared/contract';
import { fail } from '../../../shared/errors';
import { presetFromFile } from './preset-import';
import type { PresetStore } from './preset-store';

export type PresetMethod = 'chat.presets.list' | 'chat.presets.import' | 'chat.presets.get' | 'chat.presets.update';

export function presetHandlers(presets: PresetStore): Pick<Handlers, PresetMethod> {
  return {
    'chat.presets.list': () => ({ presets: presets.all().map((p) => ({ id: p.id, name: p.name, blocks: p.prompt_order.length })).sort((a, b) => a.name.localeCompare(b.name)) }),
    'chat.presets.import': ({ fileName, json }) => {
      const made = presets.create(presetFromFile(json, fileName));
      return { id: made.id, name: made.name, blocks: made.prompt_order.length };
    },
    'chat.presets.get': ({ presetId }) => presets.get(presetId) ?? fail('NOT_FOUND', `There is no preset ${presetId}.`, { path: '/presetId' }),
    'chat.presets.update': ({ presetId, ...change }) => presets.update(presetId, change),
  };
}
