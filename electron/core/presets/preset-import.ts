// A Lumiverse preset file as the person has it, in the three shapes Lumiverse's Loom import reads: LumiHub's wrapped
// `{ type: 'lumiverse_preset', preset: { blocks } }`, a bare Loom preset `{ blocks }`, and the server's own
// `{ prompt_order, prompts, parameters, metadata }`. It becomes a preset as Lumiverse's marshalPreset makes one (the
// blocks normalized by the store), with the regex scripts it bundles (presetRegexItems). SillyTavern's prompt-manager
// presets are not read here.
import { HostFailure } from '../../../shared/errors';
import type { PresetCreate } from './preset-store';

const MAX_BLOCKS = 2000;

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const bad = (message: string, path: string): never => {
  throw new HostFailure({ code: 'INVALID_PRESET', message, path });
};

/** A Loom preset (`blocks` and its settings) as Lumiverse stores it. */
function fromLoom(loom: Json, fallbackName: string, at: string): PresetCreate {
  const blocks = loom.blocks as unknown[];
  return {
    name: typeof loom.name === 'string' && loom.name.trim() ? loom.name.trim().slice(0, 200) : fallbackName,
    provider: 'loom',
    parameters: { samplerOverrides: loom.samplerOverrides ?? null, customBody: loom.customBody ?? null },
    prompt_order: checkedBlocks(blocks, `${at}/blocks`),
    prompts: { promptBehavior: loom.promptBehavior ?? null, completionSettings: loom.completionSettings ?? null, advancedSettings: loom.advancedSettings ?? null },
    metadata: { description: typeof loom.description === 'string' ? loom.description : '', ...(isRecord(loom.promptVariables) ? { promptVariables: loom.promptVariables } : {}) },
  };
}

function checkedBlocks(blocks: unknown[], at: string): Json[] {
  if (blocks.length > MAX_BLOCKS) bad(`A preset holds at most ${MAX_BLOCKS} blocks; this one has ${blocks.length}.`, at);
  const index = blocks.findIndex((b) => !isRecord(b));
  if (index >= 0) bad('Each block is an object (its name, role, content and marker).', `${at}/${index}`);
  return blocks as Json[];
}

/**
 * The regex scripts a preset file brings, as Lumiverse's Loom import finds them: `extensions.regex_scripts` or
 * `regex_scripts`, of the file or of LumiHub's wrapped preset.
 */
export function presetRegexItems(text: string): unknown[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return [];
  }
  const from = (x: unknown): unknown[] | null => {
    if (!isRecord(x)) return null;
    if (isRecord(x.extensions) && Array.isArray(x.extensions.regex_scripts)) return x.extensions.regex_scripts as unknown[];
    return Array.isArray(x.regex_scripts) ? (x.regex_scripts as unknown[]) : null;
  };
  return (isRecord(data) ? (from(data) ?? from(data.preset)) : null) ?? [];
}

/** The preset a file holds, named after the file when it has no name; INVALID_PRESET with the path of what is wrong. */
export function presetFromFile(text: string, fileName = 'Imported preset'): PresetCreate {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return bad(`The preset is not valid JSON (${(err as Error).message}).`, '/json');
  }
  const fallbackName = fileName.replace(/\.json$/i, '').slice(0, 200) || 'Imported preset';
  if (!isRecord(data)) return bad('A preset file holds one JSON object.', '');
  if (data.type === 'lumiverse_preset') {
    if (!isRecord(data.preset) || !Array.isArray(data.preset.blocks)) return bad("A LumiHub preset's `preset` holds its `blocks`.", '/preset/blocks');
    return fromLoom(data.preset, fallbackName, '/preset');
  }
  if (Array.isArray(data.blocks)) return fromLoom(data, fallbackName, '');
  if (Array.isArray(data.prompt_order) && isRecord(data.prompts)) {
    return {
      name: typeof data.name === 'string' && data.name.trim() ? data.name.trim().slice(0, 200) : fallbackName,
      provider: typeof data.provider === 'string' ? data.provider.slice(0, 64) : 'loom',
      parameters: isRecord(data.parameters) ? data.parameters : {},
      prompt_order: checkedBlocks(data.prompt_order, '/prompt_order'),
      prompts: data.prompts,
      metadata: isRecord(data.metadata) ? data.metadata : {},
    };
  }
  if (Array.isArray(data.prompts)) return bad("This is a SillyTavern prompt-manager preset; the Workbench reads Lumiverse's Loom presets (export it from Lumiverse's Loom tab).", '/prompts');
  return bad("Not a Lumiverse preset: it has no `blocks` (Loom), `preset.blocks` (LumiHub) or `prompt_order` (Lumiverse's own).", '');
}
