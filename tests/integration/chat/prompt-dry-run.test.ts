// spindle.generate.dryRun, as Megumin Suite's prompt preview and LumiAgent's dry_run_prompt call it: a Lumiverse-style
// extension asks for the prompt the chat's next generation would send, and gets it built as a turn builds it (the
// chosen preset, world info, its own interceptor filling placeholders, told isDryRun), with nothing sent to the model,
// nothing saved and no generation announced. Bad asks get stable codes; a dry run asked for from inside one is refused.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatSession } from '../../../shared/types/chat';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { addMainConnection, chatRig, finished, newSession, type ChatRig } from './helpers';

const FIXTURE = path.resolve('tests/fixtures/extensions/lumiverse_preset_engine');
let rig: ChatRig;

beforeEach(async () => {
  rig = await chatRig();
  await addMainConnection(rig);
});
afterEach(async () => {
  await rig.close();
  cleanupTempDirs();
});

const LOOM = {
  name: 'Engine Suite',
  description: 'A Megumin-style preset',
  blocks: [
    { id: 'main', name: 'Main Prompt', marker: 'main_prompt', content: 'You are [[prompt1]] for {{char}} and {{user}}.' },
    { id: 'wi', name: 'World Info', marker: 'world_info_before' },
    { id: 'hist', name: 'Chat History', marker: 'chat_history' },
    // Only when the person swipes for another reply (Lumiverse's injection trigger).
    { id: 'swipe-only', name: 'Another take', role: 'system', content: 'Take it another way.', injectionTrigger: ['swipe'] },
  ],
};

async function install(grant: string[]): Promise<void> {
  const installed = await rig.call('extensions.install', { folder: FIXTURE, grant, trust: true });
  if (!installed.ok) throw new Error(JSON.stringify(installed.error));
  await rig.host.extensions.whenSettled();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the extension's answers, read as JSON
async function tool(name: string, args: Record<string, unknown> = {}): Promise<any> {
  const answer = await rig.host.registry.invoke(`lumiverse_preset_engine:${name}`, args, { timeoutMs: 20_000 });
  if (!answer.ok) throw new Error(JSON.stringify(answer));
  return JSON.parse(answer.content);
}

/** A session with one finished exchange, the person's line mentioning the lamp its world info keys on. */
async function chatWithOneTurn(): Promise<string> {
  const sessionId = await newSession(rig, {
    character: { name: 'Seraphina', description: 'A guardian of the glade.', personality: '', scenario: '' },
    persona: { name: 'Ada', description: '' },
    worldInfo: [{ id: 'w1', keywords: ['lamp'], content: 'The lamp burns whale oil.', enabled: true }],
  });
  rig.server.enqueue({ text: 'It hangs by the door.' });
  const started = await rig.call('chat.send', { sessionId, text: 'Where is the lamp?' });
  if (!started.ok) throw new Error(JSON.stringify(started.error));
  await finished(rig, (started.value as { turnId: string }).turnId);
  return sessionId;
}

describe('spindle.generate.dryRun', () => {
  it('answers the prompt the next turn would send, built through the chosen preset and the interceptors, sending and saving nothing', async () => {
    await install(['tools', 'interceptor', 'generation']);
    const presetId = ((await rig.call('chat.presets.import', { fileName: 'Engine Suite.json', json: JSON.stringify(LOOM) })).value as { id: string }).id;
    await rig.call('settings.update', { patch: { chat: { ...rig.host.settings.get().chat, presetId } } });
    const sessionId = await chatWithOneTurn();
    const before = (await rig.call('chat.sessions.get', { sessionId })).value as ChatSession;
    const generations = rig.server.generations.length;

    const result = await tool('preview', { chatId: sessionId });
    expect(result.messages).toEqual([
      { role: 'system', content: 'You are a careful narrator for Seraphina and Ada.' },
      { role: 'system', content: 'The lamp burns whale oil.' },
      { role: 'user', content: 'Where is the lamp?' },
      { role: 'assistant', content: 'It hangs by the door.' },
    ]);
    expect(result.model).toBe(before.messages.at(-1)!.model);
    expect(result.model).toBeTruthy();
    expect(result.provider).toBe('openai-compatible');
    // The parameters it asked for go over what the turn would send, as Lumiverse merges them.
    expect(result.parameters).toMatchObject({ max_tokens: 300 });
    expect(result.breakdown.map((b: { type: string }) => b.type)).toEqual(expect.arrayContaining(['system', 'world_info', 'chat_history']));
    expect(result.tokenCount.total_tokens).toBeGreaterThan(0);
    expect(result.worldInfoStats).toMatchObject({ activatedAfterBudget: 1, evictedByBudget: 0 });

    // Its interceptor ran knowing it was a dry run; no generation started or reached the model; the chat is as it was.
    expect(await tool('seen')).toEqual({ seen: { presetId, ownMetadata: null, placeholders: 1, isDryRun: true }, nested: null, started: 1 });
    expect(rig.server.generations.length).toBe(generations);
    expect((await rig.call('chat.sessions.get', { sessionId })).value).toEqual(before);

    // Asked as a swipe, the preset's swipe-only block is in it (the history ends at the person's line); as a regenerate, not.
    const asSwipe = await tool('preview', { chatId: sessionId, generationType: 'swipe' });
    expect(asSwipe.messages.map((m: { content: string }) => m.content)).toEqual(expect.arrayContaining(['Take it another way.', 'Where is the lamp?']));
    expect(asSwipe.messages.at(-1)).toEqual({ role: 'user', content: 'Where is the lamp?' });
    const asRegenerate = await tool('preview', { chatId: sessionId, generationType: 'regenerate' });
    expect(asRegenerate.messages.map((m: { content: string }) => m.content)).not.toContain('Take it another way.');
  }, 60_000);

  it('builds with the preset it names, or the Workbench prompt when none is chosen', async () => {
    await install(['tools', 'interceptor', 'generation']);
    const sessionId = await chatWithOneTurn();
    const own = await tool('preview', { chatId: sessionId });
    expect(own.messages[0].content).toMatch(/^You are Seraphina\./);
    const presetId = ((await rig.call('chat.presets.import', { fileName: 'Engine Suite.json', json: JSON.stringify(LOOM) })).value as { id: string }).id;
    const named = await tool('preview', { chatId: sessionId, presetId });
    expect(named.messages[0]).toEqual({ role: 'system', content: 'You are a careful narrator for Seraphina and Ada.' });
  }, 60_000);

  it('refuses with stable codes: an unknown chat or preset, a missing chatId, no generation permission, and dry runs nested past three', async () => {
    await install(['tools', 'interceptor', 'generation']);
    const sessionId = await chatWithOneTurn();
    expect((await tool('preview', { chatId: 'no-such-chat' })).error).toMatchObject({ code: 'NOT_FOUND' });
    expect((await tool('preview', { chatId: sessionId, presetId: 'no-such-preset' })).error).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('no-such-preset') });
    expect((await tool('preview', {})).error).toMatchObject({ code: 'INVALID_INPUT' });
    // Its interceptor asks for a dry run of the same chat while one is built: refused, where it would recurse without end.
    expect((await tool('preview', { chatId: sessionId, nested: true })).messages.length).toBeGreaterThan(0);
    // Each dry run's interceptor asks for another: three are built at once for a chat, the fourth is refused, and all end.
    expect((await tool('seen')).nested).toEqual(['CONFLICT', 'answered', 'answered']);

    await rig.call('extensions.revoke', { id: 'lumiverse_preset_engine', permission: 'generation' });
    await rig.host.extensions.whenSettled();
    expect((await tool('preview', { chatId: sessionId })).error).toMatchObject({ code: 'PERMISSION_DENIED' });
  }, 60_000);
});

describe('spindle.assemble', () => {
  const BLOCKS = [
    { id: 'main', name: 'Main', content: 'You narrate for {{char}} in a {{var::tone}} voice. [[prompt1]]', variables: [{ name: 'tone', type: 'text', defaultValue: 'plain' }] },
    { id: 'wi', name: 'World Info', marker: 'world_info_before' },
    { id: 'hist', name: 'Chat History', marker: 'chat_history' },
    { id: 'off', name: 'Disabled', content: 'Never sent.', enabled: false },
  ];

  it("builds the prompt of its own blocks over the chat — macros, prompt variables, world info, history — running no interceptor and sending nothing", async () => {
    await install(['tools', 'interceptor', 'generation']);
    const sessionId = await chatWithOneTurn();
    const before = (await rig.call('chat.sessions.get', { sessionId })).value as ChatSession;
    const generations = rig.server.generations.length;
    const seen = (await tool('seen')).seen;
    const result = await tool('assemble', { chatId: sessionId, blocks: BLOCKS, promptVariables: { main: { tone: 'hushed' } } });
    expect(result.messages).toEqual([
      // Its interceptor fills [[prompt1]] in a turn; an assembly runs none, as Lumiverse's does not.
      { role: 'system', content: 'You narrate for Seraphina in a hushed voice. [[prompt1]]' },
      { role: 'system', content: 'The lamp burns whale oil.' },
      { role: 'user', content: 'Where is the lamp?' },
      { role: 'assistant', content: 'It hangs by the door.' },
    ]);
    expect(result.breakdown.map((b: { type: string }) => b.type)).toEqual(expect.arrayContaining(['system', 'world_info', 'chat_history']));
    expect((await tool('seen')).seen).toEqual(seen);
    expect(rig.server.generations.length).toBe(generations);
    expect((await rig.call('chat.sessions.get', { sessionId })).value).toEqual(before);
    // Without a value, the block's own default.
    expect((await tool('assemble', { chatId: sessionId, blocks: BLOCKS })).messages[0].content).toBe('You narrate for Seraphina in a plain voice. [[prompt1]]');
  }, 60_000);

  it('refuses with stable codes: no blocks, too many or too large, an unknown chat, no generation permission; an abort rejects as an AbortError', async () => {
    await install(['tools', 'interceptor', 'generation']);
    const sessionId = await chatWithOneTurn();
    expect((await tool('assemble', { chatId: sessionId, blocks: [] })).error).toMatchObject({ code: 'INVALID_INPUT' });
    expect((await tool('assemble', { chatId: sessionId, blocks: Array.from({ length: 257 }, (_, i) => ({ id: `b${i}`, content: 'x' })) })).error).toMatchObject({ code: 'INVALID_INPUT' });
    expect((await tool('assemble', { chatId: sessionId, bulk: 250_000 })).error).toMatchObject({ code: 'INPUT_TOO_LARGE' });
    expect((await tool('assemble', { chatId: 'no-such-chat', blocks: BLOCKS })).error).toMatchObject({ code: 'NOT_FOUND' });
    expect((await tool('assemble', { blocks: BLOCKS })).error).toMatchObject({ code: 'INVALID_INPUT' });
    expect((await tool('assemble', { chatId: sessionId, blocks: BLOCKS, abortFirst: true })).error).toMatchObject({ name: 'AbortError' });
    await rig.call('extensions.revoke', { id: 'lumiverse_preset_engine', permission: 'generation' });
    await rig.host.extensions.whenSettled();
    expect((await tool('assemble', { chatId: sessionId, blocks: BLOCKS })).error).toMatchObject({ code: 'PERMISSION_DENIED' });
  }, 60_000);
});
