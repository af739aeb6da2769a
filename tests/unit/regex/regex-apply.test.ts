// Regex scripts applied as Lumiverse applies them, on the real pattern thread: placements and depths, flags, trim
// strings, the four macro modes, and a stranger's pattern that backtracks without end stopped by its time limit while
// the other scripts still run.
import { afterEach, describe, expect, it } from 'vitest';
import { applyRegexScripts, type RegexText } from '../../../electron/core/regex/regex-apply';
import { newScript } from '../../../electron/core/regex/regex-script';
import { RegexSandbox } from '../../../electron/core/regex/regex-sandbox';
import type { RegexScriptInput } from '../../../shared/types/regex-script';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { RegexScripts } from '../../../electron/core/regex/regex-scripts';
import { PERSON } from '../../../electron/core/regex/regex-store';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

let sandbox: RegexSandbox;
afterEach(async () => {
  await sandbox?.close();
});

let n = 0;
const script = (input: RegexScriptInput) => newScript({ name: `s${++n}`, ...input }, `id${n}`, 'ext', 0);
/** A stand-in for the turn's macros: {{char}} and {{upper::x}}, counting each call. */
function macros() {
  const calls: string[] = [];
  const resolve = async (text: string) => {
    calls.push(text);
    return text.replace(/\{\{char\}\}/g, 'Mira').replace(/\{\{upper::([^}]*)\}\}/g, (_, x: string) => x.toUpperCase());
  };
  return { calls, resolve };
}

describe('applying regex scripts', () => {
  it('applies each script to the texts of its placements within its depths, in order, then its trim strings', async () => {
    sandbox = new RegexSandbox();
    const items: RegexText[] = [
      { text: 'You: (OOC: hi) hello', placement: 'user_input', depth: 2 },
      { text: 'Me: (OOC: ok) hey <|eot|>', placement: 'ai_output', depth: 1 },
      { text: 'Me: (OOC: new) now', placement: 'ai_output', depth: 0 },
      { text: 'Lore (OOC: keep)', placement: 'world_info' },
    ];
    const run = await applyRegexScripts(sandbox, [
      script({ find_regex: '\\(OOC:[^)]*\\)\\s?', flags: 'g', placement: ['user_input', 'ai_output'], min_depth: 1 }),
      script({ find_regex: 'me:', flags: 'i', replace_string: 'Mira:', placement: ['ai_output'], max_depth: 0 }),
      script({ find_regex: 'hey', replace_string: 'hey there', trim_strings: ['<|eot|>', ''] }),
      script({ find_regex: 'never', replace_string: 'x', placement: ['reasoning'] }),
    ], items);
    expect(run.texts).toEqual(['You: hello', 'Me: hey there ', 'Mira: (OOC: new) now', 'Lore (OOC: keep)']);
    expect(run.changed.map((c) => [c.script.name, c.texts])).toEqual([[expect.any(String), 2], [expect.any(String), 1], [expect.any(String), 1]]);
    expect(run.failed).toEqual([]);
  });

  it('uses captures and macros as each substitute_macros mode says', async () => {
    sandbox = new RegexSandbox();
    const text = [{ text: 'sword and shield', placement: 'ai_output' as const }];
    const mode = async (input: RegexScriptInput) => {
      const m = macros();
      const run = await applyRegexScripts(sandbox, [script({ placement: ['ai_output'], flags: 'g', ...input })], text, { macros: m.resolve });
      return { text: run.texts[0], calls: m.calls.length };
    };
    // none: captures work, macros stay as written.
    expect(await mode({ find_regex: '(\\w+) and (\\w+)', replace_string: '$2 {{char}} $1', substitute_macros: 'none' })).toEqual({ text: 'shield {{char}} sword', calls: 0 });
    // escaped: macros once (the pattern, then the replacement), `$` literal.
    expect(await mode({ find_regex: 'sword', replace_string: '{{char}} $1 $$', substitute_macros: 'escaped' })).toEqual({ text: 'Mira $1 $$ and shield', calls: 2 });
    // raw: captures first, then macros per match (a macro reads a capture): the pattern and two matches.
    expect(await mode({ find_regex: '(\\w+)(?= and| *$)', replace_string: '{{upper::$1}}', substitute_macros: 'raw' })).toEqual({ text: 'SWORD and SHIELD', calls: 3 });
    // after: captures, then one macro pass over the whole text (and one over the pattern).
    expect(await mode({ find_regex: '(sword)', replace_string: '{{upper::$1}}', substitute_macros: 'after' })).toEqual({ text: 'SWORD and shield', calls: 2 });
    // A find pattern's macros resolve too.
    expect(await mode({ find_regex: '{{char}}|shield', replace_string: 'buckler', substitute_macros: 'after' })).toMatchObject({ text: 'sword and buckler' });
  });

  it('G1: stops a pattern that backtracks without end at its time limit; the other scripts still run and the thread answers again', async () => {
    sandbox = new RegexSandbox(50);
    const items: RegexText[] = [{ text: `${'a'.repeat(40)}!`, placement: 'ai_output' }];
    const run = await applyRegexScripts(sandbox, [script({ find_regex: '(a+)+$', replace_string: 'x' }), script({ find_regex: '!', replace_string: '?' })], items);
    expect(run.texts).toEqual([`${'a'.repeat(40)}?`]);
    expect(run.failed).toHaveLength(1);
    expect(run.failed[0]!.reason).toMatch(/ran past its time/);
    expect(await sandbox.replace('a', 'g', 'b', ['aa'])).toEqual(['bb']);
  });

  it('passes over a pattern its macros make invalid, and stops at a cancelled signal', async () => {
    sandbox = new RegexSandbox();
    const broken = script({ find_regex: '{{open}}x', substitute_macros: 'after' });
    const run = await applyRegexScripts(sandbox, [broken, script({ find_regex: 'x', replace_string: 'y' })], [{ text: 'x', placement: 'ai_output' }], { macros: async (t) => t.replace('{{open}}', '(') });
    expect(run.texts).toEqual(['y']);
    expect(run.failed[0]).toMatchObject({ script: broken, reason: expect.stringMatching(/Invalid regular expression/) });
    const stop = new AbortController();
    stop.abort();
    await expect(applyRegexScripts(sandbox, [script({ find_regex: 'x' })], [{ text: 'x', placement: 'ai_output' }], { signal: stop.signal })).rejects.toThrow();
  });

  it('refuses passes once closed', async () => {
    sandbox = new RegexSandbox();
    await sandbox.close();
    await expect(sandbox.replace('a', '', 'b', ['a'])).rejects.toMatchObject({ failure: { kind: 'stopped' } });
  });
});

describe('a rule whose time ran out', () => {
  it('G1: is passed over in later passes, said so, until its pattern is changed', async () => {
    const clock = { now: () => 1_750_000_000_000 };
    const sessions = new SessionStore({ dataDir: tempDir(), clock });
    const regex = new RegexScripts(sessions.db, clock, undefined, 50);
    try {
      const hostile = regex.store.create({ name: 'Backtracks', find_regex: '(a+)+$', replace_string: 'x', target: 'display' }, PERSON);
      regex.store.create({ name: 'Bang', find_regex: '!', replace_string: '?', target: 'display' }, PERSON);
      const items = [{ text: `${'a'.repeat(40)}!`, placement: 'ai_output' as const }];
      const first = (await regex.apply('display', 'c1', items))!;
      expect(first.failed).toEqual([expect.objectContaining({ timedOut: true })]);
      expect(regex.isSlow(regex.store.get(hostile.id)!)).toBe(true);
      const again = (await regex.apply('display', 'c1', items))!;
      expect(again.texts).toEqual([`${'a'.repeat(40)}?`]);
      expect(again.failed).toEqual([{ script: expect.objectContaining({ id: hostile.id }), reason: expect.stringMatching(/before; it runs again once its pattern is changed/) }]);
      // Switched off and on, it is still the same pattern; a new pattern runs again.
      regex.store.update(hostile.id, { disabled: true }, PERSON);
      expect(regex.isSlow(regex.store.update(hostile.id, { disabled: false }, PERSON))).toBe(true);
      regex.store.update(hostile.id, { find_regex: 'a+!' }, PERSON);
      expect((await regex.apply('display', 'c1', items))!.texts).toEqual(['x']);
    } finally {
      await regex.close();
      await sessions.close();
      cleanupTempDirs();
    }
  });
});
