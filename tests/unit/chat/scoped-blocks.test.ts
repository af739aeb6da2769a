// Lumiverse's conditional blocks as presets write them: decided left to right (a {{setvar}} before a block counts),
// outer blocks first (a branch not taken runs nothing), with Lumiverse's condition test — `!`, `.name`/`$name`,
// comparisons, its falsy words — and an {{if}} with no closing tag answering "true" or nothing.
import { describe, expect, it } from 'vitest';
import { builtinMacros, sessionVariables } from '../../../electron/core/chat/pipeline/builtin-macros';
import { MacroResolver, MACRO_LIMITS } from '../../../electron/core/chat/pipeline/macros';
import { conditionHolds } from '../../../electron/core/chat/pipeline/scoped-blocks';
import { sessionDocument } from '../../helpers/session-document';

function resolver(limits = MACRO_LIMITS) {
  const session = sessionDocument({ metadata: { macro_variables: { global: { era: 'bronze' } } } });
  const variables = sessionVariables(session);
  return { variables, macros: new MacroResolver(builtinMacros({ session, history: [], variables }), limits, undefined, undefined, variables) };
}

describe('conditional blocks', () => {
  it('take the branch whose condition holds, with {{else}} and {{elseif}}', async () => {
    const { macros } = resolver();
    const grade = (n: number) => `{{setvar::x::${n}}}{{if .x == 5}}five{{elseif .x > 5}}more{{else}}less{{/if}}`;
    expect(await macros.resolve(grade(5))).toBe('five');
    expect(await macros.resolve(grade(7))).toBe('more');
    expect(await macros.resolve(grade(2))).toBe('less');
    expect(await macros.resolve('{{#if $era}}Age of {{getgvar::era}}{{/if}}.')).toBe('Age of bronze.');
    expect(await macros.resolve('{{if::{{eq::a::b}}}}same{{else}}different{{/if}}')).toBe('different');
  });

  it("read Lumiverse's variable shorthand in text as in conditions: {{.name}} the turn's, {{$name}} global", async () => {
    const { macros } = resolver();
    expect(await macros.resolve('{{setvar::Mood::calm}}{{.Mood}} in the {{$era}} age{{.unset}}.')).toBe('calm in the bronze age.');
  });

  it('count what the text before them set, and run nothing in a branch not taken', async () => {
    const { macros, variables } = resolver();
    expect(await macros.resolve('{{setvar::seen::yes}}{{if::{{getvar::seen}}}}seen{{else}}unseen{{/if}}')).toBe('seen');
    expect(await macros.resolve('{{if::off}}{{if::{{incvar::n}}}}x{{/if}}{{/if}}[{{getvar::n}}]')).toBe('[]');
    expect(variables.local.has('n')).toBe(false);
    // Nested: the outer decides first, then the inner in the branch it took.
    expect(await macros.resolve('{{if::1}}a{{unless::!{{eq::1::1}}}}b{{else}}c{{/unless}}{{/if}}')).toBe('ab');
  });

  it('answer "true" or nothing with no closing tag, and are decided inside a call\'s arguments too', async () => {
    const { macros } = resolver();
    expect(await macros.resolve('{{if::yes}} and {{unless::yes}}.')).toBe('true and .');
    expect(await macros.resolve('{{setvar::x::{{if::{{eq::1::1}}}}one{{else}}two{{/if}}}}[{{getvar::x}}]')).toBe('[one]');
  });

  it('stop at the size cap, the rest as written', async () => {
    const { macros } = resolver({ ...MACRO_LIMITS, maxChars: 50 });
    const out = await macros.resolve(`{{setvar::x::${'y'.repeat(40)}}}{{if::1}}{{getvar::x}}{{getvar::x}}{{/if}} tail`);
    // The block would write 80 characters: it stays as written, and so does what follows it.
    expect(out).toBe('{{if::1}}{{getvar::x}}{{getvar::x}}{{/if}} tail');
    expect(macros.notes.map((n) => n.text)).toEqual(['Macro expansion stopped: the text would grow past 50 characters.']);
  });

  it("test conditions as Lumiverse does", () => {
    const vars = { local: new Map([['mood', 'calm']]), global: new Map<string, string>() };
    expect(['', '0', 'false', 'NULL', 'undefined', 'no', 'Off', '{{unknown}}'].map((c) => conditionHolds(c, vars))).toEqual(Array(8).fill(false));
    expect(['yes', '1', 'anything', '.mood', '!0', '10 > 9', 'b > a', '3 >= 3', '2 != 2.0'].map((c) => conditionHolds(c, vars))).toEqual([true, true, true, true, true, true, true, true, false]);
    expect(conditionHolds('.mood == calm', vars)).toBe(true);
    expect(conditionHolds('!.mood', vars)).toBe(false);
  });
});
