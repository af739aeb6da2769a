// The two shapes a SillyTavern world-info entry comes in, and SillyTavern's own conversion between them:
// its world-info file (`key`, `keysecondary`, `disable`, `order`, settings at the top: `position`,
// `matchWholeWords`…) and a card's `character_book` (`keys`, `secondary_keys`, `enabled`,
// `insertion_order`, its settings under `extensions` in snake_case). A card SillyTavern exports carries
// the file's settings in `extensions`, and its importer (convertCharacterBook) reads them from there.
export type EntryShape = 'file' | 'card';

export type Raw = Record<string, unknown>;

export const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A file entry's setting → its name under a card entry's `extensions`. */
export const FILE_TO_CARD_EXTENSION: Readonly<Record<string, string>> = {
  position: 'position',
  excludeRecursion: 'exclude_recursion',
  preventRecursion: 'prevent_recursion',
  delayUntilRecursion: 'delay_until_recursion',
  displayIndex: 'display_index',
  probability: 'probability',
  useProbability: 'useProbability',
  depth: 'depth',
  selectiveLogic: 'selectiveLogic',
  outletName: 'outlet_name',
  group: 'group',
  groupOverride: 'group_override',
  groupWeight: 'group_weight',
  scanDepth: 'scan_depth',
  caseSensitive: 'case_sensitive',
  matchWholeWords: 'match_whole_words',
  useGroupScoring: 'use_group_scoring',
  automationId: 'automation_id',
  role: 'role',
  vectorized: 'vectorized',
  sticky: 'sticky',
  cooldown: 'cooldown',
  delay: 'delay',
  matchPersonaDescription: 'match_persona_description',
  matchCharacterDescription: 'match_character_description',
  matchCharacterPersonality: 'match_character_personality',
  matchCharacterDepthPrompt: 'match_character_depth_prompt',
  matchScenario: 'match_scenario',
  matchCreatorNotes: 'match_creator_notes',
  triggers: 'triggers',
  ignoreBudget: 'ignore_budget',
};

/** Fields both conversions write themselves (the rest of an entry travels as it is). */
const FILE_CORE = new Set(['uid', 'key', 'keysecondary', 'comment', 'content', 'constant', 'selective', 'order', 'disable', 'addMemo', 'extensions', ...Object.keys(FILE_TO_CARD_EXTENSION)]);
const CARD_CORE = new Set(['id', 'keys', 'secondary_keys', 'comment', 'content', 'constant', 'selective', 'insertion_order', 'enabled', 'position', 'use_regex', 'extensions']);

const rest = (raw: Raw, core: Set<string>): Raw => Object.fromEntries(Object.entries(raw).filter(([k]) => !core.has(k)));

/** A file entry as a card's book entry, as SillyTavern exports one (settings under `extensions`). */
function fileToCard(raw: Raw): Raw {
  const extensions: Raw = isRecord(raw.extensions) ? { ...raw.extensions } : {};
  for (const [fileKey, extKey] of Object.entries(FILE_TO_CARD_EXTENSION)) if (fileKey in raw) extensions[extKey] = raw[fileKey];
  const card: Raw = {
    ...rest(raw, FILE_CORE),
    id: raw.uid,
    keys: raw.key,
    secondary_keys: raw.keysecondary,
    comment: raw.comment,
    content: raw.content,
    constant: raw.constant,
    selective: raw.selective,
    insertion_order: raw.order,
    enabled: raw.disable !== true,
    position: raw.position === 0 ? 'before_char' : 'after_char',
    use_regex: true,
    extensions,
  };
  return Object.fromEntries(Object.entries(card).filter(([, v]) => v !== undefined));
}

/** A card's book entry as a file entry, as SillyTavern's convertCharacterBook reads one. */
function cardToFile(raw: Raw): Raw {
  const extensions = isRecord(raw.extensions) ? raw.extensions : {};
  const file: Raw = {
    ...rest(raw, CARD_CORE),
    uid: raw.id,
    key: raw.keys,
    keysecondary: raw.secondary_keys ?? [],
    comment: raw.comment ?? '',
    content: raw.content,
    constant: raw.constant === true,
    selective: raw.selective === true,
    order: raw.insertion_order,
    disable: raw.enabled === false,
    addMemo: typeof raw.comment === 'string' && raw.comment !== '',
  };
  for (const [fileKey, extKey] of Object.entries(FILE_TO_CARD_EXTENSION)) if (extKey in extensions) file[fileKey] = extensions[extKey];
  if (!('position' in file)) file.position = raw.position === 'before_char' ? 0 : 1;
  file.extensions = { ...extensions };
  return Object.fromEntries(Object.entries(file).filter(([, v]) => v !== undefined));
}

/** An entry in the other shape (a copy either way: the original is never changed). */
export function convertEntry(raw: Raw, from: EntryShape, to: EntryShape): Raw {
  if (from === to) return structuredClone(raw);
  return from === 'file' ? fileToCard(raw) : cardToFile(raw);
}

/** A setting of an entry, wherever its shape keeps it: a file's at the top, a card's under `extensions`. */
export function setting(raw: Raw, shape: EntryShape, fileKey: string): unknown {
  if (shape === 'file') return raw[fileKey];
  const extensions = isRecord(raw.extensions) ? raw.extensions : {};
  return extensions[FILE_TO_CARD_EXTENSION[fileKey] ?? fileKey];
}
