// Output validation (seed 002) and dry runs (seed 001): read tools run, writes simulate (handler or placeholder), flags travel to council results.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { patternApprovalPolicy } from '../../../electron/core/safety/approval-policy';
import type { CouncilRun } from '../../../shared/types/council';
import type { ToolOutcome } from '../../../shared/types/tools';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { memorySidecar, sampleChat } from '../council/helpers';
import { call, probe, register, safetyHost, type SafetyHost } from '../safety/helpers';

let host: SafetyHost;
afterEach(async () => {
  await host?.dispose();
  cleanupTempDirs();
});

describe('output_schema', () => {
  it('W10: a result that fails the schema is INVALID_RESULT with the validator message; JSON text is parsed first', async () => {
    host = await safetyHost();
    const schema = { type: 'object', properties: { score: { type: 'number' } }, required: ['score'] };
    let answer: unknown = { score: 3 };
    register(host, { name: 'rate', mode: 'read', output_schema: schema }, probe(() => answer));
    const rate = () => call<ToolOutcome>(host, 'tools.invoke', { qualifiedName: 'probe:rate', args: {} });
    expect(await rate()).toMatchObject({ ok: true, content: '{"score":3}' });
    answer = '{"score": 4}';
    expect(await rate()).toMatchObject({ ok: true });
    answer = { score: 'high' };
    expect(await rate()).toMatchObject({ ok: false, error: { code: 'INVALID_RESULT', message: expect.stringContaining('/score must be number'), path: '/score' } });
    answer = {};
    expect(await rate()).toMatchObject({ ok: false, error: { code: 'INVALID_RESULT', message: expect.stringContaining('score') } });
    answer = 'a score of three';
    expect(await rate()).toMatchObject({ ok: false, error: { code: 'INVALID_RESULT' } });

    register(host, { name: 'say', mode: 'read', output_schema: { type: 'string', maxLength: 10 } }, probe(() => answer));
    const say = () => call<ToolOutcome>(host, 'tools.invoke', { qualifiedName: 'probe:say', args: {} });
    answer = 'hello';
    expect(await say()).toMatchObject({ ok: true, content: 'hello' });
    answer = '"quoted"';
    expect(await say()).toMatchObject({ ok: true });
    answer = 'far too long for it';
    expect(await say()).toMatchObject({ ok: false, error: { code: 'INVALID_RESULT' } });
  });
});

describe('dry run', () => {
  it('read tools run for real; writes without simulate return the placeholder without running; has_simulate calls simulate', async () => {
    host = await safetyHost();
    const reader = probe(() => 'real read');
    const writer = probe(() => 'real write');
    const simulating = probe(() => 'real write', { simulate: true });
    register(host, { name: 'peek', mode: 'read' }, reader);
    register(host, { name: 'poke', mode: 'write', requires_approval: true }, writer);
    register(host, { name: 'poke_sim', mode: 'write', requires_approval: true, has_simulate: true, parameters: { type: 'object', properties: { n: { type: 'integer' } } } }, simulating);
    const dry = (name: string, args: Record<string, unknown> = {}) => call<ToolOutcome>(host, 'tools.invoke', { qualifiedName: `probe:${name}`, args, dryRun: true });

    expect(await dry('peek')).toEqual({ ok: true, content: 'real read', durationMs: expect.any(Number) });
    expect(await dry('poke')).toEqual({ ok: true, content: '{"ok":true,"simulated":true,"unvalidated":true}', durationMs: expect.any(Number), simulated: true, unvalidated: true });
    expect(await dry('poke_sim', { n: 2 })).toEqual({ ok: true, content: 'would do {"n":2}', durationMs: expect.any(Number), simulated: true });
    expect(writer.calls).toHaveLength(0);
    expect(simulating.calls).toHaveLength(0);
    expect(simulating.simulations).toHaveLength(1);
    // Nothing is written, so nothing asks; arguments are still checked.
    expect(host.events.filter((e) => e.type === 'approval.requested')).toHaveLength(0);
    expect(await dry('poke_sim', { n: 'two' })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
  });

  it("a real extension's TOOL_SIMULATION handler answers (scratchpad), and nothing is written", async () => {
    host = await safetyHost({ bundled: true });
    const outcome = await call<ToolOutcome>(host, 'tools.invoke', { qualifiedName: 'scratchpad:append_note', args: { text: 'The key is under the mat.' }, dryRun: true });
    expect(outcome).toMatchObject({ ok: true, simulated: true, content: expect.stringContaining('Would append to notes.md') });
    expect(outcome.unvalidated).toBeUndefined();
    const padFile = path.join(host.dataDir, 'extension-data', 'scratchpad', 'storage', 'notes.md');
    expect(fs.existsSync(padFile)).toBe(false);
    // The same call for real (allowed by policy) does write there.
    host.safety.approvals.setPolicy(patternApprovalPolicy(['scratchpad:append_note']));
    expect(await call<ToolOutcome>(host, 'tools.invoke', { qualifiedName: 'scratchpad:append_note', args: { text: 'The key is under the mat.' } })).toMatchObject({ ok: true, approval: 'policy' });
    expect(fs.readFileSync(padFile, 'utf8')).toContain('The key is under the mat.');
    // The note tools (builtin, no simulate handler) return the placeholder and leave the folder alone.
    const note = await call<ToolOutcome>(host, 'tools.invoke', { qualifiedName: 'notes:create_note', args: { page: 'X', content: 'y' }, dryRun: true });
    expect(note).toMatchObject({ ok: true, simulated: true, unvalidated: true });
    expect(fs.existsSync(path.join(host.dataDir, 'notes', 'X.md'))).toBe(false);
  });

  it('council runs carry simulated/unvalidated per result and dryRun on the run; settings.safety.dryRun is the default', async () => {
    host = await safetyHost();
    const writer = probe(() => 'wrote it');
    const reader = probe(() => 'read it');
    register(host, { name: 'poke', mode: 'write', council_eligible: true }, writer);
    register(host, { name: 'peek', mode: 'read', council_eligible: true }, reader);
    host.council.setSidecar(memorySidecar());
    await call(host, 'council.addMember', { packId: 'story-council', itemId: 'plot-enforcer', tools: ['probe:poke', 'probe:peek'] });

    const dry = await call<CouncilRun>(host, 'council.run', { chat: sampleChat(), seed: 1, dryRun: true });
    expect(dry.dryRun).toBe(true);
    expect(dry.results.map((r) => [r.toolName, r.success, r.simulated ?? false, r.unvalidated ?? false])).toEqual([
      ['probe:poke', true, true, true],
      ['probe:peek', true, false, false],
    ]);
    expect(writer.calls).toHaveLength(0);
    expect(reader.calls).toHaveLength(1);

    await call(host, 'settings.update', { patch: { safety: { dryRun: true } } });
    const byDefault = await call<CouncilRun>(host, 'council.run', { chat: sampleChat(), seed: 1 });
    expect(byDefault.results[0]).toMatchObject({ simulated: true });
    expect(writer.calls).toHaveLength(0);
  });
});
