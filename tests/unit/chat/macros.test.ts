// The macro resolver on its own: built-ins, nesting, unknown macros, self-expansion, failing handlers, memoised calls.
import { describe, expect, it } from 'vitest';
import { MacroResolver, type MacroDefinition } from '../../../electron/core/chat/pipeline/macros';

const fixed = (name: string, value: string, owner = 'built-in'): MacroDefinition => ({ name, owner, description: '', value, resolve: () => value });

describe('MacroResolver', () => {
  it("resolves names in any case, a call's arguments before the call; unknown macros stay as written", async () => {
    const upper: MacroDefinition = { name: 'upper', owner: 'ext', description: '', resolve: ([text]) => (text ?? '').toUpperCase() };
    const r = new MacroResolver([fixed('char', 'Mira'), upper]);
    expect(await r.resolve('Hi {{CHAR}} / {{upper::{{char}}}} / {{nope}} / {{ char }}')).toBe('Hi Mira / MIRA / {{nope}} / Mira');
    expect([...r.used].sort()).toEqual(['char', 'upper']);
  });

  it('an extension cannot replace a built-in of the same name', async () => {
    const r = new MacroResolver([fixed('char', 'Mira'), fixed('char', 'Impostor', 'ext')]);
    expect(await r.resolve('{{char}}')).toBe('Mira');
  });

  it('a macro that expands to itself stops after the rounds for values expanding again, with a note naming it', async () => {
    const r = new MacroResolver([fixed('loop', '{{loop}}x')], { maxPasses: 4, maxExpansions: 100, maxChars: 1000 });
    // The call as written, then its value expanded again four times; the fifth value stays as it came.
    expect(await r.resolve('{{loop}}')).toBe('{{loop}}xxxxx');
    expect(r.notes.map((n) => n.text).join()).toMatch(/still expanding after 4 rounds \(\{\{loop\}\}: /);
  });

  it('macros nested deeper than the pass limit all expand: nesting as written is not a value expanding again', async () => {
    const r = new MacroResolver([{ name: 'wrap', owner: 'built-in', description: '', resolve: ([v]) => `(${v ?? ''})` }], { maxPasses: 2, maxExpansions: 100, maxChars: 1000 });
    const nested = Array.from({ length: 6 }).reduce<string>((inner) => `{{wrap::${inner}}}`, 'x');
    expect(await r.resolve(nested)).toBe('((((((x))))))');
    expect(r.notes).toEqual([]);
  });

  it('a value that doubles itself stops at the size cap', async () => {
    const r = new MacroResolver([fixed('twice', '{{twice}}{{twice}}')], { maxPasses: 100, maxExpansions: 1_000_000, maxChars: 10_000 });
    const out = await r.resolve('{{twice}}');
    expect(out.length).toBeLessThanOrEqual(10_000);
    expect(r.notes.map((n) => n.text).join()).toMatch(/grow past 10000 characters|replacements/);
  });

  it('a failing handler leaves the macro as written, with a note naming its owner', async () => {
    const broken: MacroDefinition = { name: 'weather', owner: 'Weather Ext', description: '', resolve: () => Promise.reject(new Error('TOOL_TIMEOUT: slow')) };
    const r = new MacroResolver([broken]);
    expect(await r.resolve('Sky: {{weather}}')).toBe('Sky: {{weather}}');
    expect(r.notes).toEqual([{ owner: 'Weather Ext', text: '{{weather}} (Weather Ext) failed: TOOL_TIMEOUT: slow; left as written.' }]);
  });

  it('runs a handler once per distinct call in a turn, however often the text uses it', async () => {
    let calls = 0;
    const counted: MacroDefinition = { name: 'n', owner: 'ext', description: '', resolve: () => String(++calls) };
    const r = new MacroResolver([counted]);
    expect(await r.resolve('{{n}} {{n}}')).toBe('1 1');
    expect(await r.resolve('{{n}}')).toBe('1');
    expect(calls).toBe(1);
  });

  it('stops at the expansion limit: the calls past it stay as written and their handlers never run', async () => {
    let calls = 0;
    const counted: MacroDefinition = { name: 'n', owner: 'ext', description: '', resolve: (args) => `${++calls}${args.join('')}` };
    const r = new MacroResolver([counted], { maxPasses: 8, maxExpansions: 3, maxChars: 1000 });
    expect(await r.resolve('{{n::a}} {{n::b}} {{n::c}} {{n::d}}')).toBe('1a 2b 3c {{n::d}}');
    expect(calls).toBe(3);
    expect(r.notes.map((n) => n.text)).toEqual(['Macro expansion stopped after 3 replacements; the rest stays as written.']);
  });

  it('resolves texts that keep state in the order they were asked for, however long a call in the first takes', async () => {
    const vars = new Map<string, string>();
    let release: (value: string) => void = () => undefined;
    const gate = new Promise<string>((resolve) => (release = resolve));
    const defs: MacroDefinition[] = [
      { name: 'slow', owner: 'ext', description: '', resolve: () => gate },
      { name: 'setvar', owner: 'built-in', description: '', volatile: true, resolve: ([k = '', v = '']) => (vars.set(k, v), '') },
      { name: 'getvar', owner: 'built-in', description: '', volatile: true, resolve: ([k = '']) => vars.get(k) ?? '' },
    ];
    const r = new MacroResolver(defs);
    const both = Promise.all([r.resolve('A{{setvar::mode::{{slow}}}}'), r.resolve('B:{{getvar::mode}}'), r.resolve('plain')]);
    // The plain text does not wait on the others; the read waits on the set before it.
    expect(await Promise.race([r.resolve('also plain'), gate.then(() => 'late')])).toBe('also plain');
    release('dark');
    expect(await both).toEqual(['A', 'B:dark', 'plain']);
  });

  it("runs side effects in reading order: a call's arguments first, then the calls after it", async () => {
    const vars = new Map<string, string>();
    let rolled = 0;
    const defs: MacroDefinition[] = [
      { name: 'roll', owner: 'built-in', description: '', volatile: true, resolve: () => String(++rolled * 7) },
      { name: 'setvar', owner: 'built-in', description: '', volatile: true, resolve: ([k = '', v = '']) => (vars.set(k, v), '') },
      { name: 'getvar', owner: 'built-in', description: '', volatile: true, resolve: ([k = '']) => vars.get(k) ?? '' },
    ];
    const r = new MacroResolver(defs);
    // Lumiverse's own example (its presets' execution-order page): the nested roll is set before the read after it.
    expect(await r.resolve('{{setvar::r::{{roll}}}}You rolled {{getvar::r}}; again {{roll}}.')).toBe('You rolled 7; again 14.');
  });
});
