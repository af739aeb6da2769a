// `extensions test <dir>` on a published-style Lumiverse extension (TypeScript built at install; a macro, an
// interceptor, a tool): the first run writes the snapshot, the next passes, a change to the extension fails with a
// diff naming the stage, --update takes it; --json and --junit for CI; exit codes 0, 1 and 2; bad cases name the field.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../../helpers/cli-run';
import { builtCli } from '../../helpers/built-cli';
import { LlmTestServer } from '../../fixtures/llm-server';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { ExtensionTestCaseSchema } from '../../../shared/types/extension-test';
import { SESSION_FORMAT, SESSION_VERSION } from '../../../shared/types/chat';

const FIXTURE = path.resolve(import.meta.dirname, '../../fixtures/extensions/lumiverse_weather');
const ROOT = path.resolve(import.meta.dirname, '../../..');

afterEach(cleanupTempDirs);

/** A copy of the extension to change and write snapshots in; without its committed snapshot, the first run writes one. */
function extension(keepSnapshot = false): string {
  const dir = path.join(tempDir('cw-ext-test-'), 'lumiverse_weather');
  fs.cpSync(FIXTURE, dir, { recursive: true });
  if (!keepSnapshot) fs.rmSync(path.join(dir, 'tests', '__snapshots__'), { recursive: true, force: true });
  return dir;
}

const snapshotOf = (dir: string) => fs.readFileSync(path.join(dir, 'tests', '__snapshots__', 'drizzle.snap.json'), 'utf8');
const json = (out: string) => JSON.parse(out) as { passed: number; failed: number; errors: number; cases: Array<{ name: string; status: string; where?: string[]; diff?: string; failures?: string[]; error?: { message: string; field?: string } }> };

describe('extensions test', () => {
  it('writes the snapshot on the first run, passes on the next, fails with a diff naming the stage after a change, and --update takes it', async () => {
    const dir = extension();
    // The one case this walk changes (the extension's other cases have councils; they have a test of their own).
    const only = (...args: string[]) => ['extensions', 'test', dir, '--case', path.join(dir, 'tests', 'drizzle.case.json'), ...args];
    const first = await cli(only('--json'));
    expect(first.code).toBe(0);
    expect(json(first.out).cases).toEqual([expect.objectContaining({ name: 'drizzle', status: 'written' })]);
    const written = snapshotOf(dir);
    const snapshot = JSON.parse(written);
    // What the model received: the interceptor's line first, the macro expanded in the user's turn.
    expect(snapshot.requests[0].messages[0]).toEqual({ role: 'system', content: '[weather] It is a cold drizzle over the harbor; keep it in the scene.' });
    expect(snapshot.requests[0].messages.at(-1)).toEqual({ role: 'user', content: 'Will they make it in tonight? (a cold drizzle over the harbor)' });
    expect(snapshot.stages.map((s: { stage: string; by: string }) => `${s.stage}/${s.by}`)).toEqual(['council/host', 'assembly/host', 'macros/Harbor Weather', 'interceptors/Harbor Weather', 'generation/host']);
    expect(snapshot.stages[1].prompt).toContain('Will they make it in tonight? ({{harbor_weather}})');
    expect(snapshot.reply).toEqual({ text: 'Mara squints into the drizzle. "They always do."', finishReason: 'stop' });
    expect(snapshot.log).toEqual(['worker: weather note added before 4 messages']);
    // Stable: keys sorted, nothing that changes between runs.
    expect(Object.keys(snapshot)).toEqual([...Object.keys(snapshot)].sort());

    const again = await cli(only());
    expect(again.code).toBe(0);
    expect(again.out).toContain('✓ drizzle');
    expect(snapshotOf(dir)).toBe(written);

    // The author changes the interceptor's wording: the case's own expectation still holds, the snapshot does not.
    const backend = path.join(dir, 'src', 'backend.ts');
    fs.writeFileSync(backend, fs.readFileSync(backend, 'utf8').replace('keep it in the scene', 'mention it once'));
    const failed = await cli(only());
    expect(failed.code).toBe(1);
    expect(failed.out).toContain('✗ drizzle');
    expect(failed.out).toContain('changed: stage "interceptors" (by Harbor Weather); request 1 (the prompt the model received)');
    expect(failed.out).toContain('-          "content": "[weather] It is a cold drizzle over the harbor; keep it in the scene.",');
    expect(failed.out).toContain('+          "content": "[weather] It is a cold drizzle over the harbor; mention it once.",');
    expect(snapshotOf(dir)).toBe(written);

    const junit = path.join(dir, 'reports', 'junit.xml');
    const reported = await cli(only('--json', '--junit', junit));
    expect(reported.code).toBe(1);
    expect(json(reported.out)).toMatchObject({ passed: 0, failed: 1, errors: 0, cases: [{ status: 'failed', where: ['stage "interceptors" (by Harbor Weather)', 'request 1 (the prompt the model received)'] }] });
    const xml = fs.readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuite name="lumiverse_weather" tests="1" failures="1" errors="0"/);
    expect(xml).toContain('<failure message="changed: stage &quot;interceptors&quot; (by Harbor Weather)');

    const updated = await cli(only('--update', '--json'));
    expect(updated.code).toBe(0);
    expect(json(updated.out).cases[0]!.status).toBe('updated');
    expect(snapshotOf(dir)).toContain('mention it once');
    expect((await cli(only())).code).toBe(0);

    // A change to the macro is the extension's own stage, not the host's assembly: the card as written is unchanged.
    fs.writeFileSync(backend, fs.readFileSync(backend, 'utf8').replace('handler: () => WEATHER', "handler: () => 'fog rolling in'"));
    const macro = await cli(only('--json'));
    expect(macro.code).toBe(1);
    expect(json(macro.out).cases[0]!.where).toEqual(['stage "macros" (by Harbor Weather)', 'stage "interceptors" (by Harbor Weather)', 'request 1 (the prompt the model received)']);
    expect(json(macro.out).cases[0]!.diff).toContain('+      "prompt": "[system]\\nYou are Mara. Stay in character and reply to Tom.\\n\\n[assistant]\\nThe lamp is lit. What brings you up the lighthouse stairs?\\n\\n[user]\\nI came to see the boats come in.\\n\\n[user]\\nWill they make it in tonight? (fog rolling in)",');
  });

  it('the extension as committed passes against its committed snapshot', async () => {
    const run = await cli(['extensions', 'test', extension(true), '--json']);
    expect([run.code, json(run.out).cases.map((c) => [c.name, c.status])]).toEqual([
      0,
      [
        ['council-inline', 'passed'],
        ['council-sidecar', 'passed'],
        ['drizzle', 'passed'],
      ],
    ]);
  });

  it("checks the case's own expectations beside the snapshot", async () => {
    const dir = extension();
    const file = path.join(dir, 'tests', 'drizzle.case.json');
    const testCase = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, JSON.stringify({ ...testCase, expect: { reply: 'They never do', calls: ['forecast'], stage: { name: 'interceptors', text: { regex: 'sunny' } } } }));
    const run = await cli(['extensions', 'test', dir, '--case', file, '--json']);
    expect(run.code).toBe(1);
    expect(json(run.out).cases[0]!.failures).toEqual([
      expect.stringContaining('expect.reply: the reply does not match "They never do"'),
      'expect.calls: the calls were [], not [forecast]',
      'expect.stage: the prompt after stage "interceptors" does not match /sunny/',
    ]);
  });

  it('a bad case, a missing chat or a missing folder is a set-up error (exit 2) naming what is wrong; the other cases still run', async () => {
    const dir = extension();
    const tests = path.join(dir, 'tests');
    fs.writeFileSync(path.join(tests, 'a-no-replies.case.json'), JSON.stringify({ name: 'no-replies', chat: 'harbor.jsonl', message: 'Hi' }));
    fs.writeFileSync(path.join(tests, 'b-bad-regex.case.json'), JSON.stringify({ name: 'bad-regex', chat: 'harbor.jsonl', message: 'Hi', replies: ['Hello'], expect: { reply: { regex: '(' } } }));
    fs.writeFileSync(path.join(tests, 'c-no-chat.case.json'), JSON.stringify({ name: 'no-chat', chat: 'missing.jsonl', message: 'Hi', replies: ['Hello'] }));
    fs.writeFileSync(path.join(tests, 'd-not-json.case.json'), '{ "name": ');
    const run = await cli(['extensions', 'test', dir, '--json']);
    expect(run.code).toBe(2);
    const cases = json(run.out).cases;
    expect(cases.map((c) => [c.name, c.status])).toEqual([
      ['a-no-replies', 'error'],
      ['b-bad-regex', 'error'],
      ['c-no-chat', 'error'],
      ['council-inline', 'written'],
      ['council-sidecar', 'written'],
      ['d-not-json', 'error'],
      ['drizzle', 'written'],
    ]);
    expect(cases[0]!.error).toMatchObject({ field: '/replies' });
    expect(cases[1]!.error).toMatchObject({ field: '/expect/reply/regex' });
    expect(cases[2]!.error!.message).toContain('import the chat missing.jsonl');
    expect(cases[5]!.error!.message).toContain('cannot read the case');

    expect((await cli(['extensions', 'test', path.join(dir, 'nowhere')])).code).toBe(2);
    expect((await cli(['extensions', 'test'])).code).toBe(2);
    expect((await cli(['extensions', 'test', dir, '--bogus'])).code).toBe(2);
    expect((await cli(['extensions', 'test', dir, '--case', path.join(tests, 'absent.case.json')])).code).toBe(2);
    // One case named: only it runs.
    const one = await cli(['extensions', 'test', dir, '--case', path.join(tests, 'drizzle.case.json'), '--json']);
    expect([one.code, json(one.out).cases.map((c) => c.name)]).toEqual([0, ['drizzle']]);
  });

  it('a reply calling a tool the main model was not offered runs nothing: the turn ends with what was said', async () => {
    const dir = extension();
    const file = path.join(dir, 'tests', 'drizzle.case.json');
    fs.writeFileSync(file, JSON.stringify({ name: 'drizzle', chat: 'harbor.jsonl', message: 'And tomorrow?', replies: [{ text: 'Let me look.', toolCalls: [{ name: 'forecast', arguments: { hours: 12 } }] }] }));
    const run = await cli(['extensions', 'test', dir, '--case', file, '--json']);
    expect(run.code).toBe(0);
    const snapshot = JSON.parse(snapshotOf(dir));
    expect(snapshot.requests).toHaveLength(1);
    expect(snapshot.reply.text).toBe('Let me look.');
    expect(snapshot.toolCalls).toEqual([{ name: 'forecast', arguments: '{"hours":12}', ok: false, unoffered: true, result: 'No tools were offered in this turn, so the call was not run.' }]);
  });

  it("a case's council: members rolled with the case's seed, the sidecar's replies matched to members, inline calls run", async () => {
    const dir = extension();
    const run = await cli(['extensions', 'test', dir, '--case', path.join(dir, 'tests', 'council-sidecar.case.json'), '--case', path.join(dir, 'tests', 'council-inline.case.json'), '--json']);
    expect(run.code).toBe(0);
    const sidecar = JSON.parse(fs.readFileSync(path.join(dir, 'tests', '__snapshots__', 'council-sidecar.snap.json'), 'utf8'));
    // Seed 7: the navigator (100 %) and the gull (10 %, rolled 6.195) both take part.
    expect(sidecar.council).toMatchObject({ seed: 7, rolls: [{ member: 'Navigator', chance: 100, active: true }, { member: 'Gull', chance: 10, roll: 6.195, active: true }] });
    expect(sidecar.council.block).toContain('For the next 12 hours: a cold drizzle');
    expect(sidecar.council.block).toContain('For the next 2 hours: a cold drizzle');
    expect(sidecar.council.block).toContain('[BEGIN TOOL OUTPUT NONCE]');
    expect(sidecar.sidecarRequests).toHaveLength(2);
    expect(sidecar.requests[0].messages.map((m: { content: string }) => m.content).join('\n')).toContain('## Council Deliberation');
    const inline = JSON.parse(fs.readFileSync(path.join(dir, 'tests', '__snapshots__', 'council-inline.snap.json'), 'utf8'));
    expect(inline.requests[0].tools).toEqual(['lumiverse_weather__forecast']);
    expect(inline.toolCalls).toEqual([{ name: 'lumiverse_weather__forecast', arguments: '{"hours":6}', ok: true, result: 'For the next 6 hours: a cold drizzle over the harbor, clearing by dawn.' }]);
    expect(inline.requests[1].messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'For the next 6 hours: a cold drizzle over the harbor, clearing by dawn.' });
    // Another seed rolls the gull out.
    const file = path.join(dir, 'tests', 'council-sidecar.case.json');
    const testCase = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, JSON.stringify({ ...testCase, council: { ...testCase.council, seed: 8 } }));
    const reseeded = await cli(['extensions', 'test', dir, '--case', file, '--json']);
    expect(reseeded.code).toBe(1);
    expect(json(reseeded.out).cases[0]!.where).toContain('council (seed, rolls, block)');
  });

  it("--watch runs again when a file of the extension changes, once per change, and Ctrl+C ends it with the last run's code", async () => {
    const dir = extension(true);
    const child = spawn(process.execPath, [builtCli(), 'extensions', 'test', dir, '--case', path.join(dir, 'tests', 'drizzle.case.json'), '--watch', '--update'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    /** Resolves when `seen()` holds after some output, or fails after 60 s (the child is killed then). */
    const until = (what: string, seen: () => boolean) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${what} within 60 s; stdout: ${out}\nstderr: ${err}`)), 60_000);
        const check = () => {
          if (!seen()) return;
          clearTimeout(timer);
          child.stdout.off('data', check);
          child.stderr.off('data', check);
          resolve();
        };
        child.stdout.on('data', check);
        child.stderr.on('data', check);
        check();
      });
    try {
      const watching = (times: number) => () => err.split('Watching for changes').length - 1 === times;
      await until('first run', () => out.includes('✓ drizzle —') && watching(1)());
      // A change: the case runs again and --update writes the new snapshot (a write the watch does not answer).
      const backend = path.join(dir, 'src', 'backend.ts');
      fs.writeFileSync(backend, fs.readFileSync(backend, 'utf8').replace('keep it in the scene', 'mention it once'));
      await until('the rerun', () => out.includes('(snapshot updated)') && watching(2)());
      expect(err).toContain(`${path.join('src', 'backend.ts')} changed: running the cases again`);
      expect(snapshotOf(dir)).toContain('mention it once');
      // A second change: one more run.
      fs.writeFileSync(path.join(dir, 'src', 'notes.txt'), 'a file beside the backend');
      await until('the second rerun', watching(3));
    } finally {
      child.kill('SIGINT');
    }
    const ended = await exited;
    // The signal too, so that a crash on the way out says which.
    expect({ ...ended, stderr: err.slice(-2000) }).toEqual({ code: 0, signal: null, stderr: expect.any(String) });
    expect(err.split('running the cases again').length - 1).toBe(2);
  });

  it('--record --connection answers a case from a real model once and keeps a cassette; later runs replay it offline and say when the prompt moved', async () => {
    const dir = extension();
    const file = path.join(dir, 'tests', 'drizzle.case.json');
    const { replies: _scripted, ...testCase } = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, JSON.stringify({ ...testCase, expect: { reply: 'The boats are in' } }));
    // Without replies and before any recording, the case cannot run.
    const unanswered = await cli(['extensions', 'test', dir, '--case', file, '--json']);
    expect(unanswered.code).toBe(2);
    expect(json(unanswered.out).cases[0]!.error).toMatchObject({ field: '/replies', message: expect.stringContaining('record one with --record --connection <id>') });

    // The person's data folder, with a connection to a model (here, a protocol-faithful server on 127.0.0.1).
    const model = await LlmTestServer.start();
    const userData = tempDir('cw-user-');
    try {
      const added = await cli(['connections', 'add', '--type', 'openai-compatible', '--base-url', `${model.origin}/v1`, '--model', 'test-model', '--name', 'Real', '--data-dir', userData, '--no-host', '--json']);
      expect(added.code).toBe(0);
      const connectionId = (JSON.parse(added.out) as { id: string }).id;
      expect((await cli(['extensions', 'test', dir, '--case', file, '--record', '--data-dir', userData])).code).toBe(2);
      model.enqueue({ text: ['The boats are in, ', 'every one.'] });
      const recorded = await cli(['extensions', 'test', dir, '--case', file, '--record', '--connection', connectionId, '--data-dir', userData, '--json']);
      expect(recorded.code).toBe(0);
      expect(json(recorded.out).cases[0]!.status).toBe('written');
      // The real model was sent the prompt the extension shaped.
      const sent = model.generations[0]!.body as { messages: Array<{ role: string; content: string }> };
      expect(sent.messages[0]).toEqual({ role: 'system', content: '[weather] It is a cold drizzle over the harbor; keep it in the scene.' });
    } finally {
      await model.close();
    }
    const cassette = JSON.parse(fs.readFileSync(path.join(dir, 'tests', '__cassettes__', 'drizzle.cassette.json'), 'utf8'));
    expect(cassette.main).toEqual([{ request: expect.objectContaining({ tools: [] }), reply: 'The boats are in, every one.' }]);
    expect(JSON.parse(snapshotOf(dir)).reply.text).toBe('The boats are in, every one.');

    // Offline (the model is gone): the cassette answers, and the case passes.
    expect((await cli(['extensions', 'test', dir, '--case', file])).code).toBe(0);
    // The extension changes what the model is sent: reported beside the snapshot diff.
    const backend = path.join(dir, 'src', 'backend.ts');
    fs.writeFileSync(backend, fs.readFileSync(backend, 'utf8').replace('keep it in the scene', 'mention it once'));
    const moved = await cli(['extensions', 'test', dir, '--case', file, '--json']);
    expect(moved.code).toBe(1);
    const result = json(moved.out).cases[0]!;
    expect(result.failures).toEqual(['cassette: main request 1 differs from the recorded prompt (record again with --record)']);
    expect(result.where).toContain('stage "interceptors" (by Harbor Weather)');
    expect(result.diff).toContain('--- main request 1 (recorded)');
  });

  it('a chat may be a card or an exported session (its own connection and switches set aside); settings reach the model; grant decides what the extension may do', async () => {
    const dir = extension();
    const tests = path.join(dir, 'tests');
    fs.writeFileSync(path.join(tests, 'mara.json'), JSON.stringify({ spec: 'chara_card_v2', spec_version: '2.0', data: { name: 'Mara', description: 'Keeper of the light.', personality: '', scenario: '', first_mes: 'The lamp is lit.', mes_example: '', character_book: { entries: [{ keys: ['evening'], content: 'Evenings, {{char}} trims the wick.', enabled: true, insertion_order: 1 }] } } }));
    fs.writeFileSync(
      path.join(tests, 'exported.json'),
      JSON.stringify({ format: SESSION_FORMAT, version: SESSION_VERSION, id: 'exported', title: 'Exported', createdAt: 1, updatedAt: 1, character: { name: 'Mara', description: '', personality: '', scenario: '' }, persona: { name: 'Tom', description: '' }, worldInfo: [], messages: [{ id: 'm1', role: 'assistant', content: 'The lamp is lit.', createdAt: 1 }], connectionId: 'elsewhere', model: 'gone-model', dryRun: true }),
    );
    fs.writeFileSync(path.join(tests, 'card.case.json'), JSON.stringify({ name: 'card', chat: 'mara.json', message: 'Evening.', replies: ['Evening, Tom.'], settings: { temperature: 0.3, maxTokens: 64 }, grant: [] }));
    fs.writeFileSync(path.join(tests, 'session.case.json'), JSON.stringify({ name: 'session', chat: 'exported.json', message: 'Still lit?', replies: ['Always.'] }));
    const run = await cli(['extensions', 'test', dir, '--case', path.join(tests, 'card.case.json'), '--case', path.join(tests, 'session.case.json'), '--json']);
    expect(run.code).toBe(0);
    const card = JSON.parse(fs.readFileSync(path.join(tests, '__snapshots__', 'card.snap.json'), 'utf8'));
    expect(card.requests[0].sampling).toEqual({ temperature: 0.3, maxTokens: 64 });
    expect(card.requests[0].messages.map((m: { content: string }) => m.content)).toEqual([expect.stringContaining('Keeper of the light.'), 'The lamp is lit.', 'Evening.']);
    // The card's book fired on the message, then the host's macro expanded in it: each its own stage.
    expect(card.stages.map((s: { stage: string; by: string }) => `${s.stage}/${s.by}`)).toEqual(['council/host', 'assembly/host', 'world info/host', 'macros/host', 'generation/host']);
    expect(card.stages[2]).toMatchObject({ note: 'fired: evening', prompt: expect.stringContaining('## World info\nEvenings, {{char}} trims the wick.') });
    expect(card.stages[3].prompt).toContain('## World info\nEvenings, Mara trims the wick.');
    // No permission granted: its interceptor was refused (the log says why) and did not run.
    expect(card.log).toEqual(['worker: spindle.register: PERMISSION_DENIED: interceptor — registering an interceptor needs the interceptor permission.']);
    const session = JSON.parse(fs.readFileSync(path.join(tests, '__snapshots__', 'session.snap.json'), 'utf8'));
    expect(session.reply).toEqual({ text: 'Always.', finishReason: 'stop' });
    expect(session.requests[0].messages.at(-1)).toEqual({ role: 'user', content: 'Still lit?' });
  });

  it('--ci fails a case whose snapshot was never written, instead of writing it', async () => {
    const dir = extension();
    const run = await cli(['extensions', 'test', dir, '--case', path.join(dir, 'tests', 'drizzle.case.json'), '--ci', '--json']);
    expect(run.code).toBe(1);
    expect(json(run.out).cases[0]!.failures).toEqual([expect.stringContaining('no snapshot tests/__snapshots__/drizzle.snap.json: run without --ci to write it')]);
    expect(fs.existsSync(path.join(dir, 'tests', '__snapshots__'))).toBe(false);
  });

  it('two cases with one name are refused (each names its own snapshot)', async () => {
    const dir = extension(true);
    fs.copyFileSync(path.join(dir, 'tests', 'drizzle.case.json'), path.join(dir, 'tests', 'drizzle-copy.case.json'));
    const run = await cli(['extensions', 'test', dir, '--json']);
    expect(run.code).toBe(2);
    expect(json(run.out).cases.find((c) => c.status === 'error')!.error).toMatchObject({ field: '/name', message: expect.stringContaining('has the name "drizzle" too') });
  });

  it('publishes the case format as JSON Schema in the repository, as the code checks it', () => {
    const published = JSON.parse(fs.readFileSync(path.join(ROOT, 'resources', 'schemas', 'extension-test-case.json'), 'utf8'));
    expect(published).toEqual(JSON.parse(JSON.stringify(ExtensionTestCaseSchema)));
    const fixtureCase = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'tests', 'drizzle.case.json'), 'utf8'));
    expect(path.resolve(FIXTURE, 'tests', fixtureCase.$schema)).toBe(path.join(ROOT, 'resources', 'schemas', 'extension-test-case.json'));
  });
});
