// A chat's variables are one store, as in Lumiverse: the {{setchatvar}}/{{incchatvar}} macros a card writes keep
// their values in the session (metadata.chat_variables) after a committed turn, a Lumiverse-style extension reads and
// writes the same values with spindle.variables.chat, and the next turn's {{getchatvar}} sees what it wrote. A dry
// run commits nothing, and what an extension writes during a turn (its context handler) is read by that turn and kept.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatSession } from '../../../shared/types/chat';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { addMainConnection, chatRig, finished, newSession, type ChatRig } from './helpers';

let rig: ChatRig;

beforeEach(async () => {
  rig = await chatRig();
  await addMainConnection(rig);
});
afterEach(async () => {
  await rig.close();
  cleanupTempDirs();
});

async function turn(sessionId: string, text: string, extra: Record<string, unknown> = {}): Promise<string> {
  rig.server.enqueue({ text: 'The reply.' });
  const before = rig.server.generations.length;
  const started = await rig.call('chat.send', { sessionId, text, ...extra });
  if (!started.ok) throw new Error(JSON.stringify(started.error));
  await finished(rig, (started.value as { turnId: string }).turnId);
  if (rig.server.generations.length === before) return '';
  return (rig.server.generations.at(-1)!.body as { messages: Array<{ content: string }> }).messages[0]!.content;
}

async function vars(args: Record<string, unknown>): Promise<Record<string, string>> {
  const answer = await rig.host.registry.invoke('lumiverse_chat_vars:vars', args, { timeoutMs: 20_000 });
  if (!answer.ok) throw new Error(JSON.stringify(answer));
  return JSON.parse(answer.content) as Record<string, string>;
}

describe("a chat's variables", () => {
  it('are kept by the macros a card writes, shared with spindle.variables.chat, and read back by the next turn', async () => {
    const installed = await rig.call('extensions.install', { folder: path.resolve('tests/fixtures/extensions/lumiverse_chat_vars'), grant: ['tools', 'context_handler'], trust: true });
    if (!installed.ok) throw new Error(JSON.stringify(installed.error));
    await rig.host.extensions.whenSettled();
    const sessionId = await newSession(rig, {
      character: { name: 'Mara', description: 'Visit {{incchatvar::visits}}. The sky is {{getchatvar::sky}}.{{// not sent}} Handled: {{getchatvar::handled}}.', personality: '', scenario: 'Its macro saw {{chatvars_seen}}.' },
    });

    // The context handler's write (during the turn, before assembly) is read by this turn and kept beside the macros'.
    const first = await turn(sessionId, 'Hello');
    expect(first).toContain('Visit 1. The sky is . Handled: yes.');
    // An extension's macro handler is given the chat's variables in its env (env.variables, as in Lumiverse). A handler
    // that is not volatile runs as the prompt's resolution begins (its value is fetched ahead, once per turn), so it
    // sees them as the turn began, not what a macro earlier in the prompt set meanwhile.
    expect(first).toContain('Its macro saw sky=, visits=none in its chat.');
    const saved = (await rig.call('chat.sessions.get', { sessionId })).value as ChatSession;
    expect(saved.metadata).toEqual({ chat_variables: { handled: 'yes', visits: '1' } });
    expect(await vars({ chatId: sessionId })).toEqual({ handled: 'yes', visits: '1' });

    // The extension writes one; the next turn's macros read it, and count on from what the chat kept.
    expect(await vars({ chatId: sessionId, key: 'sky', value: 'stormy' })).toEqual({ handled: 'yes', visits: '1', sky: 'stormy' });
    const second = await turn(sessionId, 'Again');
    expect(second).toContain('Visit 2. The sky is stormy.');
    expect(second).toContain('Its macro saw sky=stormy, visits=1 in its chat.');
    expect(second).not.toContain('not sent');

    // A dry run builds the prompt with the values and keeps none of its changes.
    await turn(sessionId, 'Just looking', { dryRun: true });
    expect(await vars({ chatId: sessionId })).toEqual({ handled: 'yes', visits: '2', sky: 'stormy' });
  }, 60_000);
});
