// Lumiverse's world-book entry fields beyond those the Workbench acts on (position, depth, groups, timing, vectors…):
// kept on the entry as an extension wrote them and handed back under their names, so a write reads back as written
// (WorldForge, the web scraper and LoreBary's importer set them), with Lumiverse's defaults where none was written.
// And `selective` with `selective_logic`, in Lumiverse's numbering, which the Workbench's scan acts on.
import { Type, type TOptional } from '@sinclair/typebox';

const Opt = Type.Optional;
const Int = Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 });

/** The kept fields: their schema (as a request's input checks them) and Lumiverse's value for an entry that never set one. */
export const KEPT_ENTRY_FIELDS = {
  position: { schema: Int, default: 0 },
  depth: { schema: Int, default: 4 },
  role: { schema: Type.Union([Type.String({ maxLength: 32 }), Type.Null()]), default: null },
  group_name: { schema: Type.String({ maxLength: 200 }), default: '' },
  group_override: { schema: Type.Boolean(), default: false },
  group_weight: { schema: Int, default: 100 },
  probability: { schema: Int, default: 100 },
  use_probability: { schema: Type.Boolean(), default: true },
  priority: { schema: Int, default: 10 },
  sticky: { schema: Int, default: 0 },
  cooldown: { schema: Int, default: 0 },
  delay: { schema: Int, default: 0 },
  use_regex: { schema: Type.Boolean(), default: false },
  prevent_recursion: { schema: Type.Boolean(), default: false },
  exclude_recursion: { schema: Type.Boolean(), default: false },
  delay_until_recursion: { schema: Type.Boolean(), default: false },
  automation_id: { schema: Type.Union([Type.String({ maxLength: 200 }), Type.Null()]), default: null },
  vectorized: { schema: Type.Boolean(), default: false },
} as const;

export type KeptEntryField = keyof typeof KEPT_ENTRY_FIELDS;
export const KEPT_ENTRY_FIELD_NAMES = Object.keys(KEPT_ENTRY_FIELDS) as KeptEntryField[];

/** The input schema's part for them, and for `selective`/`selective_logic`. */
export const EntryFieldInputs = {
  ...(Object.fromEntries(KEPT_ENTRY_FIELD_NAMES.map((name) => [name, Opt(KEPT_ENTRY_FIELDS[name].schema)])) as unknown as { [K in KeptEntryField]: TOptional<(typeof KEPT_ENTRY_FIELDS)[K]['schema']> }),
  selective: Opt(Type.Boolean()),
  selective_logic: Opt(Type.Integer({ minimum: 0, maximum: 3 })),
};

/** Lumiverse's selective_logic numbers (world-info-matcher: 0 all, 1 none, 2 any, 3 not all), as the Workbench names them. */
export const SELECTIVE_LOGIC = ['and_all', 'not_any', 'and_any', 'not_all'] as const;
export type SelectiveLogic = (typeof SELECTIVE_LOGIC)[number];
