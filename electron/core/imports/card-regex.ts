// Regex scripts a character card carries, made rules of the session the card becomes (a session is its own character
// here), as Lumiverse imports them: its own bundle (`extensions.lumiverse_modules.regex_scripts`, already in its
// shape) or else SillyTavern's `extensions.regex_scripts`, converted (a `/pattern/flags` literal, numbered
// placements, markdownOnly/promptOnly as targets, -1 depths as none). A script that cannot be a rule is left out and
// said so: the card keeps it as written (its data is kept whole and exported again).
import { regexScriptsOf, type ImportedRegexScripts } from '../regex/regex-import';
import { isRecord } from '../lore/world-info-shapes';

export { MAX_CARD_SCRIPTS } from '../regex/regex-import';
export type CardRegexScripts = ImportedRegexScripts;

/** The card's scripts as rules of the session `sessionId` will name, each checked as an extension's would be. */
export function cardRegexScripts(extensions: unknown): CardRegexScripts {
  if (!isRecord(extensions)) return { scripts: [], skipped: [] };
  const bundle = isRecord(extensions.lumiverse_modules) ? extensions.lumiverse_modules.regex_scripts : undefined;
  const lumiverse = Array.isArray(bundle);
  return regexScriptsOf(lumiverse ? bundle : Array.isArray(extensions.regex_scripts) ? extensions.regex_scripts : [], { scope: 'character', source: 'card', lumiverse });
}
