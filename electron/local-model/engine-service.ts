// The engine's work, on node-llama-cpp: one model loaded at a time with one context, generations one after another on
// its sequence, text streamed as it is decoded, tool calls in the model's own format (node-llama-cpp builds their
// grammar from each tool's schema), and a forced call generated wholly under its schema's grammar.
import fs from 'node:fs';
import os from 'node:os';
import type { Llama, LlamaChat, LlamaContext, LlamaModel } from 'node-llama-cpp';
import { HostFailure } from '../../shared/errors';
import type { EngineTable, GenerateChunk, GenerateParams, LoadedModel, ModelFit } from '../../shared/local-model/engine-contract';
import type { TableHandlers } from '../core/rpc/serve-table';
import { toChatHistory } from './engine-history';

type NodeLlamaCpp = typeof import('node-llama-cpp');

interface Loaded {
  info: LoadedModel;
  model: LlamaModel;
  context: LlamaContext;
  chat: LlamaChat;
}

/**
 * A forced call gets at least this many tokens, whatever the caller's limit: a grammar keeps the arguments valid only
 * while they are written, and one cut off by the limit would never close.
 */
const CALL_TOKEN_RESERVE = 256;

/** Without a size asked for: the largest context that fits, up to this (and the model's own). */
const DEFAULT_MAX_CONTEXT = 8192;

const failure = (code: string, message: string, hint?: string) => new HostFailure({ code, message, ...(hint ? { hint } : {}) });

export interface EngineServiceOptions {
  /** Where llama.cpp's own messages go (the engine's stderr). */
  log(line: string): void;
  /** This process's resident memory. */
  residentBytes(): number;
}

export function engineService(options: EngineServiceOptions): TableHandlers<EngineTable> {
  let lib: Promise<{ mod: NodeLlamaCpp; llama: Llama }> | undefined;
  const runtime = () =>
    (lib ??= import('node-llama-cpp').then(async (mod) => {
      // build 'never': the prebuilt binaries from the registry, never a compile or a download at run time.
      const llama = await mod.getLlama({ build: 'never', logLevel: mod.LlamaLogLevel.warn, logger: (_level, message) => options.log(message) });
      return { mod, llama };
    }));
  let loaded: Loaded | null = null;
  /** Loads and generations run one at a time: the model has one sequence. */
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  const unload = async () => {
    const current = loaded;
    loaded = null;
    if (!current) return false;
    await current.context.dispose();
    await current.model.dispose();
    return true;
  };

  const load = async (params: { modelPath: string; contextSize?: number; gpu?: boolean }): Promise<LoadedModel> => {
    if (loaded && loaded.info.path === params.modelPath && (params.contextSize === undefined || params.contextSize === loaded.info.contextSize)) return loaded.info;
    let size: number;
    try {
      size = fs.statSync(params.modelPath).size;
    } catch {
      throw failure('NOT_FOUND', `The model file ${params.modelPath} is not there.`, 'Add it again in Connections → Local models.');
    }
    await unload();
    const started = performance.now();
    const { mod, llama } = await runtime();
    try {
      const model = await llama.loadModel({ modelPath: params.modelPath, gpuLayers: params.gpu === false ? 0 : 'auto' });
      // One thread per core that does math: more (llama.cpp's default counts hyperthreads) spin against each other.
      const threads = Math.max(1, llama.cpuMathCores);
      const context = await model.createContext({ threads, contextSize: params.contextSize ?? { max: Math.min(DEFAULT_MAX_CONTEXT, model.trainContextSize) } }).catch(async (error: unknown) => {
        await model.dispose();
        throw error;
      });
      const chatWrapper = mod.resolveChatWrapper(model);
      const chat = new mod.LlamaChat({ contextSequence: context.getSequence(), ...(chatWrapper ? { chatWrapper } : {}) });
      const info: LoadedModel = {
        path: params.modelPath,
        name: String(model.fileInfo.metadata?.general?.name ?? '') || params.modelPath.split(/[\\/]/).pop()!,
        architecture: String(model.fileInfo.metadata?.general?.architecture ?? 'unknown'),
        trainContextSize: model.trainContextSize,
        contextSize: context.contextSize,
        sizeBytes: size,
        gpu: llama.gpu,
        chatFormat: chat.chatWrapper.wrapperName,
        loadMs: Math.round(performance.now() - started),
      };
      loaded = { info, model, context, chat };
      return info;
    } catch (error) {
      throw failure('LLM_MODEL_LOAD_FAILED', `The model ${params.modelPath} could not be loaded: ${error instanceof Error ? error.message : String(error)}`, 'Check that the file is a complete GGUF, and that this machine has the memory the model needs.');
    }
  };

  const generate = async (params: GenerateParams, signal: AbortSignal, emit: (chunk: GenerateChunk) => void) => {
    const current = loaded;
    if (!current) throw failure('LLM_MODEL_LOAD_FAILED', 'No model is loaded in the engine.');
    const { llama } = await runtime();
    const history = toChatHistory(params.messages);
    const meter = current.chat.sequence.tokenMeter.getState();
    const started = performance.now();
    let firstTokenMs: number | null = null;
    const first = () => (firstTokenMs ??= Math.round((performance.now() - started) * 10) / 10);
    const onText = (text: string) => {
      first();
      if (text) emit({ type: 'text', text });
    };
    const sampling = {
      signal,
      stopOnAbortSignal: true,
      // Without a limit a model that never writes its end token would go on for ever (the context shifts): a reply
      // is at most one context long.
      maxTokens: params.maxTokens ?? current.info.contextSize,
      ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
      ...(params.topP !== undefined ? { topP: params.topP } : {}),
      ...(params.seed !== undefined ? { seed: params.seed } : {}),
      ...(params.topK !== undefined ? { topK: params.topK } : {}),
      ...(params.frequencyPenalty !== undefined || params.presencePenalty !== undefined
        ? { repeatPenalty: { ...(params.frequencyPenalty !== undefined ? { frequencyPenalty: params.frequencyPenalty } : {}), ...(params.presencePenalty !== undefined ? { presencePenalty: params.presencePenalty } : {}) } }
        : {}),
      ...(params.stopSequences?.length ? { customStopTriggers: params.stopSequences } : {}),
    };
    const usage = () => {
      const used = current.chat.sequence.tokenMeter.diff(meter);
      return { inputTokens: used.usedInputTokens, outputTokens: used.usedOutputTokens };
    };
    const forced = typeof params.toolChoice === 'object' ? params.tools?.find((t) => t.name === (params.toolChoice as { name: string }).name) : undefined;
    if (typeof params.toolChoice === 'object' && !forced) throw failure('LLM_REQUEST_REJECTED', `The tool ${params.toolChoice.name} to call is not among the tools offered.`);

    if (forced) {
      // The whole reply is the call's arguments, generated under the grammar of the tool's schema.
      const grammar = await llama.createGrammarForJsonSchema(forced.parameters as never);
      const reply = await current.chat.generateResponse(history, { ...sampling, maxTokens: Math.max(sampling.maxTokens, CALL_TOKEN_RESERVE), grammar, onTextChunk: first });
      if (reply.metadata.stopReason === 'abort') return { finishReason: 'abort' as const, usage: usage(), firstTokenMs };
      emit({ type: 'tool-call', id: `call_${Date.now().toString(36)}`, name: forced.name, argsText: reply.response, constrained: true });
      return { finishReason: reply.metadata.stopReason === 'maxTokens' ? ('length' as const) : ('tool-calls' as const), usage: usage(), firstTokenMs };
    }

    if (params.responseFormat) {
      if (params.tools?.length) throw failure('LLM_REQUEST_REJECTED', 'A local model writes a JSON reply or calls tools, not both in one request.');
      // The whole reply under a grammar: JSON by construction, as a forced call's arguments are.
      const format = params.responseFormat;
      let grammar: Awaited<ReturnType<typeof llama.getGrammarFor>>;
      try {
        grammar = format.schema ? await llama.createGrammarForJsonSchema(format.schema as never) : await llama.getGrammarFor('json');
      } catch (error) {
        // A schema feature the grammar cannot say is the request's, not the engine's.
        throw failure('LLM_REQUEST_REJECTED', `The response schema cannot be made a grammar here: ${error instanceof Error ? error.message : String(error)}`);
      }
      const reply = await current.chat.generateResponse(history, {
        ...sampling,
        grammar,
        onTextChunk: onText,
      });
      const stop = reply.metadata.stopReason;
      return { finishReason: stop === 'maxTokens' ? ('length' as const) : stop === 'abort' ? ('abort' as const) : ('stop' as const), usage: usage(), firstTokenMs };
    }

    const functions = params.tools?.length ? Object.fromEntries(params.tools.map((t) => [t.name, { description: t.description, params: t.parameters as never }])) : undefined;
    const reply = await current.chat.generateResponse(history, {
      ...sampling,
      ...(functions ? { functions } : {}),
      onTextChunk: onText,
    });
    const calls = reply.functionCalls ?? [];
    calls.forEach((call, index) => emit({ type: 'tool-call', id: `call_${index}_${Date.now().toString(36)}`, name: call.functionName, argsText: JSON.stringify(call.params ?? {}), constrained: true }));
    const stop = reply.metadata.stopReason;
    const finishReason = calls.length > 0 ? 'tool-calls' : stop === 'maxTokens' ? 'length' : stop === 'abort' ? 'abort' : 'stop';
    return { finishReason: finishReason as 'stop' | 'length' | 'tool-calls' | 'abort', usage: usage(), firstTokenMs };
  };

  const fit = async (params: { source: string; contextSize?: number }): Promise<ModelFit> => {
    const { mod, llama } = await runtime();
    let info: Awaited<ReturnType<NodeLlamaCpp['readGgufFileInfo']>>;
    try {
      info = await mod.readGgufFileInfo(params.source, { readTensorInfo: true, logWarnings: false, fetchRetryOptions: { retries: 0 } });
    } catch (error) {
      throw failure('LLM_MODEL_LOAD_FAILED', `The header of ${params.source} could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
    const insights = await mod.GgufInsights.from(info, llama);
    const contextSize = params.contextSize ?? Math.min(DEFAULT_MAX_CONTEXT, insights.trainContextSize ?? DEFAULT_MAX_CONTEXT);
    const scored = await insights.configurationResolver.scoreModelConfigurationCompatibility({ contextSize, forceStrictContextSize: true });
    const v = scored.resolvedValues;
    const freeRam = (await llama.getRamState?.())?.free ?? os.freemem();
    const general = (info.metadata as { general?: { name?: unknown; architecture?: unknown } }).general ?? {};
    // No fit: node-llama-cpp finds no configuration, or the model needs more memory than the machine has at all.
    const verdict = scored.compatibilityScore === 0 || v.totalRamUsage > os.totalmem() ? 'no-fit' : llama.gpu !== false && v.gpuLayers >= insights.totalLayers ? 'gpu' : 'cpu';
    return {
      verdict,
      name: String(general.name ?? ''),
      architecture: String(general.architecture ?? 'unknown'),
      sizeBytes: Math.round(insights.modelSize),
      trainContextSize: insights.trainContextSize ?? null,
      contextSize: v.contextSize,
      gpuLayers: v.gpuLayers,
      totalLayers: insights.totalLayers,
      ramBytes: Math.round(v.totalRamUsage),
      vramBytes: Math.round(v.totalVramUsage),
      freeRamBytes: Math.round(freeRam),
      gpu: llama.gpu,
    };
  };

  return {
    'engine.fit': (params) => fit(params),
    'engine.load': (params) => serially(() => load(params)),
    'engine.generate': (params, { signal, emit }) => serially(() => generate(params, signal, emit).catch((error: unknown) => Promise.reject(generationFailure(error, loaded)))),
    'engine.unload': () => serially(async () => ({ unloaded: await unload() })),
    'engine.status': () => ({ model: loaded?.info ?? null, residentBytes: options.residentBytes() }),
  };
}

/** What node-llama-cpp threw while generating, as the model's error with its code (not a bug of ours). */
function generationFailure(error: unknown, loaded: Loaded | null): unknown {
  if (error instanceof HostFailure) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/context (shift|size)|does not fit|too long/i.test(message)) {
    return failure('LLM_REQUEST_REJECTED', `The conversation and its tools do not fit in the model's context of ${loaded?.info.contextSize ?? '?'} tokens.`, 'Shorten the conversation or the tools offered, or use a model with a larger context.');
  }
  return failure('LLM_BAD_RESPONSE', `The local model failed while generating: ${message}`);
}
