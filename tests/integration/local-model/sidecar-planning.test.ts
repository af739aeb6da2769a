// The sidecar on a local model plans calls under a grammar built from each tool's schema. For a schema the grammar
// expresses fully, every plan from random weights is valid; for one it cannot (a numeric range), the plan is checked
// after generation and asked for once more: the tool sees valid arguments or is called without any — never invalid ones.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCycle, type CycleTask } from '../../../electron/core/council/execute-cycle';
import { KeyedLimiter } from '../../../electron/core/council/limiter';
import { LlmClient } from '../../../electron/core/llm/client';
import { MemorySecretStore } from '../../../electron/core/connections/secret-store';
import { LocalModels } from '../../../electron/core/local-model/local-models';
import { ToolRegistry } from '../../../electron/core/registry/tool-registry';
import { silentLogger } from '../../../electron/core/ports';
import type { ConnectionProfile } from '../../../shared/types/llm';
import { writeTinyGguf } from '../../fixtures/local-model/tiny-gguf';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { llmSidecar } from '../council/helpers';

let models: LocalModels;
let client: LlmClient;
const profile: ConnectionProfile = { id: 'tiny', name: 'Tiny', provider: 'local', baseUrl: 'local:models', defaultModel: 'tiny-random-llama', headers: {} };

beforeAll(async () => {
  const dataDir = tempDir('cw-plan-');
  models = new LocalModels({ dataDir, log: silentLogger });
  await models.library.addFile(writeTinyGguf(path.join(dataDir, 'tiny-random-llama.gguf')));
  client = new LlmClient({ secrets: new MemorySecretStore(), env: {}, log: silentLogger, maxRetries: 0 });
  client.attachLocalModels(models.generate);
});
afterAll(() => {
  void models?.dispose();
  cleanupTempDirs();
});

const member = { memberId: 'm', itemId: 'i', packId: 'p', packName: 'P', name: 'Mira', role: 'Mood Reader', chance: 100, avatarUrl: null, definition: '', personality: '', behavior: '', genderIdentity: 3 as const };

async function plan(parameters: Record<string, unknown>, runs: number) {
  const registry = new ToolRegistry();
  const received: Array<Record<string, unknown>> = [];
  registry.register({ kind: 'builtin', id: 'mood' }, { name: 'set', display_name: 'Set mood', description: 'Sets the mood of the scene.', parameters }, {
    execute: async (request) => {
      const { __deadlineMs: _d, context: _c, ...args } = request.args;
      received.push(args);
      return { ok: true, value: 'set' };
    },
  });
  const tasks: CycleTask[] = Array.from({ length: runs }, (_, i) => ({ memberId: `m${i}`, memberName: 'Mira', qualifiedName: 'mood:set', displayName: 'Set mood', member }));
  const out = await runCycle(
    { registry, sidecar: llmSidecar(client, profile), limiter: new KeyedLimiter(1), clock: { now: () => Date.now() }, isPromptTool: () => false },
    { tasks, mode: 'sidecar', timeoutMs: 120_000, contextMessages: [], context: 'User: The storm rolls in over the harbour.' },
  );
  registry.dispose();
  return { results: out.results, received };
}

// Generations on the CPU from the tiny GGUF: each test's bound is for a loaded 2-core machine (the suite beside other
// work took over 20 s for five plans), not a figure.
describe('sidecar planning on a local model', { timeout: 120_000 }, () => {
  it('a schema the grammar expresses fully: 5 of 5 plans are valid and marked constrained', async () => {
    const { results, received } = await plan({ type: 'object', properties: { mood: { type: 'string', enum: ['calm', 'tense', 'grim'] }, ok: { type: 'boolean' } }, required: ['mood', 'ok'], additionalProperties: false }, 5);
    expect(results.map((r) => r.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    for (const r of results) expect(r.planning).toMatchObject({ constrained: true });
    expect(received).toHaveLength(5);
    for (const args of received) {
      expect(['calm', 'tense', 'grim']).toContain(args.mood);
      expect(typeof args.ok).toBe('boolean');
    }
  });

  it('a range the grammar cannot express: each plan is checked, retried once, and the tool never sees an invalid one', async () => {
    const { results, received } = await plan({ type: 'object', properties: { days: { type: 'integer', minimum: 1, maximum: 7 } }, required: ['days'], additionalProperties: false }, 3);
    for (const [i, r] of results.entries()) {
      if (r.planning) {
        // Planned: valid (perhaps after the retry), and what the tool received.
        expect(received).toContainEqual(r.plannedArgs);
        expect((r.plannedArgs as { days: number }).days).toBeGreaterThanOrEqual(1);
        expect((r.plannedArgs as { days: number }).days).toBeLessThanOrEqual(7);
      } else {
        // Not planned: the reason is on the result, and the tool ran as Lumiverse calls it, without arguments.
        expect(r.unplanned, `result ${i}`).toMatch(/^planning failed \((INVALID_ARGUMENTS|INVALID_ARGUMENTS_JSON)\): .*\(asked twice\)$/);
      }
    }
    for (const args of received) {
      if ('days' in args) expect(Number.isInteger(args.days) && (args.days as number) >= 1 && (args.days as number) <= 7).toBe(true);
      else expect(args).toEqual({});
    }
    expect(received).toHaveLength(3);
  });

  it("a prompt tool's completion runs on it too (the sidecar's text)", async () => {
    const text = await llmSidecar(client, profile).complete({ system: 'You are Mira, the Mood Reader.', prompt: 'How tense is the scene?', maxTokens: 12 }, new AbortController().signal);
    expect(text.length).toBeGreaterThan(0);
  });
});
