// The content processor chain on its own: each processor's patch applies in turn (text replaced, extra merged); one
// that fails, answers another shape, too long a text or too large an extra is skipped with a log line and the write
// goes on; a swipe's write leaves the message's extra alone.
import { describe, expect, it } from 'vitest';
import { processContent, type ContentWrite } from '../../../electron/core/chat/pipeline/content-processors';
import type { PipelineHandlerRef } from '../../../electron/core/extensions/pipeline/pipeline-bridge';
import { SESSION_LIMITS } from '../../../shared/types/chat';

type Answer = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

function processorsOf(answers: Array<(ctx: Record<string, unknown>) => Answer>): { processors: PipelineHandlerRef[]; seen: Array<Record<string, unknown>> } {
  const seen: Array<Record<string, unknown>> = [];
  const refs: PipelineHandlerRef[] = answers.map((answer, i) => ({
    extensionId: `ext-${i}`,
    extensionName: `Extension ${i}`,
    kind: 'message_content_processor',
    id: `p${i}`,
    priority: i,
    call: async ([ctx]) => {
      seen.push(ctx as Record<string, unknown>);
      return answer(ctx as Record<string, unknown>) as never;
    },
  }));
  return { processors: refs, seen };
}

function logger() {
  const lines: string[] = [];
  return { lines, log: { info: () => undefined, warn: (m: string) => void lines.push(m), error: () => undefined, debug: () => undefined } };
}

const write: ContentWrite = { chatId: 's1', content: 'hello', isUser: true, origin: 'create' };

describe('processContent', () => {
  it('applies each patch in turn: the next sees the text and extra the one before left', async () => {
    const { processors, seen } = processorsOf([
      () => ({ ok: true, value: { content: 'HELLO', extra: { a: 1 } } }),
      () => ({ ok: true, value: undefined }),
      (ctx) => ({ ok: true, value: { content: `${String(ctx.content)}!`, extra: { b: 2 } } }),
    ]);
    const { log } = logger();
    expect(await processContent(processors, write, log)).toEqual({ content: 'HELLO!', extra: { a: 1, b: 2 } });
    expect(seen.map((c) => [c.content, c.extra ?? null, c.origin, c.userId])).toEqual([
      ['hello', null, 'create', 'local'],
      ['HELLO', { a: 1 }, 'create', 'local'],
      ['HELLO', { a: 1 }, 'create', 'local'],
    ]);
  });

  it('skips a processor that fails or answers badly, logs why, and the write goes on', async () => {
    const { processors } = processorsOf([
      () => ({ ok: false, error: { code: 'TOOL_TIMEOUT', message: 'took over 10 s' } }),
      () => ({ ok: true, value: 'not a patch' }),
      () => ({ ok: true, value: { content: 42 } }),
      () => ({ ok: true, value: { content: 'x'.repeat(SESSION_LIMITS.messageContent + 1) } }),
      () => ({ ok: true, value: { extra: ['a list'] } }),
      () => ({ ok: true, value: { extra: { big: 'x'.repeat(300 * 1024) } } }),
      () => ({ ok: true, value: { content: 'kept' } }),
    ]);
    const { log, lines } = logger();
    expect(await processContent(processors, write, log)).toEqual({ content: 'kept' });
    expect(lines.map((l) => l.replace(/^message content processor of (Extension \d) skipped \(create in s1\): /, '$1: '))).toEqual([
      'Extension 0: TOOL_TIMEOUT — took over 10 s',
      'Extension 1: it answered something other than { content?, extra? }',
      'Extension 2: its content was not text',
      `Extension 3: its content was over ${SESSION_LIMITS.messageContent} characters`,
      'Extension 4: its extra was not an object',
      'Extension 5: its extra would be over 262144 characters as JSON',
    ]);
  });

  it("answers only what the processors added to the extra, for the caller to merge onto the message as it is when saved", async () => {
    const { processors, seen } = processorsOf([() => ({ ok: true, value: { extra: { tag: 'x' } } })]);
    const { log } = logger();
    expect(await processContent(processors, { ...write, origin: 'update', messageId: 'm1', extra: { kept: true } }, log)).toEqual({ content: 'hello', extra: { tag: 'x' } });
    expect(seen[0]!.extra).toEqual({ kept: true });
  });

  it("leaves the message's extra alone on a swipe's write", async () => {
    const { processors } = processorsOf([() => ({ ok: true, value: { content: 'swiped', extra: { tag: 1 } } })]);
    const { log } = logger();
    expect(await processContent(processors, { ...write, origin: 'swipe_update', swipeIndex: 1, extra: { kept: true } }, log)).toEqual({ content: 'swiped' });
  });
});
