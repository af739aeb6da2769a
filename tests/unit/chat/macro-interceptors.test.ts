// The macro interceptor chain on its own: each interceptor's template goes to the next, then the host's macros run
// on the result; one that fails, answers another shape or too long a text is skipped with a note credited to it;
// a text with no macro is never offered, and what an interceptor does to the environment it is given stays there.
import { describe, expect, it } from 'vitest';
import { macroResolver } from '../../../electron/core/chat/pipeline/macro-catalog';
import type { PipelineHandlerRef } from '../../../electron/core/extensions/pipeline/pipeline-bridge';
import { sessionDocument } from '../../helpers/session-document';

type Answer = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

function refs(answers: Array<(ctx: { template: string; env: { variables: { chat: Record<string, string> } } }) => Answer>) {
  const offered: string[] = [];
  const list: PipelineHandlerRef[] = answers.map((answer, i) => ({
    extensionId: `ext-${i}`,
    extensionName: `Engine ${i}`,
    kind: 'macro_interceptor',
    id: `m${i}`,
    priority: i,
    call: async ([ctx]) => {
      offered.push((ctx as { template: string }).template);
      return answer(ctx as never) as never;
    },
  }));
  return { list, offered };
}

const session = sessionDocument({ metadata: { chat_variables: { mood: 'calm' } } });
const base = { session, history: [], deliberation: '', councilTools: [], extensions: [], commit: true, signal: new AbortController().signal };

describe('the macro interceptor chain', () => {
  it("hands each interceptor the template the one before left, then expands the host's macros", async () => {
    const { list, offered } = refs([
      (ctx) => ({ ok: true, value: ctx.template.replace('[[who]]', '{{char}}') }),
      (ctx) => ({ ok: true, value: { text: `${ctx.template}!`, volatile: true } }),
      () => ({ ok: true, value: undefined }),
    ]);
    const resolver = macroResolver({ ...base, interceptors: list });
    const card = { chatText: false };
    expect(await resolver.resolve('Hello [[who]] {{noop}}', card)).toBe('Hello Seraphina !');
    expect(offered).toEqual(['Hello [[who]] {{noop}}', 'Hello {{char}} {{noop}}', 'Hello {{char}} {{noop}}!']);
    expect(await resolver.resolve('No macro here', card)).toBe('No macro here');
    expect(offered).toHaveLength(3);
  });

  it('skips one that fails, answers another shape or too long a text, with a note credited to it', async () => {
    const { list } = refs([
      () => ({ ok: false, error: { code: 'TOOL_TIMEOUT', message: 'over 5 s' } }),
      () => ({ ok: true, value: 42 }),
      () => ({ ok: true, value: 'x'.repeat(50) }),
      (ctx) => {
        ctx.env.variables.chat.mood = 'stormy';
        return { ok: true, value: `${ctx.template} kept` };
      },
    ]);
    const resolver = macroResolver({ ...base, interceptors: list }, { limits: { maxPasses: 8, maxExpansions: 2000, maxChars: 40 } });
    expect(await resolver.resolve('{{getchatvar::mood}}', { chatText: false })).toBe('calm kept');
    expect(resolver.notes).toEqual([
      { owner: 'Engine 0', text: 'Its macro interceptor was skipped: TOOL_TIMEOUT — over 5 s.' },
      { owner: 'Engine 1', text: 'Its macro interceptor answered something other than a template or { text }; skipped.' },
      { owner: 'Engine 2', text: 'Its macro interceptor answered over 40 characters; skipped.' },
    ]);
  });

  it("gives the chat's own text only to the interceptors of extensions that may read it", async () => {
    const { list, offered } = refs([(ctx) => ({ ok: true, value: `${ctx.template}+0` }), (ctx) => ({ ok: true, value: `${ctx.template}+1` })]);
    const resolver = macroResolver({ ...base, interceptors: list, readsChat: (id) => id === 'ext-1' });
    expect(await resolver.resolve('{{noop}}a message')).toBe('a message+1');
    expect(offered).toEqual(['{{noop}}a message']);
  });
});
