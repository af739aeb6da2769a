// Contract handlers for the presets the chat's prompt may be built from: the list the chat settings pick from, a
// Lumiverse preset file imported (preset-import.ts), and the preset editor's read and write of one preset.
import type { Handlers } from '../../../shared/contract';
import { fail, HostFailure } from '../../../shared/errors';
import { presetFromFile, presetRegexItems } from './preset-import';
import { regexScriptsOf } from '../regex/regex-import';
import { PERSON, type RegexStore } from '../regex/regex-store';
import type { PresetStore } from './preset-store';

export type PresetMethod = 'chat.presets.list' | 'chat.presets.import' | 'chat.presets.get' | 'chat.presets.update';

export function presetHandlers(presets: PresetStore, regex?: RegexStore): Pick<Handlers, PresetMethod> {
  return {
    'chat.presets.list': () => ({ presets: presets.all().map((p) => ({ id: p.id, name: p.name, blocks: p.prompt_order.length })).sort((a, b) => a.name.localeCompare(b.name)) }),
    'chat.presets.import': ({ fileName, json }) => {
      const made = presets.create(presetFromFile(json, fileName));
      // Its regex scripts, as Lumiverse's Loom import brings them: the preset's own, in a folder named after it.
      const bundled = regex ? regexScriptsOf(presetRegexItems(json), { scope: 'preset', source: 'preset' }) : { scripts: [], skipped: [] };
      for (const script of bundled.scripts) regex!.create({ ...script, scope_id: made.id, folder: script.folder || made.name }, PERSON);
      return { id: made.id, name: made.name, blocks: made.prompt_order.length, ...(bundled.scripts.length || bundled.skipped.length ? { regexScripts: bundled.scripts.length, regexSkipped: bundled.skipped } : {}) };
    },
    'chat.presets.get': ({ presetId }) => presets.get(presetId) ?? fail('NOT_FOUND', `There is no preset ${presetId}.`, { path: '/presetId' }),
    'chat.presets.update': ({ presetId, ...change }) => {
      if (change.prompt_order) editableBlocks(change.prompt_order);
      try {
        return presets.update(presetId, change);
      } catch (err) {
        // The store names fields as an extension's spindle.presets.update gives them (under /input); here they are flat.
        if (err instanceof HostFailure && err.error.path?.startsWith('/input')) throw new HostFailure({ ...err.error, path: err.error.path.slice('/input'.length) || '/' });
        throw err;
      }
    },
  };
}

/** What the preset editor saves, checked as Lumiverse's editor checks it: each block's id once, a whole depth of 0 or more. */
function editableBlocks(blocks: ReadonlyArray<Record<string, unknown>>): void {
  const seen = new Set<unknown>();
  blocks.forEach((block, i) => {
    if (typeof block.id === 'string' && seen.has(block.id)) fail('INVALID_INPUT', `Block ${i} has the id of an earlier block (${block.id.slice(0, 128)}); each block's id is its own.`, { path: `/prompt_order/${i}/id` });
    seen.add(block.id);
    if (block.depth !== undefined && !(Number.isInteger(block.depth) && (block.depth as number) >= 0)) fail('INVALID_INPUT', `Block ${i}'s depth is a whole number of 0 or more.`, { path: `/prompt_order/${i}/depth` });
  });
}
