// A local model as an AI SDK language model (provider spec v3): the prompt and tools go to the built-in engine, its
// text and tool-call chunks come back as stream parts. Everything above the SDK (event order, timeouts, Stop, the
// character cap) is the same as for any connection.
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Prompt, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { HostFailure, type Result } from '../../../shared/errors';
import type { EngineMessage, EngineTable, EngineTool, GenerateChunk, GenerateParams } from '../../../shared/local-model/engine-contract';
import type { ResultOf } from '../../../shared/rpc/endpoint';

export interface LocalGenerateOptions {
  signal?: AbortSignal;
  onChunk(chunk: GenerateChunk): void;
  contextSize?: number;
  gpu?: boolean;
}

/** Runs a local model's generation (the host's built-in engine: electron/core/local-model), by library id. */
export type LocalGenerate = (modelId: string, params: GenerateParams, options: LocalGenerateOptions) => Promise<Result<ResultOf<EngineTable, 'engine.generate'>>>;

function textOf(parts: ReadonlyArray<{ type: string; text?: string }>): string {
  return parts.map((p) => (p.type === 'text' || p.type === 'reasoning' ? (p.text ?? '') : '')).join('');
}

/** The SDK's prompt as the engine's messages. */
export function engineMessages(prompt: LanguageModelV3Prompt): EngineMessage[] {
  const messages: EngineMessage[] = [];
  for (const message of prompt) {
    switch (message.role) {
      case 'system':
        messages.push({ role: 'system', content: message.content });
        break;
      case 'user':
        messages.push({ role: 'user', content: textOf(message.content as Array<{ type: string; text?: string }>) });
        break;
      case 'assistant': {
        const calls = message.content.flatMap((p) => (p.type === 'tool-call' ? [{ id: p.toolCallId, name: p.toolName, argsText: typeof p.input === 'string' ? p.input : JSON.stringify(p.input ?? {}) }] : []));
        messages.push({ role: 'assistant', content: textOf(message.content as Array<{ type: string; text?: string }>), ...(calls.length ? { toolCalls: calls } : {}) });
        break;
      }
      case 'tool':
        for (const part of message.content) {
          if (part.type !== 'tool-result') continue;
          const output = part.output as { type: string; value?: unknown };
          const content = typeof output.value === 'string' ? output.value : JSON.stringify(output.value ?? null);
          messages.push({ role: 'tool', content, toolCallId: part.toolCallId, toolName: part.toolName });
        }
        break;
    }
  }
  return messages;
}

function engineTools(options: LanguageModelV3CallOptions): EngineTool[] | undefined {
  const tools = (options.tools ?? []).flatMap((t) => (t.type === 'function' ? [{ name: t.name, description: t.description ?? '', parameters: t.inputSchema as Record<string, unknown> }] : []));
  return tools.length ? tools : undefined;
}


export function localLanguageModel(modelId: string, generate: LocalGenerate): LanguageModelV3 {
  const doStream: LanguageModelV3['doStream'] = async (options) => {
    const tools = engineTools(options);
    const choice = options.toolChoice;
    // The engine forces one named tool by grammar: `required` over a single tool is that; over several, the model chooses.
    const forced = choice?.type === 'tool' ? choice.toolName : choice?.type === 'required' && tools?.length === 1 ? tools[0]!.name : undefined;
    const params = {
      messages: engineMessages(options.prompt),
      ...(tools && choice?.type !== 'none' ? { tools } : {}),
      ...(forced ? { toolChoice: { name: forced } } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.topP !== undefined ? { topP: options.topP } : {}),
      ...(options.topK !== undefined ? { topK: options.topK } : {}),
      ...(options.frequencyPenalty !== undefined ? { frequencyPenalty: options.frequencyPenalty } : {}),
      ...(options.presencePenalty !== undefined ? { presencePenalty: options.presencePenalty } : {}),
      ...(options.responseFormat?.type === 'json' ? { responseFormat: { type: 'json' as const, ...(options.responseFormat.schema ? { schema: options.responseFormat.schema as Record<string, unknown> } : {}) } } : {}),
      ...(options.maxOutputTokens !== undefined ? { maxTokens: options.maxOutputTokens } : {}),
      ...(options.stopSequences?.length ? { stopSequences: options.stopSequences } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
    };
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        controller.enqueue({ type: 'stream-start', warnings: [] });
        let textOpen = false;
        const closeText = () => {
          if (textOpen) controller.enqueue({ type: 'text-end', id: 'text' });
          textOpen = false;
        };
        const onChunk = (chunk: GenerateChunk) => {
          if (chunk.type === 'text') {
            if (!textOpen) controller.enqueue({ type: 'text-start', id: 'text' });
            textOpen = true;
            controller.enqueue({ type: 'text-delta', id: 'text', delta: chunk.text });
            return;
          }
          closeText();
          controller.enqueue({ type: 'tool-input-start', id: chunk.id, toolName: chunk.name });
          controller.enqueue({ type: 'tool-input-delta', id: chunk.id, delta: chunk.argsText });
          controller.enqueue({ type: 'tool-input-end', id: chunk.id });
          controller.enqueue({ type: 'tool-call', toolCallId: chunk.id, toolName: chunk.name, input: chunk.argsText, providerMetadata: { local: { constrained: chunk.constrained } } });
        };
        void generate(modelId, params, { onChunk, ...(options.abortSignal ? { signal: options.abortSignal } : {}) }).then(
          (result) => {
            closeText();
            if (!result.ok) {
              // The engine's failure keeps its code: the LLM client reports a HostFailure as it is.
              controller.enqueue({ type: 'error', error: new HostFailure(result.error) });
              controller.close();
              return;
            }
            const { finishReason, usage } = result.value;
            controller.enqueue({
              type: 'finish',
              finishReason: { unified: finishReason === 'abort' ? 'other' : finishReason, raw: finishReason },
              usage: {
                inputTokens: { total: usage.inputTokens, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
                outputTokens: { total: usage.outputTokens, text: undefined, reasoning: undefined },
              },
            });
            controller.close();
          },
          (error: unknown) => {
            controller.enqueue({ type: 'error', error });
            controller.close();
          },
        );
      },
    });
    return { stream };
  };

  return {
    specificationVersion: 'v3',
    provider: 'local',
    modelId,
    supportedUrls: {},
    doStream,
    async doGenerate() {
      throw new Error('The local model streams; the Workbench calls doStream only.');
    },
  };
}
