// spindle.registerMacroInterceptor, as script engines use it: a turn's texts that hold macros go to the extension's
// interceptor before the host expands them, told the phase and where the text came from; its own syntax comes back
// expanded and the host's macros are then the host's. A plain message is never offered; the chat's own messages only
// to an extension that may read chat text (chat_mutation); and the turn's breakdown ends with the prompt as sent.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatSession } from '../../../shared/types/chat';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { addMainConnection, chatRig, finished, newSession, type ChatRig } from './helpers';
import { PERSON } from '../../../electron/core/regex/regex-store';

let rig: ChatRig;

beforeEach(async () => {
  rig = await chatRig();
  await addMainConnection(rig);
});
afterEach(async () => {
  await rig.close();
  cleanupTempDirs();
});

describe('macro interceptors', () => {
  it("expand an extension's own syntax in the turn's texts before the host's macros, told the phase and the source", async () => {
    const installed = await rig.call('extensions.install', { folder: path.resolve('tests/fixtures/extensions/lumiverse_macro_engine'), grant: ['tools', 'macro_interceptor'], trust: true });
    if (!installed.ok) throw new Error(JSON.stringify(installed.error));
    await rig.host.extensions.whenSettled();
    const sessionId = await newSession(rig, { character: { name: 'Mara', description: '{{char}} says {{shout::ahoy}}.', personality: '', scenario: 'Seen: {{nested::x}}' } });
    const send = async (text: string) => {
      rig.server.enqueue({ text: 'The reply.' });
      const started = await rig.call('chat.send', { sessionId, text });
      if (!started.ok) throw new Error(JSON.stringify(started.error));
      await finished(rig, (started.value as { turnId: string }).turnId);
    };
    const seen = async () => {
      const answer = await rig.host.registry.invoke('lumiverse_macro_engine:seen', {}, { timeoutMs: 20_000 });
      if (!answer.ok) throw new Error(JSON.stringify(answer));
      return JSON.parse(answer.content) as Array<{ phase: string; sourceHint: string | null; char: string; commit: boolean; template: string; messages: number | null }>;
    };
    await send('A plain line.');

    const sent = (rig.server.generations.at(-1)!.body as { messages: Array<{ content: string }> }).messages;
    expect(sent[0]!.content).toContain('Mara says AHOY.');
    // Its own spindle.macros.resolve from inside its interceptor is not intercepted again: one level, then the host's.
    expect(sent[0]!.content).toContain('Seen: [{{nested::again}} Mara]');
    // Its env's extra names the person and the chat's character (Lumiverse's); the chat's messages it may not read.
    expect(await seen()).toContainEqual({ phase: 'prompt', sourceHint: 'prompt_source:character.description', char: 'Mara', commit: true, template: '{{char}} says {{shout::ahoy}}.', userId: 'local', characterId: sessionId, messages: null });
    // The person's plain line holds no macro: it is never offered.
    expect((await seen()).some((s) => s.template.includes('A plain line.'))).toBe(false);

    // The breakdown's last step is the prompt as sent, the interceptor's change included.
    const session = (await rig.call('chat.sessions.get', { sessionId })).value as ChatSession;
    const assembly = session.messages.at(-1)!.trace!.filter((s) => s.stage === 'macros' || s.stage === 'assembly');
    expect(assembly.at(-1)!.after).toContain('Mara says AHOY.');

    // A line of the chat that holds a macro is chat text: not given without chat_mutation; granted, it is.
    await send('A line for {{char}}.');
    expect((await seen()).some((s) => s.template.includes('A line for'))).toBe(false);
    await rig.call('extensions.grant', { id: 'lumiverse_macro_engine', permission: 'chat_mutation' });
    await rig.host.extensions.whenSettled();
    await send('Another line for {{char}}.');
    const granted = (await seen()).find((s) => s.template === 'Another line for {{char}}.');
    // Granted, its env carries the chat's messages too: the three lines, the two replies before this one.
    expect(granted?.messages).toBe(5);
  }, 60_000);
});

describe('the character a macro env names', () => {
  it("is a branch's line's origin in every phase: the reply's regex pass names the same character as the prompt", async () => {
    const installed = await rig.call('extensions.install', { folder: path.resolve('tests/fixtures/extensions/lumiverse_macro_engine'), grant: ['tools', 'macro_interceptor', 'chat_mutation'], trust: true });
    if (!installed.ok) throw new Error(JSON.stringify(installed.error));
    await rig.host.extensions.whenSettled();
    const origin = await newSession(rig, { character: { name: 'Mara', description: '{{shout::ahoy}}', personality: '', scenario: '' } });
    const send = async (sessionId: string, text: string) => {
      rig.server.enqueue({ text: 'The reply.' });
      const started = await rig.call('chat.send', { sessionId, text });
      if (!started.ok) throw new Error(JSON.stringify(started.error));
      await finished(rig, (started.value as { turnId: string }).turnId);
      return ((await rig.call('chat.sessions.get', { sessionId })).value as ChatSession).messages;
    };
    const [first] = await send(origin, 'Hello.');
    const branch = (await rig.call('chat.sessions.branch', { sessionId: origin, messageId: first!.id })).value as { id: string };
    // The person's rule writes a macro of the engine's syntax into each reply as it is saved.
    rig.host.regex.store.create({ name: 'Sign', find_regex: '$', replace_string: ' {{shout::signed}}', target: 'response', substitute_macros: 'raw' }, PERSON);
    const messages = await send(branch.id, 'Again.');
    expect(messages.at(-1)!.content).toBe('The reply. SIGNED');
    // And what the window shows of it, through a display rule with the engine's macro.
    rig.host.regex.store.create({ name: 'Badge', find_regex: '^', replace_string: '{{shout::shown}} ', target: 'display', substitute_macros: 'raw' }, PERSON);
    const shown = await rig.call('regex.display', { sessionId: branch.id, items: [{ text: 'A line.', role: 'assistant', depth: 0 }] });
    expect(shown.value).toMatchObject({ texts: ['SHOWN A line.'] });
    const answer = await rig.host.registry.invoke('lumiverse_macro_engine:seen', {}, { timeoutMs: 20_000 });
    if (!answer.ok) throw new Error(JSON.stringify(answer));
    const seen = JSON.parse(answer.content) as Array<{ phase: string; template: string; characterId: string }>;
    const inBranch = seen.filter((s) => s.template.includes('{{shout::'));
    expect(inBranch.filter((s) => s.phase === 'response').map((s) => s.characterId)).toEqual([origin]);
    expect(inBranch.filter((s) => s.phase === 'display').map((s) => s.characterId)).toEqual([origin]);
    expect(new Set(inBranch.map((s) => s.characterId))).toEqual(new Set([origin]));
  }, 60_000);
});
