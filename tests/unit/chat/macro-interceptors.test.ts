// The macro interceptor chain on its own: each interceptor's template goes to the next, then the host's macros run
// on the result; one that fails, answers another shape or too long a text is skipped with a note credited to it;
// a text with no macro is never offered, and what an interceptor does to the environment it is given stays there.
import { describe, expect, it } from 'vitest';
import { macroResolver } from '../../../electron/core/chat/pipeline/macro-catalog';
import { ENV_MESSAGES_CHARS, ENV_MESSAGES_MAX, envMessages } from '../../../electron/core/chat/pipeline/macro-env';
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

describe("the env's extra", () => {
  const history = [
    { id: 'm1', role: 'user', content: 'Where are we?' },
    { id: 'm2', role: 'assistant', content: 'At the pass.' },
  ] as never[];

  it('says the person and the chat’s character (a branch’s origin) to every interceptor, and the messages only to a chat reader', async () => {
    const envs: Array<{ extra: Record<string, unknown> }> = [];
    const { list } = refs([
      (ctx) => (envs.push((ctx as unknown as { env: { extra: Record<string, unknown> } }).env), { ok: true, value: ctx.template }),
      (ctx) => (envs.push((ctx as unknown as { env: { extra: Record<string, unknown> } }).env), { ok: true, value: ctx.template }),
    ]);
    const resolver = macroResolver({ ...base, history, characterId: 'origin-chat', interceptors: list, readsChat: (id) => id === 'ext-1' });
    await resolver.resolve('{{char}}', { chatText: false });
    expect(envs[0]!.extra).toEqual({ userId: 'local', characterId: 'origin-chat', characterTags: [], userInput: '' });
    expect(envs[1]!.extra).toEqual({
      userId: 'local',
      characterId: 'origin-chat',
      characterTags: [],
      userInput: '',
      messages: [
        { content: 'Where are we?', name: session.persona.name, is_user: true },
        { content: 'At the pass.', name: 'Seraphina', is_user: false },
      ],
    });
  });

  it('gives a macro handler the same extra, the session as its own character when no origin is given', async () => {
    const contexts: Array<{ env: { extra: Record<string, unknown> } }> = [];
    const macro = (extensionId: string, name: string) => ({
      extensionId,
      extensionName: extensionId,
      name,
      description: '',
      call: async (context: unknown) => (contexts.push(context as never), { ok: true as const, value: 'x' }),
    });
    const resolver = macroResolver({ ...base, history, extensions: [macro('reader', 'reads'), macro('stranger', 'names')], readsChat: (id) => id === 'reader' });
    await resolver.resolve('{{reads}} {{names}}', { chatText: false });
    expect(contexts.map((c) => c.env.extra.characterId)).toEqual([session.id, session.id]);
    expect(contexts.map((c) => (c.env.extra.messages as unknown[] | undefined)?.length)).toEqual([2, undefined]);
  });

  it("fills the rest of Lumiverse's env: the card's fields, the chat's counts, the turn's model; the chat's last texts only to a chat reader", async () => {
    const envs: Array<Record<string, Record<string, unknown>>> = [];
    const keep = (ctx: unknown) => (envs.push((ctx as { env: Record<string, Record<string, unknown>> }).env), { ok: true as const, value: (ctx as { template: string }).template });
    const { list } = refs([keep, keep]);
    const card = { spec: 'chara_card_v2', data: { first_mes: 'Welcome.', mes_example: '<START>\n{{char}}: Hm.', system_prompt: 'Stay in the story.', post_history_instructions: 'Be brief.', creator_notes: 'For testing.', creator: 'Ana', character_version: '2.1', extensions: { depth_prompt: { prompt: 'Mind the pass.', depth: 4, role: 'system' } } } };
    const carded = { ...session, card, persona: { name: 'Ada', description: 'A traveller.' } };
    const swiped = [history[0], { ...(history[1] as unknown as object), swipes: [{ content: 'At the pass.', createdAt: 1 }, { content: 'Near the pass.', createdAt: 2 }], swipeId: 1 }] as never[];
    const resolver = macroResolver({ ...base, session: carded, history: swiped, turn: { model: 'gpt-test', generationType: 'swipe' }, interceptors: list, readsChat: (id) => id === 'ext-1', mayRead: (id) => id === 'ext-1' });
    await resolver.resolve('{{char}}', { chatText: false });
    const [stranger, reader] = envs;
    // A reader of characters and personas gets the card's and the persona's fields, as the API gives them.
    expect(reader!.character).toMatchObject({ name: 'Seraphina', persona: 'A traveller.', mesExamples: '<START>\n{{char}}: Hm.', systemPrompt: 'Stay in the story.', postHistoryInstructions: 'Be brief.', depthPrompt: 'Mind the pass.', creatorNotes: 'For testing.', creator: 'Ana', version: '2.1', firstMessage: 'Welcome.', personaSubjectivePronoun: 'they' });
    // A stranger gets what the chat's macros show anyone (name, description, greeting), the rest blank.
    expect(stranger!.character).toMatchObject({ name: 'Seraphina', description: session.character.description, firstMessage: 'Welcome.', persona: '', mesExamples: '', systemPrompt: '', postHistoryInstructions: '', depthPrompt: '', creatorNotes: '', creator: '', version: '' });
    expect(stranger!.names).toMatchObject({ char: 'Seraphina', user: 'Ada', notChar: 'Ada', isGroupChat: 'no', groupCardMode: 'solo' });
    expect(stranger!.system).toEqual({ model: 'gpt-test', maxPrompt: 0, maxContext: 0, maxResponse: 0, lastGenerationType: 'swipe', isMobile: false });
    const counts = { id: session.id, messageCount: 2, lastMessageName: 'Seraphina', lastMessageId: 1, firstIncludedMessageId: 0, lastSwipeId: 1, currentSwipeId: 1 };
    expect(stranger!.chat).toMatchObject({ ...counts, lastMessage: '', lastUserMessage: '', lastCharMessage: '' });
    expect(reader!.chat).toMatchObject({ ...counts, lastMessage: 'At the pass.', lastUserMessage: 'Where are we?', lastCharMessage: 'At the pass.' });
    // Outside a turn: no model, a normal generation; an empty chat has no last message.
    envs.length = 0;
    await macroResolver({ ...base, interceptors: list }).resolve('{{char}}', { chatText: false });
    expect(envs[0]!.system).toMatchObject({ model: '', lastGenerationType: 'normal' });
    expect(envs[0]!.chat).toMatchObject({ messageCount: 0, lastMessageId: -1, firstIncludedMessageId: -1, lastMessageName: '' });
  });

  it('carries the latest messages only, within a count and a character budget (one frame to the worker)', () => {
    const names = { char: 'Seraphina', user: 'Ada' };
    const long = Array.from({ length: 40 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `${i}`.padEnd(30_000, '.') }));
    const kept = envMessages(long, names);
    expect(kept.length).toBe(Math.floor(ENV_MESSAGES_CHARS / 30_000));
    expect(kept.at(-1)!.content.startsWith('39')).toBe(true);
    const many = Array.from({ length: ENV_MESSAGES_MAX + 5 }, (_, i) => ({ role: 'user', content: `m${i}` }));
    expect(envMessages(many, names).map((m) => m.content)).toEqual(many.slice(5).map((m) => m.content));
    expect(envMessages([{ role: 'user', content: 'x'.repeat(ENV_MESSAGES_CHARS + 1) }], names)).toEqual([]);
  });
});
