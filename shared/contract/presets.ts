// The Lumiverse presets the chat's prompt may be built from: the list the chat settings pick from, a preset file
// imported, and the preset editor's reads and writes (a whole preset, changed at the revision it was read at).
import { Type } from '@sinclair/typebox';
import { endpoint } from '../rpc/endpoint';

const PresetId = Type.String({ minLength: 1, maxLength: 128 });
const Fields = Type.Record(Type.String(), Type.Unknown());
/** A prompt block as Lumiverse keeps it (normalized: every field present). */
const Block = Type.Record(Type.String(), Type.Unknown());

/** A preset as Lumiverse's UserPresetDTO has it: its blocks in order (prompt_order) and the revision each change bumps. */
export const PresetSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  provider: Type.String(),
  engine: Type.String(),
  parameters: Fields,
  prompt_order: Type.Array(Block),
  prompts: Fields,
  metadata: Fields,
  cache_revision: Type.Integer(),
  created_at: Type.Number(),
  updated_at: Type.Number(),
});

const Listed = Type.Object({ id: Type.String(), name: Type.String(), blocks: Type.Integer() });

export const presetMethods = {
  'chat.presets.list': endpoint({ description: "The Lumiverse presets kept here (imported, or made by extensions: spindle.presets), each with its block count; the chat's prompt is built from the one settings.chat.presetId names.", params: Type.Object({}, { additionalProperties: false }), result: Type.Object({ presets: Type.Array(Listed) }) }),
  'chat.presets.import': endpoint({
    description: "Imports a Lumiverse preset file (Loom's { blocks }, LumiHub's { type: 'lumiverse_preset', preset }, or Lumiverse's { prompt_order, prompts }), with the regex scripts it bundles as the preset's own (regexScripts: how many; regexSkipped: each left out, and why).",
    params: Type.Object({ fileName: Type.Optional(Type.String({ maxLength: 260 })), json: Type.String({ maxLength: 4 * 1024 * 1024 }) }, { additionalProperties: false }),
    result: Type.Object({ ...Listed.properties, regexScripts: Type.Optional(Type.Integer()), regexSkipped: Type.Optional(Type.Array(Type.String())) }), errors: ['INVALID_PRESET', 'QUOTA_EXCEEDED', 'INPUT_TOO_LARGE'] }),
  'chat.presets.get': endpoint({ description: 'One preset whole, for the preset editor.', params: Type.Object({ presetId: PresetId }, { additionalProperties: false }), result: PresetSchema, errors: ['NOT_FOUND'] }),
  'chat.presets.update': endpoint({
    description: "Changes a preset's name, blocks or metadata, if it is still at expected_cache_revision (else PRESET_REVISION_CONFLICT, with the revision it is at); extensions granted presets hear PRESET_CHANGED.",
    params: Type.Object(
      {
        presetId: PresetId,
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
        prompt_order: Type.Optional(Type.Array(Block, { maxItems: 2000 })),
        metadata: Type.Optional(Fields),
        expected_cache_revision: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
    result: PresetSchema,
    errors: ['NOT_FOUND', 'PRESET_REVISION_CONFLICT', 'INPUT_TOO_LARGE'],
  }),
};
