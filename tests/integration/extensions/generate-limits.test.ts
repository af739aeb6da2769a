// spindle.generate's caps and aborts with a real worker and the real local LLM server: past its concurrency or per-minute
// share a generation waits its turn (generation-queue.test.ts times it), timeout, cancel from the extension, stop and crash.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectionProfile } from '../../../shared/types/llm';
import { MemorySecretStore } from '../../../electron/core/connections/secret-store';
import { Redactor } from '../../../electron/core/connections/redact';
import { ExtensionManager } from '../../../electron/core/extensions/extension-manager';
import type { GenerationLimits } from '../../../electron/core/extensions/spindle-host/generation-gate';
import { NodeLauncher } from '../../../electron/core/extensions/workers/launcher';
import { createExtensionGenerator } from '../../../electron/core/generation/extension-generator';
import { LlmClient } from '../../../electron/core/llm/client';
import { withSidecarDefaults } from '../../../electron/core/llm/sidecar-config';
import type { ExecuteResult } from '../../../electron/core/registry-port';
import { LlmTestServer } from '../../fixtures/llm-server';
import { FAST, FakeSink, fixture, MemoryState, request, RUNTIME, tempDir, waitFor } from './harness';

const ID = 'generator';
let server: LlmTestServer;
const managers: ExtensionManager[] = [];

beforeEach(async () => {
  server = await LlmTestServer.start();
});

afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
  await server.close();
});

async function setup(limits: Partial<GenerationLimits>) {
  const redactor = new Redactor();
  const llm = new LlmClient({ secrets: new MemorySecretStore(redactor), redactor, env: {}, maxRetries: 0 });
  const profile: ConnectionProfile = { id: 'local', name: 'Local', provider: 'openai-compatible', baseUrl: `${server.origin}/v1`, defaultModel: 'test-model', headers: {} };
  const sink = new FakeSink();
  const manager = new ExtensionManager({
    dataDir: tempDir('generate'),
    bundledDir: null,
    launcher: new NodeLauncher(),
    workerEntry: RUNTIME,
    sink,
    state: new MemoryState(),
    worker: FAST,
    restart: { baseDelayMs: 50 },
    generator: createExtensionGenerator({
      llm,
      sidecarConfig: () => withSidecarDefaults({ connectionProfileId: 'local' }),
      profile: (id) => {
        if (id !== 'local') throw new Error(`no ${id}`);
        return profile;
      },
      chatSettings: () => ({ mainConnectionId: 'local', model: '' }),
    }),
    redactor,
    generation: limits,
  });
  managers.push(manager);
  await manager.init();
  await manager.installFromFolder(fixture(ID), { grant: ['tools', 'generation'] });
  await waitFor(() => sink.names(ID).includes('quiet'), 'the fixture tools');
  const quiet = (args: Record<string, unknown> = {}, extra: Parameters<typeof request>[2] = {}): Promise<ExecuteResult> =>
    sink.executor(ID, 'quiet').execute(request('quiet', { input: { prompt: 'Go.' }, ...args }, extra));
  return { manager, sink, quiet };
}

const answerOf = (result: ExecuteResult) => {
  if (!result.ok) throw new Error(`tool failed: ${JSON.stringify(result.error)}`);
  // The tool answers with the model's text: its JSON.
  return JSON.parse(result.value as string) as { ok: boolean; value?: unknown; error?: { code: string; message: string; hint?: string } };
};

describe('spindle.generate caps', () => {
  it('a third concurrent generation waits for its turn and starts when one ends; stopping the extension aborts the running and the waiting', async () => {
    const t = await setup({ maxConcurrent: 2 });
    server.enqueue({ text: ['a', 'b'], stallAfter: 1 }, { text: ['a', 'b'], stallAfter: 1 }, { text: 'three' });
    const controller = new AbortController();
    const first = t.quiet({ passSignal: true }, { signal: controller.signal });
    const second = t.quiet();
    await waitFor(() => server.generations.length === 2, 'two generations on the server');
    const third = t.quiet();
    await waitFor(() => t.manager.getLogLines(ID).some((l) => l.includes('generate.quiet waits for its turn')), 'the third to wait');
    expect(server.generations).toHaveLength(2);
    controller.abort();
    expect(await first).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(answerOf(await third)).toEqual({ ok: true, value: 'three' });
    server.enqueue({ text: ['a', 'b'], stallAfter: 1 });
    const fourth = t.quiet();
    const fifth = t.quiet();
    await waitFor(() => server.generations.length === 4, 'the fourth on the server');
    await waitFor(() => t.manager.getLogLines(ID).filter((l) => l.includes('waits for its turn')).length === 2, 'the fifth to wait');
    await t.manager.disable(ID);
    await waitFor(() => server.clientAborts === 3, 'the running requests aborted on the wire');
    // The tool calls themselves end with the worker; the one that waited never reached the server.
    for (const call of [second, fourth, fifth]) expect((await call).ok).toBe(false);
    expect(server.generations).toHaveLength(4);
  });

  it('past maxPerMinute starts a generation waits for the minute instead of being refused', async () => {
    const t = await setup({ maxPerMinute: 2 });
    server.enqueue({ text: 'one' }, { text: 'two' });
    expect(answerOf(await t.quiet())).toEqual({ ok: true, value: 'one' });
    expect(answerOf(await t.quiet())).toEqual({ ok: true, value: 'two' });
    const third = t.quiet();
    await waitFor(() => t.manager.getLogLines(ID).some((l) => l.includes('generate.quiet waits for its turn')), 'the third to wait');
    expect(server.generations).toHaveLength(2);
    await t.manager.disable(ID);
    expect((await third).ok).toBe(false);
    expect(server.generations).toHaveLength(2);
  });

  it('a generation past its timeout is aborted with LLM_TIMEOUT', async () => {
    const t = await setup({ timeoutMs: 300 });
    server.enqueue({ text: ['a', 'b'], stallAfter: 1 });
    expect(answerOf(await t.quiet())).toMatchObject({ ok: false, error: { code: 'LLM_TIMEOUT' } });
    await waitFor(() => server.clientAborts === 1, 'the request aborted on the wire');
    expect(t.manager.getLogLines(ID).join('\n')).toMatch(/generate\.quiet aborted: LLM_TIMEOUT/);
  });

  it("the extension's AbortSignal cancels its generation on the host", async () => {
    const t = await setup({});
    server.enqueue({ text: ['a', 'b'], stallAfter: 1 });
    const controller = new AbortController();
    const call = t.quiet({ passSignal: true }, { signal: controller.signal });
    await waitFor(() => server.generations.length === 1, 'the generation on the server');
    controller.abort();
    expect(await call).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    await waitFor(() => server.clientAborts === 1, 'the request aborted on the wire');
    await waitFor(() => t.manager.getLogLines(ID).some((l) => l.includes('generate.quiet cancelled by the extension')), 'the cancel in the log');
  });

  it('a worker that dies mid-generation has its generation aborted', async () => {
    const t = await setup({});
    server.enqueue({ text: ['a', 'b'], stallAfter: 1 });
    const call = t.quiet({ exitAfterMs: 300 });
    expect(await call).toMatchObject({ ok: false, error: { code: 'WORKER_CRASHED' } });
    await waitFor(() => server.clientAborts === 1, 'the request aborted on the wire');
    expect(server.generations).toHaveLength(1);
  });
});
