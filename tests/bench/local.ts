// Local model benchmark: the built-in engine (its own process, the built engine.js, on the engine link) beside
// node-llama-cpp called directly in this process, on the same tiny random-weight GGUF with the same settings, rounds
// alternating: tokens per second, Send → first token of a loaded model, and the resident memory of the idle engine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getLlama, LlamaChat, resolveChatWrapper } from 'node-llama-cpp';
import { nodeEngineLauncher } from '../../electron/core/local-model/engine-launcher';
import { LocalEngine } from '../../electron/core/local-model/local-engine';
import { builtCli } from '../helpers/built-cli';
import { writeTinyGguf } from '../fixtures/local-model/tiny-gguf';
import { median, round, table } from './stats';

const ROUNDS = 7;
const TOKENS = 200;
const CONTEXT = 1024;
const PROMPT = 'The lamp room is dark and the storm is loud. Tell me what happens next.';

interface Sample {
  tokensPerSecond: number;
  firstTokenMs: number;
}

export async function localBenchmark(opts: { json: boolean }): Promise<unknown> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-bench-local-'));
  const model = writeTinyGguf(path.join(dir, 'tiny.gguf'));
  // The engine as the app runs it: built into out/node beside the CLI.
  const entry = path.join(path.dirname(builtCli()), 'engine.js');
  const engine = new LocalEngine({ entry, launch: nodeEngineLauncher });

  const llama = await getLlama({ build: 'never' });
  const direct = await llama.loadModel({ modelPath: model });
  const context = await direct.createContext({ contextSize: CONTEXT, threads: Math.max(1, llama.cpuMathCores) });
  const chat = new LlamaChat({ contextSequence: context.getSequence(), chatWrapper: resolveChatWrapper(direct)! });

  const viaDirect = async (seed: number): Promise<Sample> => {
    const sent = performance.now();
    let first = 0;
    const meter = chat.sequence.tokenMeter.getState();
    await chat.generateResponse([{ type: 'user', text: PROMPT }], { maxTokens: TOKENS, temperature: 0.7, topP: 0.9, seed, onTextChunk: () => void (first ||= performance.now()) });
    const seconds = (performance.now() - sent) / 1000;
    return { tokensPerSecond: chat.sequence.tokenMeter.diff(meter).usedOutputTokens / seconds, firstTokenMs: first - sent };
  };
  const viaEngine = async (seed: number): Promise<Sample> => {
    const sent = performance.now();
    let first = 0;
    const result = await engine.generate(model, { messages: [{ role: 'user', content: PROMPT }], maxTokens: TOKENS, temperature: 0.7, topP: 0.9, seed }, { contextSize: CONTEXT, onChunk: () => void (first ||= performance.now()) });
    if (!result.ok) throw new Error(`the engine failed: ${JSON.stringify(result.error)}`);
    const seconds = (performance.now() - sent) / 1000;
    return { tokensPerSecond: result.value.usage.outputTokens / seconds, firstTokenMs: first - sent };
  };

  try {
    const loaded = await engine.load(model, { contextSize: CONTEXT });
    if (!loaded.ok) throw new Error(`the engine could not load the model: ${JSON.stringify(loaded.error)}`);
    // One of each first, not counted (the first generation of a context warms its buffers).
    await viaDirect(1);
    await viaEngine(1);
    const directRuns: Sample[] = [];
    const engineRuns: Sample[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      directRuns.push(await viaDirect(i + 2));
      engineRuns.push(await viaEngine(i + 2));
    }
    const status = await engine.status();
    const tps = (runs: Sample[]) => median(runs.map((r) => r.tokensPerSecond));
    const firstMs = (runs: Sample[]) => median(runs.map((r) => r.firstTokenMs));
    const rows = [
      { what: `node-llama-cpp in this process (baseline): tokens/s, ${TOKENS} tokens`, median: round(tps(directRuns), 0) },
      { what: 'through the Workbench engine (own process, engine link): tokens/s', median: round(tps(engineRuns), 0) },
      { what: '  ratio (target ≥ 0.95)', median: round(tps(engineRuns) / tps(directRuns), 2) },
      { what: 'Send → first token, node-llama-cpp in this process (baseline), ms', median: round(firstMs(directRuns), 1) },
      { what: 'Send → first token, through the engine, ms', median: round(firstMs(engineRuns), 1) },
      { what: '  difference (target ≤ +20 ms)', median: round(firstMs(engineRuns) - firstMs(directRuns), 1) },
      { what: 'resident memory of the idle engine, model loaded, MB', median: round((status?.residentBytes ?? 0) / 1024 / 1024, 0) },
    ];
    if (!opts.json) console.log(table(rows));
    return { rounds: ROUNDS, tokens: TOKENS, rows };
  } finally {
    engine.dispose();
    await context.dispose();
    await direct.dispose();
    await llama.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
