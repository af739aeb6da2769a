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
  return { variables, macros: new MacroResolver(builtinMacros({ session, history: [], variables }), limits, undefined, { variables }) };
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

describe('hostile text', () => {
  it('reads an opening pair that never closes as text, and drops block tags that stand alone', async () => {
    const { macros } = resolver();
    expect(await macros.resolve('Press {{ to open. Chat {{chatId}}.')).toBe('Press {{ to open. Chat s1.');
    expect(await macros.resolve('a{{else}}b{{/if}}c{{elseif::1}}d')).toBe('abcd');
  });

  it('ends, with a note, on thousands of unclosed blocks, calls nested 20,000 deep and loops inside loops', async () => {
    const unclosed = resolver();
    const out = await unclosed.macros.resolve('{{if::1}}'.repeat(20_000));
    expect(out.length).toBeGreaterThan(0);
    expect(unclosed.macros.notes.map((n) => n.text).join()).toMatch(/too costly to read|replacements/);

    const deep = resolver();
    const nested = `${'{{char::'.repeat(20_000)}x${'}}'.repeat(20_000)}`;
    expect(await deep.macros.resolve(nested)).toContain('{{char::');
    expect(deep.macros.notes.map((n) => n.text).join()).toMatch(/nested more than 64 deep|too costly/);

    const session = sessionDocument({ messages: Array.from({ length: 50 }, (_, i) => ({ id: `m${i}`, role: 'user' as const, content: `line ${i}`, createdAt: i })) });
    const variables = sessionVariables(session);
    const messages = () => session.messages.map((m) => ({ content: m.content, name: 'Ada', isUser: true }));
    const loops = new MacroResolver(builtinMacros({ session, history: session.messages, variables }), { ...MACRO_LIMITS, maxExpansions: 500 }, undefined, { variables, messages });
    const looped = await loops.resolve('{{foreachMessage::a}}{{foreachMessage::b}}{{foreachMessage::c}}x{{/foreachMessage}}{{/foreachMessage}}{{/foreachMessage}}');
    expect(looped.length).toBeLessThan(500);
    expect(loops.notes.map((n) => n.text)).toEqual(['Macro expansion stopped after 500 replacements; the rest stays as written.']);
  });

  it('loops over the last messages with their bindings, restoring the names after', async () => {
    const session = sessionDocument({ messages: ['Hi Helena', 'Fine', 'Bye'].map((content, i) => ({ id: `m${i}`, role: i % 2 ? ('assistant' as const) : ('user' as const), content, createdAt: i })) });
    const variables = sessionVariables(session);
    variables.local.set('m', 'kept');
    const messages = () => session.messages.map((m) => ({ content: m.content, name: m.role === 'user' ? 'Ada' : 'Mara', isUser: m.role === 'user' }));
    const r = new MacroResolver(builtinMacros({ session, history: session.messages, variables, patterns: async (p, f, t) => new RegExp(p, f).test(t) }), MACRO_LIMITS, undefined, { variables, messages });
    expect(await r.resolve('{{foreachMessage::2::m}}[{{.m_number}}/{{.m_count}} {{.m_name}}: {{.m}}]{{/foreachMessage}} {{.m}}')).toBe('[1/2 Mara: Fine][2/2 Ada: Bye] kept');
    expect(await r.resolve('{{setvar::seen::no}}{{foreachMessage::m}}{{if::{{matches::{{.m}}::helena::i}}}}{{setvar::seen::yes}}{{/if}}{{/foreachMessage}}{{getvar::seen}}')).toBe('yes');
  });
});
