// A card's regex scripts as Lumiverse imports them: SillyTavern's shape converted (a /pattern/flags literal, numbered
// placements, markdownOnly/promptOnly as targets, -1 depths as none, substituteRegex as macro modes), Lumiverse's own
// bundle taken as it is and before SillyTavern's, and each script that cannot be a rule left out with why.
import { afterEach, describe, expect, it } from 'vitest';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { cardRegexScripts, MAX_CARD_SCRIPTS } from '../../../electron/core/imports/card-regex';
import { importSessionFile } from '../../../electron/core/imports/session-import';
import { PERSON, RegexStore } from '../../../electron/core/regex/regex-store';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

const ST_SCRIPTS = [
  { id: 'a1', scriptName: 'Hide OOC', findRegex: '/\\[OOC:.*?\\]/gis', replaceString: '', trimStrings: ['  '], placement: [1, 2], disabled: false, markdownOnly: true, promptOnly: false, runOnEdit: true, substituteRegex: 0, minDepth: null, maxDepth: null },
  { scriptName: 'Names', findRegex: 'Bob', replaceString: '{{user}}', placement: [2, 5, 6], promptOnly: true, substituteRegex: 1, minDepth: -1, maxDepth: 3 },
  { scriptName: 'Slash only', findRegex: '/x/', placement: [3], disabled: true, substituteRegex: 2 },
  { scriptName: 'Broken', findRegex: '/(unclosed/g', placement: [2] },
  { scriptName: 'Too long', findRegex: `/${'a'.repeat(10_001)}/`, placement: [2] },
  'not a script',
];

describe('cardRegexScripts', () => {
  it("converts SillyTavern's scripts as Lumiverse does, as the character's own, in the card's order", () => {
    const { scripts, skipped } = cardRegexScripts({ regex_scripts: ST_SCRIPTS });
    expect(scripts.map((s) => [s.name, s.find_regex, s.flags, s.placement, s.target, s.min_depth, s.max_depth, s.substitute_macros, s.run_on_edit, s.disabled, s.sort_order])).toEqual([
      ['Hide OOC', '\\[OOC:.*?\\]', 'gis', ['user_input', 'ai_output'], ['display'], null, null, 'none', true, false, 0],
      ['Names', 'Bob', 'gi', ['ai_output', 'world_info', 'reasoning'], ['prompt'], null, 3, 'raw', false, false, 1],
      ['Slash only', 'x', 'gi', ['ai_output'], ['response'], null, null, 'escaped', false, true, 2],
    ]);
    expect(scripts.every((s) => s.scope === 'character' && s.metadata?.source === 'card' && s.script_id === undefined)).toBe(true);
    expect(scripts[0]!.trim_strings).toEqual(['  ']);
    expect(skipped).toEqual([expect.stringMatching(/^Script 4 \(Broken\): Invalid regex: /), 'Script 5 (Too long): find_regex exceeds maximum length', 'Script 6: not a script.']);
  });

  it("takes Lumiverse's own bundle as it is, before SillyTavern's, keeping nothing of another scope or owner", () => {
    const bundle = [{ id: 'x', owner: 'ext', name: 'Skin', find_regex: '^(.*)$', replace_string: '<div>$1</div>', flags: 'gs', target: ['display'], scope: 'global', scope_id: null, script_id: 'skin', placement: ['ai_output', 7], min_depth: 'deep' }];
    const { scripts, skipped } = cardRegexScripts({ regex_scripts: ST_SCRIPTS, lumiverse_modules: { regex_scripts: bundle } });
    expect(skipped).toEqual([]);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatchObject({ name: 'Skin', find_regex: '^(.*)$', flags: 'gs', target: ['display'], placement: ['ai_output'], scope: 'character', min_depth: null });
    expect(scripts[0]).not.toHaveProperty('owner');
    expect(scripts[0]).not.toHaveProperty('script_id');
  });

  it(`brings at most ${MAX_CARD_SCRIPTS} scripts from a card, saying so in one line for the rest; no extensions or no scripts bring none`, () => {
    const many = Array.from({ length: 1_000_000 }, (_, i) => (i % 2 ? 0 : { scriptName: `R${i}`, findRegex: `/r${i}/g` }));
    const { scripts, skipped } = cardRegexScripts({ regex_scripts: many });
    expect(scripts).toHaveLength(MAX_CARD_SCRIPTS / 2);
    expect(skipped).toHaveLength(MAX_CARD_SCRIPTS / 2 + 1);
    expect(skipped.at(-1)).toBe(`Scripts ${MAX_CARD_SCRIPTS + 1}–1000000: a card brings at most ${MAX_CARD_SCRIPTS} scripts.`);
    for (const extensions of [undefined, null, 'x', [], {}, { regex_scripts: 'x' }, { lumiverse_modules: 'x' }]) expect(cardRegexScripts(extensions)).toEqual({ scripts: [], skipped: [] });
  });

  it("keeps named placements and snake_case fields, takes an item without scriptName or findRegex in Lumiverse's shape, and drops actions", () => {
    const { scripts } = cardRegexScripts({
      regex_scripts: [
        { scriptName: 'Named', findRegex: 'x', placement: ['user_input', 'world_info', 'nowhere'], trim_strings: ['t'], run_on_edit: true, description: 'why' },
        { name: 'Native', find_regex: 'y', target: ['prompt'], substitute_macros: 'raw', trim_strings: ['u'], actions: [{ label: 'Go' }] },
      ],
    });
    expect(scripts.map((s) => [s.name, s.placement, s.trim_strings, s.run_on_edit ?? false, s.target, s.substitute_macros ?? 'none', s.description ?? ''])).toEqual([
      ['Named', ['user_input', 'world_info'], ['t'], true, ['response'], 'none', 'why'],
      ['Native', undefined, ['u'], false, ['prompt'], 'raw', ''],
    ]);
    expect(scripts[1]).not.toHaveProperty('actions');
  });

  it('an import whose rules fail to be written (the database, not a refusal) leaves nothing: no session, no rule', async () => {
    const sessions = new SessionStore({ dataDir: tempDir() });
    const store = new RegexStore(sessions.db, Date);
    let writes = 0;
    // The second write fails as a full disk would, after the first was written.
    const failing = { create: (input: Parameters<RegexStore['create']>[0]) => (++writes === 2 ? (() => { throw new Error('SQLITE_FULL: database or disk is full'); })() : store.create(input, PERSON)), forgetScope: (id: string) => store.forgetScope(id) };
    const card = { spec: 'chara_card_v2', data: { name: 'Mara', first_mes: 'Hi.', extensions: { regex_scripts: ST_SCRIPTS.slice(0, 2) } } };
    await expect(importSessionFile(sessions, Buffer.from(JSON.stringify(card)), { now: 1, regex: failing })).rejects.toThrow('SQLITE_FULL');
    expect(sessions.summaries()).toEqual([]);
    expect(store.list().data).toEqual([]);
    expect(writes).toBe(2);
  });
});
