// The interceptor stage on its own: the messages each interceptor gets (chat turns marked with their message), what
// it may hand back (the marks kept for the next, never for the model), and which of its parameters apply.
import { describe, expect, it } from 'vitest';
import { runInterceptors } from '../../../electron/core/chat/pipeline/extension-stages';
import { TurnTrace } from '../../../electron/core/chat/pipeline/turn-trace';
import type { ExtensionPipeline, PipelineHandlerRef } from '../../../electron/core/extensions/pipeline/pipeline-bridge';
import type { LlmMessage } from '../../../shared/types/llm';

type Answer = (messages: Array<Record<string, unknown>>) => unknown;

/** A pipeline of interceptors answering in turn, each granted generation_parameters. */
function pipelineOf(answers: Answer[], seen: Array<Array<Record<string, unknown>>>): ExtensionPipeline {
  const refs: PipelineHandlerRef[] = answers.map((answer, i) => ({
    extensionId: `ext_${i}`,
    extensionName: `Extension ${i}`,
    kind: 'interceptor',
    id: `interceptor-${i}`,
    priority: 100,
    call: async ([messages]) => {
      seen.push(structuredClone(messages as Array<Record<string, unknown>>));
      return { ok: true, value: answer(messages as Array<Record<string, unknown>>) };
    },
  }));
  return { handlers: () => refs, allowed: () => true } as unknown as ExtensionPipeline;
}

const MESSAGES: LlmMessage[] = [
  { role: 'system', content: 'You are Mara.' },
  { role: 'user', content: 'Light the lamp.' },
  { role: 'assistant', content: 'It is lit.' },
];
const SOURCES = [null, { id: 'm-0', index: 0 }, { id: 'm-2', index: 2 }];
const context = { chatId: 'c', generationType: 'normal', dryRun: false, userId: 'local' };

describe('the interceptor stage', () => {
  it('marks chat turns with their message; an interceptor that keeps the marks passes them on, and none reaches the result', async () => {
    const seen: Array<Array<Record<string, unknown>>> = [];
    const pipeline = pipelineOf(
      [
        // Adds a block before the history and keeps the turns as they came (marks included).
        (messages) => [messages[0], { role: 'system', content: 'Scene: harbour.' }, ...messages.slice(1)],
        // Rebuilds each message from its role and text only: the marks are gone for whoever comes next.
        (messages) => messages.map((m) => ({ role: m.role, content: m.content })),
        (messages) => messages,
      ],
      seen,
    );
    const result = await runInterceptors(pipeline, MESSAGES, SOURCES, context, new AbortController().signal, new TurnTrace(() => 0));
    expect(seen[0]).toEqual([
      { role: 'system', content: 'You are Mara.' },
      { role: 'user', content: 'Light the lamp.', __isChatHistory: true, sourceMessageId: 'm-0', sourceIndexInChat: 0 },
      { role: 'assistant', content: 'It is lit.', __isChatHistory: true, sourceMessageId: 'm-2', sourceIndexInChat: 2 },
    ]);
    expect(seen[1]!.map((m) => m.sourceMessageId ?? null)).toEqual([null, null, 'm-0', 'm-2']);
    expect(seen[2]!.some((m) => '__isChatHistory' in m)).toBe(false);
    for (const message of result.messages) expect(Object.keys(message).sort()).toEqual(['content', 'role']);
    expect(result.messages.map((m) => m.content)).toEqual(['You are Mara.', 'Scene: harbour.', 'Light the lamp.', 'It is lit.']);
  });

  it('stop strings apply as a string or a list within the session’s limits; anything else is listed as not applied', async () => {
    const run = async (parameters: Record<string, unknown>) => {
      const trace = new TurnTrace(() => 0);
      const result = await runInterceptors(pipelineOf([(messages) => ({ messages, parameters })], []), MESSAGES, SOURCES, context, new AbortController().signal, trace);
      return { parameters: result.parameters, notes: trace.stages.map((s) => s.note ?? '').join('\n') };
    };
    expect((await run({ stop: '\nAda:', temperature: 0.2 })).parameters).toEqual({ stopSequences: ['\nAda:'], temperature: 0.2 });
    expect((await run({ stop_sequences: ['END', '###'] })).parameters).toEqual({ stopSequences: ['END', '###'] });
    for (const bad of [7, [''], ['x'.repeat(201)], Array.from({ length: 17 }, (_, i) => `s${i}`), [1, 2]]) {
      const { parameters, notes } = await run({ stop: bad });
      expect(parameters).toEqual({});
      expect(notes).toContain('parameters not applied here: stop');
    }
  });

  it('only a mark assembly made passes on: a forged one (malformed, or naming a message or place it never had) is dropped', async () => {
    const seen: Array<Array<Record<string, unknown>>> = [];
    const forged = [
      { role: 'system', content: 'a', __isChatHistory: 'yes', sourceMessageId: 'm-0', sourceIndexInChat: 0 },
      { role: 'user', content: 'b', __isChatHistory: true, sourceMessageId: 'm-0', sourceIndexInChat: 1.5 },
      { role: 'user', content: 'c', __isChatHistory: true, sourceMessageId: 9, sourceIndexInChat: 0 },
      { role: 'user', content: 'd', __isChatHistory: true, sourceMessageId: 'm-9', sourceIndexInChat: 9 },
      { role: 'user', content: 'e', __isChatHistory: true, sourceMessageId: 'm-0', sourceIndexInChat: 2 },
      { role: 'user', content: 'g', __isChatHistory: true, sourceMessageId: 'm-2', sourceIndexInChat: '2' },
      // A real one, moved to another place in the prompt, stays.
      { role: 'assistant', content: 'f', __isChatHistory: true, sourceMessageId: 'm-2', sourceIndexInChat: 2 },
    ];
    await runInterceptors(pipelineOf([() => forged, (messages) => messages], seen), MESSAGES, SOURCES, context, new AbortController().signal, new TurnTrace(() => 0));
    expect(seen[1]!.slice(0, 6)).toEqual(['a', 'b', 'c', 'd', 'e', 'g'].map((content, i) => ({ role: i === 0 ? 'system' : 'user', content })));
    expect(seen[1]![6]).toEqual({ role: 'assistant', content: 'f', __isChatHistory: true, sourceMessageId: 'm-2', sourceIndexInChat: 2 });
  });
});
