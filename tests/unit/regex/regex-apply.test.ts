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
import { regexMacros } from '../../../electron/core/chat/pipeline/regex-stage';
import { sessionDocument } from '../../helpers/session-document';
import { USER_OWNER, type RegexScript } from '../../../shared/types/regex-script';

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
      const run = await applyRegexScripts(sandbox, [script({ placement: ['ai_output'], flags: 'g', ...input })], text, { macros: () => m.resolve });
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
    // Without macros (an edit's run_on_edit pass, as Lumiverse without a macro env) a replacement is left as it is.
    const plain = await applyRegexScripts(sandbox, [script({ find_regex: '(sword)', replace_string: '[$1]', substitute_macros: 'escaped', placement: ['ai_output'] })], text);
    expect(plain.texts).toEqual(['[sword] and shield']);
    // A find pattern's macros resolve too.
    expect(await mode({ find_regex: '{{char}}|shield', replace_string: 'buckler', substitute_macros: 'after' })).toMatchObject({ text: 'sword and buckler' });
  });

  it('G1: stops a pattern that backtracks without end at its time limit; the other scripts still run and the thread answers again', async () => {
    sandbox = new RegexSandbox(50);
    const items: RegexText[] = [{ text: `${'a'.repeat(40)}!`, placement: 'ai_output' }];
    const run = await applyRegexScripts(sandbox, [script({ find_regex: '(a+)+$', replace_string: 'x' }), script({ find_regex: '!', replace_string: '?' })], items);
    expect(run.texts).toEqual([`${'a'.repeat(40)}?`]);
    expect(run.failed).toHaveLength(1);
    // V8's own interrupt stopped it (vm's timeout), not a restart of the thread.
    expect(run.failed[0]!.reason).toMatch(/ran past its time \(Script execution timed out after 50ms\)/);
    expect(await sandbox.replace('a', 'g', 'b', ['aa'])).toEqual(['bb']);
  });

  it('G6: fails a pass whose output, matches or trims would grow without bound, and starts each text of a sticky pattern at its beginning', async () => {
    // Time enough that a loaded machine does not end these passes by their time instead of their caps.
    sandbox = new RegexSandbox(2000);
    const long = [{ text: 'x'.repeat(10_000), placement: 'ai_output' as const }];
    const grown = await applyRegexScripts(sandbox, [script({ find_regex: '.', flags: 'g', replace_string: 'y'.repeat(1000) })], long);
    expect(grown.texts).toEqual([long[0]!.text]);
    expect(grown.failed[0]!.reason).toMatch(/output grew past 4000000 characters/);
    const everywhere = await applyRegexScripts(sandbox, [script({ find_regex: '(?:)', flags: 'g', substitute_macros: 'raw' })], [{ text: 'x'.repeat(30_000), placement: 'ai_output' }], { macros: () => async (t) => t });
    expect(everywhere.failed[0]!.reason).toMatch(/matched more than 20000 times/);
    const trims = await applyRegexScripts(sandbox, [script({ find_regex: 'zzz', trim_strings: ['ab'] })], [{ text: `${'a'.repeat(50_000)}${'b'.repeat(50_000)}`, placement: 'ai_output' }]);
    expect(trims.failed[0]).toMatchObject({ timedOut: true });
    const sticky = await applyRegexScripts(sandbox, [script({ find_regex: 'a', flags: 'y', replace_string: 'b' })], [{ text: 'aa', placement: 'ai_output' }, { text: 'ab', placement: 'ai_output' }]);
    expect(sticky.texts).toEqual(['ba', 'bb']);
  });

  it('passes over a pattern its macros make invalid, and stops at a cancelled signal', async () => {
    sandbox = new RegexSandbox();
    const broken = script({ find_regex: '{{open}}x', substitute_macros: 'after' });
    const run = await applyRegexScripts(sandbox, [broken, script({ find_regex: 'x', replace_string: 'y' })], [{ text: 'x', placement: 'ai_output' }], { macros: () => async (t) => t.replace('{{open}}', '(') });
    expect(run.texts).toEqual(['y']);
    expect(run.failed[0]).toMatchObject({ script: broken, reason: expect.stringMatching(/Invalid regular expression/) });
    const stop = new AbortController();
    stop.abort();
    await expect(applyRegexScripts(sandbox, [script({ find_regex: 'x' })], [{ text: 'x', placement: 'ai_output' }], { signal: stop.signal })).rejects.toThrow();
  });

  it('G6: fails a pass whose texts together grow past bound, each within its own; the pass queued behind it runs', async () => {
    sandbox = new RegexSandbox(10_000);
    const huge = sandbox.replace('^', 'g', 'y'.repeat(3_900_000), Array.from({ length: 200 }, () => 'x'));
    const next = sandbox.replace('a', 'g', 'b', ['aa']);
    await expect(huge).rejects.toMatchObject({ failure: { kind: 'invalid', message: 'its output grew past 16000000 characters in one pass' } });
    expect(await next).toEqual(['bb']);
  });

  it('refuses passes once closed', async () => {
    sandbox = new RegexSandbox();
    await sandbox.close();
    await expect(sandbox.replace('a', '', 'b', ['a'])).rejects.toMatchObject({ failure: { kind: 'stopped' } });
  });
});

describe('macros in regex scripts', () => {
  it('G7: hands chat text to an extension macro only for the person’s scripts or a chat reader’s, and only to a chat reader’s macro', async () => {
    sandbox = new RegexSandbox();
    const heard: Array<[string, unknown]> = [];
    const macro = (extensionId: string) => ({ extensionId, extensionName: extensionId, name: `${extensionId}_echo`, description: '', call: async (context: unknown) => {
      heard.push([extensionId, (context as { args: string[] }).args]);
      return { ok: true as const, value: 'seen' };
    } });
    const sources = { session: sessionDocument(), history: [], deliberation: '', councilTools: [], extensions: [macro('reader'), macro('stranger')], commit: false, signal: new AbortController().signal };
    const macros = regexMacros(() => sources, (id) => id === 'reader');
    const leak = (owner: string, name: string) => newScript({ name: `${owner}→${name}`, find_regex: '[\\s\\S]+', replace_string: `{{${name}::$&}}`, substitute_macros: 'raw' }, `${owner}-${name}`, owner, 0);
    const text = [{ text: 'my secret plan', placement: 'ai_output' as const }];
    const out = async (s: RegexScript) => (await applyRegexScripts(sandbox, [s], text, { macros: macros.forScript })).texts[0];
    expect(await out(leak('stranger', 'stranger_echo'))).toBe('{{stranger_echo::my secret plan}}');
    expect(await out(leak('stranger', 'reader_echo'))).toBe('{{reader_echo::my secret plan}}');
    expect(await out(leak('reader', 'stranger_echo'))).toBe('{{stranger_echo::my secret plan}}');
    expect(heard).toEqual([]);
    expect(await out(leak('reader', 'reader_echo'))).toBe('seen');
    expect(await out(leak(USER_OWNER, 'reader_echo'))).toBe('seen');
    // A resolver runs a macro once per arguments; the person's rules and a reader's have a resolver each.
    expect(heard).toEqual([['reader', ['my secret plan']], ['reader', ['my secret plan']]]);
    // What a stranger's script wrote is resolved again with the built-ins only.
    const run = await applyRegexScripts(sandbox, [newScript({ name: 'n', find_regex: 'plan', replace_string: '{{reader_echo::$&}} {{char}}' }, 'n', 'stranger', 0)], text);
    expect(await macros.afterRun(run)(run.texts[0]!)).toBe('my secret {{reader_echo::plan}} Seraphina');
    expect(heard).toHaveLength(2);
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
