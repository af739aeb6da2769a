// The local model engine as the host runs it: a process of its own (node-llama-cpp) on the declared engine link, on a
// tiny random-weight GGUF that the test writes. It loads, streams, stops, answers bad input with codes, constrains a
// forced call to its schema, and a crash fails the call in flight while the host goes on.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerateChunk } from '../../../shared/local-model/engine-contract';
import { engineSourceEntry, nodeEngineLauncher } from '../../../electron/core/local-model/engine-launcher';
import { LocalEngine } from '../../../electron/core/local-model/local-engine';
import { writeTinyGguf } from '../../fixtures/local-model/tiny-gguf';
import { alive } from '../../helpers/process-alive';

let dir: string;
let model: string;
let engine: LocalEngine;
const warnings: string[] = [];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-engine-'));
  model = writeTinyGguf(path.join(dir, 'tiny.gguf'));
  engine = new LocalEngine({ entry: engineSourceEntry(), launch: nodeEngineLauncher, log: { info() {}, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) } });
});

afterAll(() => {
  engine?.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ask = (text: string) => ({ messages: [{ role: 'system' as const, content: 'You are terse.' }, { role: 'user' as const, content: text }] });

// Generations on the CPU from the tiny GGUF: each test's bound is for a loaded 2-core machine (the suite beside other
// work took over 20 s for five plans), not a figure.
describe('the local model engine', { timeout: 120_000 }, () => {
  it('loads the GGUF in its own process and streams a reply, with its usage and end', async () => {
    const loaded = await engine.load(model, { contextSize: 1024 });
    expect(loaded).toMatchObject({ ok: true, value: { architecture: 'llama', name: 'tiny-random-llama', contextSize: 1024, gpu: false, chatFormat: 'ChatML' } });
    expect(engine.pid).toBeGreaterThan(0);
    expect(engine.pid).not.toBe(process.pid);
    const chunks: GenerateChunk[] = [];
    const result = await engine.generate(model, { ...ask('Hello'), maxTokens: 16, temperature: 0.7, topP: 0.9 }, { contextSize: 1024, onChunk: (c) => chunks.push(c) });
    expect(result).toMatchObject({ ok: true, value: { finishReason: 'length', usage: { outputTokens: 16 } } });
    if (!result.ok) return;
    expect(result.value.usage.inputTokens).toBeGreaterThan(5);
    expect(result.value.firstTokenMs).toBeGreaterThan(0);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((c) => c.type === 'text' && c.text.length > 0)).toBe(true);
    const status = await engine.status();
    expect(status?.model?.path).toBe(model);
    expect(status?.residentBytes).toBeGreaterThan(1_000_000);
  });

  it('Stop: an aborted generation answers CANCELLED at once, and the engine answers the next one', async () => {
    const controller = new AbortController();
    let seen = 0;
    const stopped = engine.generate(model, { ...ask('Go on'), maxTokens: 2000 }, { contextSize: 1024, signal: controller.signal, onChunk: () => ++seen === 2 && controller.abort() });
    expect(await stopped).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    const next = await engine.generate(model, { ...ask('Again'), maxTokens: 4 }, { contextSize: 1024, onChunk: () => undefined });
    expect(next).toMatchObject({ ok: true, value: { finishReason: 'length' } });
  });

  it('bad input gets a code and the field; a missing or broken model file gets its own; the engine lives on', async () => {
    expect(await engine.generate(model, { ...ask('x'), temperature: 5 }, { contextSize: 1024, onChunk: () => undefined })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/temperature' } });
    expect(await engine.load(path.join(dir, 'absent.gguf'))).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    const broken = path.join(dir, 'broken.gguf');
    fs.writeFileSync(broken, fs.readFileSync(model).subarray(0, 4096));
    expect(await engine.load(broken)).toMatchObject({ ok: false, error: { code: 'LLM_MODEL_LOAD_FAILED' } });
    expect(await engine.generate(model, { ...ask('Still here?'), maxTokens: 3 }, { contextSize: 1024, onChunk: () => undefined })).toMatchObject({ ok: true });
    // A system prompt longer than the context is the request's fault, said as such (not an engine bug).
    expect(await engine.generate(model, { messages: [{ role: 'system', content: 'Rule. '.repeat(800) }, { role: 'user', content: 'Hi' }], maxTokens: 3 }, { contextSize: 1024, onChunk: () => undefined })).toMatchObject({ ok: false, error: { code: 'LLM_REQUEST_REJECTED', message: expect.stringContaining('context of 1024 tokens') } });
    // A JSON reply and tools in one request: the engine cannot do both, and says so.
    const tool = { name: 'set_mood', description: 'Sets the mood.', parameters: { type: 'object', properties: {} } };
    expect(await engine.generate(model, { ...ask('Both?'), tools: [tool], responseFormat: { type: 'json' }, maxTokens: 3 }, { contextSize: 1024, onChunk: () => undefined })).toMatchObject({ ok: false, error: { code: 'LLM_REQUEST_REJECTED', message: expect.stringContaining('not both') } });
    expect(await engine.generate(model, { ...ask('x'), responseFormat: { type: 'yaml' } as never }, { contextSize: 1024, onChunk: () => undefined })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/responseFormat/type' } });
    expect(warnings.filter((w) => w.includes('Engine bug'))).toEqual([]);
  });

  it('a forced call is generated under its schema: every plan from random weights is valid for a schema the grammar expresses', async () => {
    const tool = {
      name: 'set_mood',
      description: 'Sets the mood.',
      parameters: { type: 'object', properties: { mood: { type: 'string', enum: ['calm', 'tense', 'grim'] }, ok: { type: 'boolean' } }, required: ['mood', 'ok'], additionalProperties: false },
    };
    for (let seed = 1; seed <= 5; seed++) {
      const chunks: GenerateChunk[] = [];
      const result = await engine.generate(model, { ...ask('Plan the call.'), tools: [tool], toolChoice: { name: 'set_mood' }, maxTokens: 64, seed, temperature: 1 }, { contextSize: 1024, onChunk: (c) => chunks.push(c) });
      expect(result).toMatchObject({ ok: true, value: { finishReason: 'tool-calls' } });
      expect(chunks).toHaveLength(1);
      const call = chunks[0]!;
      expect(call).toMatchObject({ type: 'tool-call', name: 'set_mood', constrained: true });
      const args = JSON.parse((call as { argsText: string }).argsText) as { mood: string; ok: boolean };
      expect(['calm', 'tense', 'grim']).toContain(args.mood);
      expect(typeof args.ok).toBe('boolean');
      expect(Object.keys(args).sort()).toEqual(['mood', 'ok']);
    }
  });

  it('a forced call is given the tokens it needs to close, whatever the limit asked for', async () => {
    const tool = { name: 'set_mood', description: 'Sets the mood.', parameters: { type: 'object', properties: { mood: { type: 'string', enum: ['calm', 'tense', 'grim'] }, ok: { type: 'boolean' } }, required: ['mood', 'ok'], additionalProperties: false } };
    const chunks: GenerateChunk[] = [];
    // 8 tokens cannot hold {"mood":"tense","ok":true} in a byte vocabulary: the reserve lets the call finish.
    const result = await engine.generate(model, { ...ask('Plan the call.'), tools: [tool], toolChoice: { name: 'set_mood' }, maxTokens: 8, seed: 3 }, { contextSize: 1024, onChunk: (c) => chunks.push(c) });
    expect(result).toMatchObject({ ok: true, value: { finishReason: 'tool-calls' } });
    expect(result.ok && result.value.usage.outputTokens).toBeGreaterThan(8);
    expect(JSON.parse((chunks[0] as { argsText: string }).argsText)).toMatchObject({ mood: expect.any(String), ok: expect.any(Boolean) });
  });

  it('a crash fails the generation in flight with LLM_ENGINE_CRASHED; the next call starts a new engine', async () => {
    const first = engine.pid!;
    let killed = false;
    const result = await engine.generate(model, { ...ask('Long story'), maxTokens: 5000 }, {
      contextSize: 1024,
      onChunk: () => {
        if (killed) return;
        killed = true;
        process.kill(first, 'SIGKILL');
      },
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'LLM_ENGINE_CRASHED' } });
    expect(warnings.some((w) => w.includes('SIGKILL'))).toBe(true);
    const again = await engine.generate(model, { ...ask('Back?'), maxTokens: 3 }, { contextSize: 1024, onChunk: () => undefined });
    expect(again).toMatchObject({ ok: true });
    expect(engine.pid).not.toBe(first);
  });

  it('after its idle time without a call the engine ends, its model with it; a call meanwhile keeps it', async () => {
    const due: Array<() => void> = [];
    const timers = { setTimeout: (fn: () => void) => due.push(fn), clearTimeout: () => undefined };
    const idle = new LocalEngine({ entry: engineSourceEntry(), launch: nodeEngineLauncher, idleMs: 60_000, timers });
    try {
      expect(await idle.load(model, { contextSize: 512 })).toMatchObject({ ok: true });
      const pid = idle.pid!;
      // A call started before the timer fires: the timer that fires during it does not end the engine.
      const during = idle.generate(model, { ...ask('Hi'), maxTokens: 3 }, { contextSize: 512, onChunk: () => undefined });
      due.splice(0).forEach((fire) => fire());
      expect(await during).toMatchObject({ ok: true });
      expect(idle.pid).toBe(pid);
      // Idle after it: the timer armed at its end ends the process.
      due.splice(0).forEach((fire) => fire());
      expect(idle.pid).toBeUndefined();
      expect(await idle.status()).toBeNull();
      await expect.poll(() => alive(pid)).toBe(false);
    } finally {
      idle.dispose();
    }
  });
});

