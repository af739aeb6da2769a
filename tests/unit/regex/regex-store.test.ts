// spindle.regex_scripts over the real chats' database, through the contract's dispatcher: Lumiverse's defaults, rules
// and words; the list's filters and order; getActive's scopes; who may change a script (can_mutate); caps; kept
// across a restart.
import { afterEach, describe, expect, it } from 'vitest';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { regexScriptHandlers } from '../../../electron/core/extensions/spindle-host/regex-scripts';
import type { Caller } from '../../../electron/core/extensions/spindle-host/handlers';
import { REGEX_LIMITS } from '../../../electron/core/regex/regex-script';
import { PERSON, RegexStore, type RegexChange } from '../../../electron/core/regex/regex-store';
import { HostFailure } from '../../../shared/errors';
import { callSpindle } from '../../helpers/spindle-call';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

type Dto = Record<string, unknown> & { id: string; name: string; can_mutate: boolean };

const caller = (extensionId: string, unrestricted = false): Caller => ({ extensionId, allowed: (p) => p !== 'regex_scripts_unrestricted' || unrestricted });

function setup(dir = tempDir()) {
  const clock = { t: 1_750_000_000_000, now() { return this.t; } };
  const sessions = new SessionStore({ dataDir: dir, clock });
  const store = new RegexStore(sessions.db, clock);
  const as = (who: Caller) => (method: string, ...args: unknown[]) => callSpindle(regexScriptHandlers(() => store), who, method, { args });
  return { dir, sessions, store, clock, call: as(caller('ext_a')), as };
}

async function refused(promise: Promise<unknown>): Promise<{ code: string; path?: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof HostFailure) return err.error as { code: string; path?: string; message: string };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('regex scripts', () => {
  it('creates with Lumiverse’s defaults and reads back its own as can_mutate, the target as the host’s array', async () => {
    const { call } = setup();
    const made = (await call('regex_scripts.create', { name: '  Strip OOC ', find_regex: '\\(\\(.*?\\)\\)', script_id: 'Strip OOC-Blocks!' })) as Dto;
    expect(made).toEqual({
      id: expect.any(String),
      name: 'Strip OOC',
      script_id: 'strip_ooc_blocks',
      find_regex: '\\(\\(.*?\\)\\)',
      replace_string: '',
      flags: 'gi',
      placement: ['ai_output'],
      scope: 'global',
      scope_id: null,
      target: ['response'],
      min_depth: null,
      max_depth: null,
      trim_strings: [],
      run_on_edit: false,
      substitute_macros: 'none',
      disabled: false,
      sort_order: 0,
      description: '',
      folder: '',
      folder_version: null,
      metadata: {},
      actions: [],
      created_at: 1_750_000_000,
      updated_at: 1_750_000_000,
      can_mutate: true,
    });
    expect(await call('regex_scripts.get', made.id)).toEqual(made);
    expect(await call('regex_scripts.get', 'nope')).toBeNull();
    // Several targets, as Lumiverse's array.
    expect(await call('regex_scripts.create', { name: 'Both', find_regex: 'x', target: ['prompt', 'display', 'prompt'] })).toMatchObject({ target: ['prompt', 'display'] });
  });

  it('G4: refuses what Lumiverse refuses, in its words, at the field', async () => {
    const { call } = setup();
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ name: ' ', find_regex: 'x' }, '/input/name', /name is required/],
      [{ name: 'a', find_regex: '(' }, '/input/find_regex', /^Invalid regex: /],
      [{ name: 'a', find_regex: 'x', flags: 'gg' }, '/input/flags', /Invalid flags/],
      [{ name: 'a', find_regex: 'x', flags: 'q' }, '/input/flags', /Invalid flags/],
      [{ name: 'a', find_regex: 'x', placement: ['sidebar'] }, '/input/placement', /Invalid placement: sidebar/],
      [{ name: 'a', find_regex: 'x', target: 'screen' }, '/input/target', /Invalid target: screen/],
      [{ name: 'a', find_regex: 'x', target: [] }, '/input/target', /non-empty/],
      [{ name: 'a', find_regex: 'x', scope: 'chat' }, '/input/scope_id', /scope_id is required/],
      // A preset's own scripts come with its import; Lumiverse's API has no such scope for an extension.
      [{ name: 'a', find_regex: 'x', scope: 'preset', scope_id: 'p1' }, '/input/scope', /Invalid scope: preset/],
      [{ name: 'a', find_regex: 'x', substitute_macros: 'always' }, '/input/substitute_macros', /Invalid substitute_macros/],
      [{ name: 'a', find_regex: 'x'.repeat(REGEX_LIMITS.maxPatternChars + 1) }, '/input/find_regex', /exceeds maximum length/],
    ];
    for (const [input, path, message] of cases) {
      const error = await refused(call('regex_scripts.create', input));
      expect({ code: error.code, path: error.path }, JSON.stringify(input).slice(0, 80)).toEqual({ code: 'INVALID_INPUT', path });
      expect(error.message).toMatch(message);
    }
    // A pattern with macros compiles with each macro as a letter.
    expect(await call('regex_scripts.create', { name: 'Named', find_regex: '{{char}}: (.*)', substitute_macros: 'raw' })).toMatchObject({ name: 'Named' });
    // script_id is unique across the library.
    await call('regex_scripts.create', { name: 'One', find_regex: 'x', script_id: 'shared' });
    expect(await refused(call('regex_scripts.create', { name: 'Two', find_regex: 'x', script_id: 'Shared' }))).toMatchObject({ code: 'CONFLICT', message: 'script_id already exists' });
    // Too much metadata.
    expect(await refused(call('regex_scripts.create', { name: 'Big', find_regex: 'x', metadata: { blob: 'y'.repeat(REGEX_LIMITS.maxScriptBytes) } }))).toMatchObject({ code: 'INPUT_TOO_LARGE' });
  });

  it('lists with strict filters by sort order then age, 50 a page and 200 at most', async () => {
    const { call, clock } = setup();
    const ids: Record<string, string> = {};
    const add = async (name: string, input: Record<string, unknown>) => {
      clock.t += 1000;
      ids[name] = ((await call('regex_scripts.create', { name, find_regex: 'x', ...input })) as Dto).id;
    };
    await add('late', { sort_order: 5 });
    await add('chat c1', { scope: 'chat', scope_id: 'c1', target: 'display' });
    await add('char c1', { scope: 'character', scope_id: 'c1', target: 'prompt' });
    await add('early', { sort_order: -1, target: 'display' });
    const names = async (options: Record<string, unknown>) => ((await call('regex_scripts.list', options)) as { data: Dto[] }).data.map((d) => d.name);
    expect(await names({})).toEqual(['early', 'chat c1', 'char c1', 'late']);
    expect(await names({ target: 'display' })).toEqual(['early', 'chat c1']);
    expect(await names({ scope: 'chat', scopeId: 'c1' })).toEqual(['chat c1']);
    expect(await names({ scope: 'character', scopeId: 'c2' })).toEqual([]);
    expect(await call('regex_scripts.list', { limit: 2, offset: 1 })).toMatchObject({ total: 4, data: [{ name: 'chat c1' }, { name: 'char c1' }] });
    for (let i = 0; i < 210; i++) await add(`n${i}`, {});
    expect(((await call('regex_scripts.list', { limit: 1000 })) as { data: Dto[] }).data).toHaveLength(200);
    expect(((await call('regex_scripts.list')) as { data: Dto[] }).data).toHaveLength(50);
    expect(((await call('regex_scripts.list', { limit: 0 })) as { data: Dto[] }).data).toHaveLength(50);
  });

  it('answers getActive as Lumiverse resolves it: enabled, the target’s, global then character then chat', async () => {
    const { call } = setup();
    await call('regex_scripts.create', { name: 'chat rule', find_regex: 'x', target: 'display', scope: 'chat', scope_id: 'c1', sort_order: -10 });
    await call('regex_scripts.create', { name: 'character rule', find_regex: 'x', target: 'display', scope: 'character', scope_id: 'c1' });
    await call('regex_scripts.create', { name: 'global second', find_regex: 'x', target: 'display', sort_order: 2 });
    await call('regex_scripts.create', { name: 'global first', find_regex: 'x', target: ['display', 'prompt'], sort_order: 1 });
    await call('regex_scripts.create', { name: 'off', find_regex: 'x', target: 'display', disabled: true });
    await call('regex_scripts.create', { name: 'other chat', find_regex: 'x', target: 'display', scope: 'chat', scope_id: 'c2' });
    await call('regex_scripts.create', { name: 'a response rule', find_regex: 'x' });
    const active = async (options: Record<string, unknown>) => ((await call('regex_scripts.getActive', options)) as Dto[]).map((d) => d.name);
    expect(await active({ target: 'display', chatId: 'c1', characterId: 'c1' })).toEqual(['global first', 'global second', 'character rule', 'chat rule']);
    expect(await active({ target: 'display' })).toEqual(['global first', 'global second']);
    expect(await active({ target: 'prompt', chatId: 'c1' })).toEqual(['global first']);
    expect(await refused(call('regex_scripts.getActive', { target: 'everywhere' }))).toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('G2: lets an extension change only its own scripts, unless it holds regex_scripts_unrestricted; the person changes any', async () => {
    const { as, store } = setup();
    const mine = (await as(caller('ext_a'))('regex_scripts.create', { name: 'A’s', find_regex: 'x' })) as Dto;
    const other = as(caller('ext_b'));
    expect(await other('regex_scripts.get', mine.id)).toMatchObject({ can_mutate: false });
    expect(await refused(other('regex_scripts.update', mine.id, { disabled: true }))).toMatchObject({ code: 'PERMISSION_DENIED', path: '/scriptId' });
    expect(await refused(other('regex_scripts.delete', mine.id))).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(store.get(mine.id)!.disabled).toBe(false);
    const trusted = as(caller('ext_c', true));
    expect(await trusted('regex_scripts.get', mine.id)).toMatchObject({ can_mutate: true });
    expect(await trusted('regex_scripts.update', mine.id, { disabled: true })).toMatchObject({ disabled: true, can_mutate: true });
    expect(store.update(mine.id, { disabled: false }, PERSON).disabled).toBe(false);
    // Lumiverse's answers for what is not there.
    expect(await refused(other('regex_scripts.update', 'gone', { name: 'x' }))).toMatchObject({ code: 'NOT_FOUND', message: 'Regex script not found' });
    expect(await other('regex_scripts.delete', 'gone')).toBe(false);
    expect(await as(caller('ext_a'))('regex_scripts.delete', mine.id)).toBe(true);
  });

  it('updates only the fields given, a scope change to global clearing scope_id; every change bumps the revision and is told', async () => {
    const { call, store, clock } = setup();
    const changes: RegexChange[] = [];
    store.onChange((c) => changes.push(c));
    const made = (await call('regex_scripts.create', { name: 'Scoped', find_regex: 'x', scope: 'chat', scope_id: 'c1', folder: 'Mine', folder_version: '1.0' })) as Dto;
    clock.t += 5000;
    const moved = (await call('regex_scripts.update', made.id, { scope: 'global', replace_string: 'y', id: 'forged', owner: 'someone' })) as Dto;
    expect(moved).toMatchObject({ id: made.id, scope: 'global', scope_id: null, replace_string: 'y', find_regex: 'x', folder_version: '1.0', updated_at: 1_750_000_005, created_at: 1_750_000_000, can_mutate: true });
    expect(store.get(made.id)!.owner).toBe('ext_a');
    expect(await refused(call('regex_scripts.update', made.id, { scope: 'character' }))).toMatchObject({ code: 'INVALID_INPUT', path: '/input/scope_id' });
    expect(await refused(call('regex_scripts.update', made.id, { flags: 'x' }))).toMatchObject({ path: '/input/flags' });
    expect(await call('regex_scripts.update', made.id, { folder_version: '' })).toMatchObject({ folder_version: null });
    await call('regex_scripts.delete', made.id);
    expect(changes.map((c) => c.kind)).toEqual(['changed', 'changed', 'changed', 'deleted']);
    expect(store.revision).toBe(4);
  });

  it('G4: keeps scripts across a restart, and caps how many there are', async () => {
    const dir = tempDir();
    const first = setup(dir);
    const made = (await first.call('regex_scripts.create', { name: 'Kept', find_regex: 'x', target: 'display' })) as Dto;
    await first.sessions.close();
    const again = setup(dir);
    expect(await again.call('regex_scripts.get', made.id)).toEqual(made);
    // One extension keeps a share; all of them together, the cap.
    for (let i = 1; i < REGEX_LIMITS.maxScriptsPerOwner; i++) await again.call('regex_scripts.create', { name: `a${i}`, find_regex: 'x' });
    expect(await refused(again.call('regex_scripts.create', { name: 'One more', find_regex: 'x' }))).toMatchObject({ code: 'QUOTA_EXCEEDED', message: expect.stringMatching(/An extension keeps at most 500/) });
    expect(await again.as(caller('ext_b'))('regex_scripts.create', { name: 'Another’s', find_regex: 'x' })).toMatchObject({ name: 'Another’s' });
    for (let i = REGEX_LIMITS.maxScriptsPerOwner + 1; i < REGEX_LIMITS.maxScripts; i++) again.store.create({ name: `n${i}`, find_regex: 'x' }, PERSON);
    expect(await refused(again.as(caller('ext_c'))('regex_scripts.create', { name: 'Over', find_regex: 'x' }))).toMatchObject({ code: 'QUOTA_EXCEEDED', message: expect.stringMatching(/At most 2000/) });
  });
});
