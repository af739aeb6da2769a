import { afterEach, describe, expect, it } from 'vitest';
import { buildCouncilContext } from '../../../electron/core/council/context';
import { COUNCIL_TOOLS_DEFAULTS, type CouncilRun } from '../../../shared/types/council';
import type { CouncilMemberContext, LlmMessageDTO } from '../../../shared/types/spindle';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { addMember, call, councilHost, sampleChat } from '../council/helpers';

afterEach(cleanupTempDirs);

const SEED_FIELDS = ['memberId', 'itemId', 'packId', 'packName', 'name', 'role', 'chance', 'avatarUrl', 'definition', 'personality', 'behavior', 'genderIdentity'];

describe('what a council tool receives', () => {
  it('the worker gets a CouncilMemberContext with every seed 000 field, contextMessages, args.context and __deadlineMs', async () => {
    const host = await councilHost();
    const id = await addMember(host, { itemId: 'continuity-keeper', role: 'Continuity Keeper', chance: 100, tools: ['council-probe:echo_context'] });
    const before = Date.now();
    const run = await call<CouncilRun>(host, 'council.run', { chat: sampleChat() });
    const seen = JSON.parse(run.results[0]!.content) as { councilMember: CouncilMemberContext; contextMessages: LlmMessageDTO[]; context: string; deadlineMs: number; argKeys: string[] };
    expect(Object.keys(seen.councilMember).sort()).toEqual([...SEED_FIELDS].sort());
    expect(seen.councilMember).toEqual({
      memberId: id,
      itemId: 'continuity-keeper',
      packId: 'story-council',
      packName: 'Story Council',
      name: 'Archivist Wren',
      role: 'Continuity Keeper',
      chance: 100,
      avatarUrl: '/packs/story-council/items/continuity-keeper/avatar',
      definition: expect.stringContaining('keeper of the story'),
      personality: expect.stringContaining('Meticulous'),
      behavior: expect.stringContaining('Quotes the earlier detail'),
      genderIdentity: 0,
    });
    expect(seen.argKeys).toEqual(['__deadlineMs', 'context']);
    expect(seen.deadlineMs).toBeGreaterThanOrEqual(before + 29_000);
    expect(seen.contextMessages.map((m) => [m.role, m.name ?? null])).toEqual([
      ['system', 'character_info'],
      ['system', 'user_persona'],
      ['system', 'world_info'],
      ['user', null],
      ['assistant', null],
      ['user', null],
    ]);
    // world info: the keyword entry that matched and the constant one; not the dragon
    expect(seen.contextMessages[2]!.content).toContain('whale oil');
    expect(seen.contextMessages[2]!.content).toContain('1887');
    expect(seen.contextMessages[2]!.content).not.toContain('Dragons');
    // args.context is the same content flattened
    for (const m of seen.contextMessages) expect(seen.context).toContain(m.content.split('\n')[0]!.replace(/^World information:$/, ''));
    expect(seen.context).toContain('Tom: I need shelter from the storm.');
    expect(seen.context).toContain('Mara: Mara opens it, lantern raised.');
    await host.dispose();
  });

  it('contextMessages honour the window, exclude the latest user message, and the include switches', () => {
    const messages = Array.from({ length: 40 }, (_, i) => ({ role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant', content: `m${i}` }));
    const chat = sampleChat({ messages });
    const chatOnly = (msgs: LlmMessageDTO[]) => msgs.filter((m) => m.role !== 'system').map((m) => m.content);

    const def = buildCouncilContext(chat, COUNCIL_TOOLS_DEFAULTS);
    expect(chatOnly(def.messages)).toEqual(messages.slice(-25).map((m) => m.content));

    const small = buildCouncilContext(chat, { ...COUNCIL_TOOLS_DEFAULTS, sidecarContextWindow: 3 });
    expect(chatOnly(small.messages)).toEqual(['m37', 'm38', 'm39']);

    const excl = buildCouncilContext(chat, { ...COUNCIL_TOOLS_DEFAULTS, sidecarContextWindow: 3, excludeLatestUserMessage: true });
    expect(chatOnly(excl.messages)).toEqual(['m36', 'm37', 'm39']);
    expect(excl.flat).not.toContain('m38');

    const none = buildCouncilContext(chat, { ...COUNCIL_TOOLS_DEFAULTS, sidecarContextWindow: 0, includeCharacterInfo: false, includeUserPersona: false, includeWorldInfo: false });
    expect(none.messages).toEqual([]);
    expect(none.flat).toBe('');

    const noPersona = buildCouncilContext(chat, { ...COUNCIL_TOOLS_DEFAULTS, includeUserPersona: false });
    expect(noPersona.messages.map((m) => m.name).filter(Boolean)).toEqual(['character_info', 'world_info']);
    expect(noPersona.flat).not.toContain('smuggler');
  });

  it('the window setting reaches the worker through a real run', async () => {
    const host = await councilHost();
    await call(host, 'council.update', { patch: { toolsSettings: { sidecarContextWindow: 2, includeCharacterInfo: false, includeWorldInfo: false, includeUserPersona: false } } });
    await addMember(host, { tools: ['council-probe:echo_context'] });
    const run = await call<CouncilRun>(host, 'council.run', { chat: sampleChat() });
    const seen = JSON.parse(run.results[0]!.content) as { contextMessages: LlmMessageDTO[] };
    expect(seen.contextMessages).toEqual([
      { role: 'assistant', content: 'Mara opens it, lantern raised.' },
      { role: 'user', content: 'I need shelter from the storm.' },
    ]);
    await host.dispose();
  });
});
