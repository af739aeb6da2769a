// Lumiverse's world-book entry fields beyond those the Workbench acts on (position, depth, groups, timing, vectors…):
// kept on the entry as an extension wrote them (in its `lumiverse` record, never exported: SillyTavern names them
// otherwise) and handed back under their names, read from an imported entry's file where it had them, else Lumiverse's
// defaults (WorldForge, the web scraper and LoreBary's importer set them). Values are taken as Lumiverse takes them:
// booleans by truth, numbers as numbers, a null or an empty text as none. And `selective` with `selective_logic`, in
// Lumiverse's numbering, which the Workbench's scan acts on.
import { Type } from '@sinclair/typebox';

type Kind = 'int' | 'bool' | 'text' | 'textOrNull' | 'role' | 'position';
interface Field {
  kind: Kind;
  default: number | boolean | string | null;
  /** Its name in a SillyTavern world-info file (a card's book keeps it under extensions), when it has one. */
  st?: string;
}

export const KEPT_ENTRY_FIELDS: Readonly<Record<string, Field>> = {
  position: { kind: 'position', default: 0, st: 'position' },
  depth: { kind: 'int', default: 4, st: 'depth' },
  role: { kind: 'role', default: null, st: 'role' },
  group_name: { kind: 'text', default: '', st: 'group' },
  group_override: { kind: 'bool', default: false, st: 'groupOverride' },
  group_weight: { kind: 'int', default: 100, st: 'groupWeight' },
  probability: { kind: 'int', default: 100, st: 'probability' },
  use_probability: { kind: 'bool', default: true, st: 'useProbability' },
  priority: { kind: 'int', default: 10 },
  sticky: { kind: 'int', default: 0, st: 'sticky' },
  cooldown: { kind: 'int', default: 0, st: 'cooldown' },
  delay: { kind: 'int', default: 0, st: 'delay' },
  use_regex: { kind: 'bool', default: false },
  prevent_recursion: { kind: 'bool', default: false, st: 'preventRecursion' },
  exclude_recursion: { kind: 'bool', default: false, st: 'excludeRecursion' },
  delay_until_recursion: { kind: 'bool', default: false, st: 'delayUntilRecursion' },
  exclude_greeting: { kind: 'bool', default: false },
  automation_id: { kind: 'textOrNull', default: null, st: 'automationId' },
  vectorized: { kind: 'bool', default: false, st: 'vectorized' },
};
export const KEPT_ENTRY_FIELD_NAMES = Object.keys(KEPT_ENTRY_FIELDS);

const ROLES = ['system', 'user', 'assistant'] as const;
/** A card book's positions, as Lumiverse's import reads them. */
const CARD_POSITIONS: Record<string, number> = { before_char: 0, after_char: 1 };
const MAX_INT = 1_000_000;
const MAX_TEXT = 200;

/** A value as Lumiverse would keep it for the field (its default when it is none or not of the field's kind). */
export function keptValue(name: string, value: unknown): unknown {
  const field = KEPT_ENTRY_FIELDS[name]!;
  if (value === undefined || value === null) return field.default;
  switch (field.kind) {
    case 'bool':
      return Boolean(value);
    case 'int':
    case 'position': {
      const n = typeof value === 'string' && field.kind === 'position' && value in CARD_POSITIONS ? CARD_POSITIONS[value]! : Number(value);
      return Number.isFinite(n) ? Math.max(-MAX_INT, Math.min(MAX_INT, Math.trunc(n))) : field.default;
    }
    case 'role':
      if (typeof value === 'number') return ROLES[value] ?? null;
      return (ROLES as readonly unknown[]).includes(value) ? value : null;
    case 'text':
      return String(value).slice(0, MAX_TEXT);
    case 'textOrNull':
      return value === '' ? null : String(value).slice(0, MAX_TEXT);
  }
}

/** The input schema's part for them (any plain value: each is taken as Lumiverse takes it), and for `selective`. */
export const EntryFieldInputs = {
  ...Object.fromEntries(KEPT_ENTRY_FIELD_NAMES.map((name) => [name, Type.Optional(Type.Union([Type.Number(), Type.String({ maxLength: MAX_TEXT }), Type.Boolean(), Type.Null()]))])),
  selective: Type.Optional(Type.Boolean()),
  selective_logic: Type.Optional(Type.Integer({ minimum: 0, maximum: 3 })),
};

/** Lumiverse's selective_logic numbers (world-info-matcher: 0 all, 1 none, 2 any, 3 not all), as the Workbench names them. */
export const SELECTIVE_LOGIC = ['and_all', 'not_any', 'and_any', 'not_all'] as const;
export type SelectiveLogic = (typeof SELECTIVE_LOGIC)[number];
