// A card's regex scripts as Lumiverse imports them: SillyTavern's shape converted (a /pattern/flags literal, numbered
// placements, markdownOnly/promptOnly as targets, -1 depths as none, substituteRegex as macro modes), Lumiverse's own
// bundle taken as it is and before SillyTavern's, and each script that cannot be a rule left out with why.
import { describe, expect, it } from 'vitest';
import { cardRegexScripts, MAX_CARD_SCRIPTS } from '../../../electron/core/imports/card-regex';

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
    const bundle = [{ id: 'x', owner: 'ext', name: 'Skin', find_regex: '^(.*)$', replace_string: '<div>$1</div>', flags: 'gs', target: ['display'], scope: 'global', scope_id: null, script_id: 'skin', placement: ['ai_output', 7], min_depth: 'deep', actions: [{ label: 'Go' }] }];
    const { scripts, skipped } = cardRegexScripts({ regex_scripts: ST_SCRIPTS, lumiverse_modules: { regex_scripts: bundle } });
    expect(skipped).toEqual([]);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatchObject({ name: 'Skin', find_regex: '^(.*)$', flags: 'gs', target: ['display'], placement: ['ai_output'], scope: 'character', min_depth: null, actions: [{ label: 'Go' }] });
    expect(scripts[0]).not.toHaveProperty('owner');
    expect(scripts[0]).not.toHaveProperty('script_id');
  });

  it(`brings at most ${MAX_CARD_SCRIPTS} scripts from a card; no extensions or no scripts bring none`, () => {
    const many = Array.from({ length: MAX_CARD_SCRIPTS + 2 }, (_, i) => ({ scriptName: `R${i}`, findRegex: `/r${i}/g` }));
    const { scripts, skipped } = cardRegexScripts({ regex_scripts: many });
    expect(scripts).toHaveLength(MAX_CARD_SCRIPTS);
    expect(skipped).toEqual([`Script ${MAX_CARD_SCRIPTS + 1} (R${MAX_CARD_SCRIPTS}): a card brings at most ${MAX_CARD_SCRIPTS} scripts.`, `Script ${MAX_CARD_SCRIPTS + 2} (R${MAX_CARD_SCRIPTS + 1}): a card brings at most ${MAX_CARD_SCRIPTS} scripts.`]);
    for (const extensions of [undefined, null, 'x', [], {}, { regex_scripts: 'x' }, { lumiverse_modules: 'x' }]) expect(cardRegexScripts(extensions)).toEqual({ scripts: [], skipped: [] });
  });
});
