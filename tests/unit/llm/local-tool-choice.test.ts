// What a local model's engine is asked to force: the tool named, or the only tool when a call is required; over
// several tools `required` leaves the choice to the model (the engine's grammar forces one name), `none` offers none.
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { localLanguageModel, type LocalGenerate } from '../../../electron/core/llm/local-language-model';
import type { GenerateParams } from '../../../shared/local-model/engine-contract';

const tool = (name: string) => ({ type: 'function' as const, name, description: name, inputSchema: { type: 'object', properties: {} } });

async function asked(toolChoice: LanguageModelV3CallOptions['toolChoice'], names: string[]): Promise<GenerateParams> {
  let params: GenerateParams | null = null;
  const generate: LocalGenerate = async (_model, p) => {
    params = p;
    return { ok: true, value: { finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } } } as never;
  };
  const { stream } = await localLanguageModel('m', generate).doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Go.' }] }], tools: names.map(tool), toolChoice } as LanguageModelV3CallOptions);
  const reader = stream.getReader();
  while (!(await reader.read()).done);
  return params!;
}

describe('a local model’s tool choice', () => {
  it('forces the named tool, or the only one when a call is required', async () => {
    expect((await asked({ type: 'tool', toolName: 'b' }, ['a', 'b'])).toolChoice).toEqual({ name: 'b' });
    expect((await asked({ type: 'required' }, ['only'])).toolChoice).toEqual({ name: 'only' });
  });

  it('leaves the choice to the model over several tools or when it decides, and offers none for none', async () => {
    expect((await asked({ type: 'required' }, ['a', 'b'])).toolChoice).toBeUndefined();
    expect((await asked({ type: 'auto' }, ['a'])).toolChoice).toBeUndefined();
    const none = await asked({ type: 'none' }, ['a']);
    expect(none.tools).toBeUndefined();
    expect(none.toolChoice).toBeUndefined();
  });
});
