// Contract handlers for the presets the chat's prompt may be built from: the list the chat settings pick from, and a
// Lumiverse preset file imported (preset-import.ts).
import type { Handlers } from '../../../shared/contract';
import { presetFromFile } from './preset-import';
import type { PresetStore } from './preset-store';

export type PresetMethod = 'chat.presets.list' | 'chat.presets.import';

export function presetHandlers(presets: PresetStore): Pick<Handlers, PresetMethod> {
  return {
    'chat.presets.list': () => ({ presets: presets.all().map((p) => ({ id: p.id, name: p.name, blocks: p.prompt_order.length })).sort((a, b) => a.name.localeCompare(b.name)) }),
    'chat.presets.import': ({ fileName, json }) => {
      const made = presets.create(presetFromFile(json, fileName));
      return { id: made.id, name: made.name, blocks: made.prompt_order.length };
    },
  };
}
