// The tool-calling probe: its capability card counts exactly what a model did with each case (against a scripted
// OpenAI-style server: a model that gets every case right, then one that fails in each way), it keeps the card per
// connection and model, and it runs to its end on the built-in engine's tiny GGUF, from the CLI.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli as runCli } from '../../helpers/cli-run';
import type { HostEvent } from '../../../shared/contract/events';
import type { ProbeCard } from '../../../shared/types/local-models';
import { PROBE_CASES as CASES, rightAnswer } from '../../fixtures/local-model/probe-answers';
import { writeTinyGguf } from '../../fixtures/local-model/tiny-gguf';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { addMainConnection, chatRig, type ChatRig } from '../chat/helpers';

let rig: ChatRig;
afterEach(async () => {
  await rig?.close();
  cleanupTempDirs();
});

// Generations on the CPU from the tiny GGUF: each test's bound is for a loaded 2-core machine (the suite beside other
// work took over 20 s for five plans), not a figure.
describe('the tool-calling probe', { timeout: 120_000 }, () => {
  it('a model right in every case: every tally full; the card is kept for the connection and model; progress comes as events', async () => {
    rig = await chatRig();
    const connectionId = await addMainConnection(rig);
    rig.server.enqueue(...CASES.map(rightAnswer));
    const card = (await rig.call('models.probe', { connectionId })).value as ProbeCard;
    expect(card).toMatchObject({ connectionId, model: 'test-model', cases: 20, validCalls: { passed: 15, of: 15 }, restraint: { passed: 5, of: 5 }, followUp: { passed: 3, of: 3 }, failures: [] });
    expect(card.meanLatencyMs).toBeGreaterThanOrEqual(0);
    expect(rig.server.generations).toHaveLength(20);
    // Each case offered only its own tools, with the model free to choose.
    const first = rig.server.generations[0]!.body as { tools: Array<{ function: { name: string } }>; tool_choice: unknown; temperature: number };
    expect(first.tools.map((t) => t.function.name)).toEqual(CASES[0]!.tools);
    expect(first.tool_choice).toBe('auto');
    expect(first.temperature).toBe(0);
    const progress = rig.events.filter((e): e is Extract<HostEvent, { type: 'models.probe' }> => e.type === 'models.probe');
    expect(progress.map((e) => e.done)).toEqual(CASES.map((_, i) => i + 1));
    expect((await rig.call('models.probes', {})).value).toEqual([card]);
  });

  it('each way to fail is counted where it belongs, with its reason', async () => {
    rig = await chatRig();
    const connectionId = await addMainConnection(rig);
    const wrong = new Map<string, object>([
      ['single-weather', { text: 'It is probably sunny.' }],
      ['single-dice', { toolCalls: [{ name: 'roll_dice', args: { count: 0, sides: 6 } }] }],
      ['choice-weather', { toolCalls: [{ name: 'search_notes', args: { query: 'London weather' } }] }],
      ['single-notes', { toolCalls: [{ name: 'search_notes', args: '{"query": dragon' }] }],
      ['nested-event', { toolCalls: [{ name: 'create_event', args: { title: 'Dragon hunt', when: { date: '2027-01-10' } } }] }],
      ['restraint-greeting', { toolCalls: [{ name: 'get_weather', args: { city: 'here' } }] }],
      ['follow-up-answer', { toolCalls: [{ name: 'roll_dice', args: { count: 1, sides: 20 } }] }],
    ]);
    rig.server.enqueue(...CASES.map((c) => wrong.get(c.id) ?? rightAnswer(c)));
    const card = (await rig.call('models.probe', { connectionId })).value as ProbeCard;
    expect(card.validCalls).toEqual({ passed: 10, of: 15 });
    expect(card.restraint).toEqual({ passed: 3, of: 5 });
    expect(card.followUp).toEqual({ passed: 2, of: 3 });
    const why = Object.fromEntries(card.failures.map((f) => [f.id, f.why]));
    expect(why).toEqual({
      'single-weather': 'answered with text instead of calling get_weather',
      'single-dice': expect.stringMatching(/^its arguments broke the schema/),
      'single-notes': 'its arguments were not JSON (INVALID_ARGUMENTS_JSON)',
      'choice-weather': 'called search_notes, not get_weather',
      'nested-event': expect.stringMatching(/^its arguments missed what was asked/),
      'restraint-greeting': 'called get_weather when no call was needed',
      'follow-up-answer': 'called roll_dice when no call was needed',
    });
  });

  it('runs to its end on the built-in engine (the tiny GGUF), from the CLI; a connection that does not exist is named', async () => {
    const dir = tempDir('cw-probe-cli-');
    const cli = (args: string[]) => runCli([...args, '--data-dir', dir]);
    // A byte vocabulary makes the tools' documentation thousands of tokens: the context must hold it.
    const gguf = writeTinyGguf(path.join(dir, 'tiny-random-llama.gguf'), { contextLength: 8192 });
    expect((await cli(['models', 'add', gguf])).code).toBe(0);
    expect((await cli(['connections', 'add', '--type', 'local', '--model', 'tiny-random-llama'])).code).toBe(0);
    // Random weights never end a reply by themselves: 16 tokens a case keeps the run short.
    const probed = await cli(['models', 'probe', 'local-tiny-random-llama', '--max-tokens', '16']);
    expect(probed.code, probed.out).toBe(0);
    expect(probed.err.split('\n')).toEqual(Array.from({ length: 20 }, (_, i) => `case ${i + 1} of 20`));
    expect(probed.out).toMatch(/^Tool calling on local-tiny-random-llama \(tiny-random-llama\): valid calls \d+\/15 \(\d+%\), restraint \d\/5 \(\d+%\), follow-up turns \d\/3 \(\d+%\); mean latency \d+ ms, [\d.]+ tokens\/s\./);
    // The card it keeps, as the window reads it.
    const [card] = (JSON.parse(fs.readFileSync(path.join(dir, 'probes.json'), 'utf8')) as { cards: ProbeCard[] }).cards as [ProbeCard];
    expect(card).toMatchObject({ connectionId: 'local-tiny-random-llama', model: 'tiny-random-llama', cases: 20 });
    expect(card.validCalls.of + card.restraint.of).toBe(20);
    expect(card.validCalls.passed).toBeLessThanOrEqual(15);
    expect(card.failures).toHaveLength(20 - card.validCalls.passed - card.restraint.passed);
    expect(card.tokensPerSecond).toBeGreaterThan(0);
    expect(JSON.parse((await cli(['models', 'probe', 'nobody', '--json'])).out)).toMatchObject({ error: { code: 'NOT_FOUND' } });
  }, 120_000);
});
