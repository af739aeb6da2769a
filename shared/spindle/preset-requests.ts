// The spindle.presets requests: the person's generation presets and their prompt blocks, in Lumiverse's shapes
// (UserPresetDTO, PromptBlockDTO; lumiverse-spindle-types 0.6.20), shared by every extension granted `presets`.
// Part of the one request table (requests.ts).
import { Type } from '@sinclair/typebox';
import { endpoint } from '../rpc/endpoint';
import { Any, Dto, Id, Opt, Options, OrNull, Page, PageOptions, positional } from './request-schema';

/** The JSON fields a preset keeps as given (parameters, prompts, metadata). */
const Fields = Type.Record(Type.String(), Any);
/**
 * A prompt block as an extension gives it. Lumiverse's normalizer takes any object and gives each field it does not
 * recognise (a role it does not know, a depth that is not a number) its default, so the same is done here
 * (preset-blocks.ts) rather than refusing the block.
 */
export const BlockInput = Type.Object({});
const Blocks = Type.Array(BlockInput, { maxItems: 2000 });
const PresetFields = {
  engine: Opt(Type.String({ minLength: 1, maxLength: 64 })),
  parameters: Opt(Fields),
  prompt_order: Opt(Blocks),
  prompts: Opt(Fields),
  metadata: Opt(Fields),
};
const Name = Type.String({ minLength: 1, maxLength: 512 });
const Provider = Type.String({ minLength: 1, maxLength: 128 });
export const PresetCreate = Type.Object({ name: Name, provider: Provider, ...PresetFields });
/** Lumiverse requires the revision the writer read (optimistic concurrency). */
export const PresetUpdate = Type.Object({ name: Opt(Name), provider: Opt(Provider), ...PresetFields, expected_cache_revision: Type.Integer({ minimum: 0 }) });

const Preset = Dto({ id: Type.String(), name: Type.String(), provider: Type.String(), cache_revision: Type.Number(), prompt_order: Type.Array(Any) });
const Block = Dto({ id: Type.String(), name: Type.String(), marker: Type.Union([Type.String(), Type.Null()]) });
const PresetId = Id(128);
const BlockId = Id(128);
const WRITE_ERRORS = ['NOT_FOUND', 'PRESET_REVISION_CONFLICT', 'INPUT_TOO_LARGE', 'UNSUPPORTED_HERE'];

export const PRESET_REQUESTS = {
  'presets.list': endpoint({ ...positional({ options: PageOptions }), result: Page(Preset), permission: 'presets' }),
  'presets.get': endpoint({ ...positional({ presetId: PresetId }), result: OrNull(Preset), permission: 'presets' }),
  'presets.create': endpoint({ ...positional({ input: PresetCreate }), result: Preset, errors: ['QUOTA_EXCEEDED', 'INPUT_TOO_LARGE', 'UNSUPPORTED_HERE'], permission: 'presets' }),
  'presets.update': endpoint({ ...positional({ presetId: PresetId, input: PresetUpdate }), result: Preset, errors: WRITE_ERRORS, permission: 'presets' }),
  'presets.delete': endpoint({ ...positional({ presetId: PresetId }), result: Type.Boolean(), errors: ['UNSUPPORTED_HERE'], permission: 'presets' }),
  'presets.blocks.list': endpoint({ ...positional({ presetId: PresetId }), result: Type.Array(Block), errors: ['NOT_FOUND'], permission: 'presets' }),
  'presets.blocks.get': endpoint({ ...positional({ presetId: PresetId, blockId: BlockId }), result: OrNull(Block), permission: 'presets' }),
  'presets.blocks.create': endpoint({ ...positional({ presetId: PresetId, input: BlockInput, options: Options({ index: Opt(Type.Number()) }) }), result: Block, errors: WRITE_ERRORS, permission: 'presets' }),
  'presets.blocks.update': endpoint({ ...positional({ presetId: PresetId, blockId: BlockId, input: BlockInput }), result: Block, errors: WRITE_ERRORS, permission: 'presets' }),
  'presets.blocks.delete': endpoint({ ...positional({ presetId: PresetId, blockId: BlockId }), result: Type.Boolean(), errors: WRITE_ERRORS, permission: 'presets' }),
  'presets.categories.list': endpoint({ ...positional({ presetId: PresetId }), result: Type.Array(Dto({ categoryBlock: OrNull(Block), children: Type.Array(Block) })), errors: ['NOT_FOUND'], permission: 'presets' }),
} as const;
