// The person runs an extension's command from its card: the worker hears it with where the person is, as Lumiverse's
// command palette says it. Adversarial: a chat that is no session, a chat-scoped command with no chat open, a
// chat-idle one while a reply is written, a command the extension has not registered.
import { afterEach, describe, expect, it } from 'vitest';
import { runCommand } from '../../../electron/core/extensions/run-command';
import type { Entry } from '../../../electron/core/extensions/extension-entry';
import { ExtensionCommands } from '../../../electron/core/extensions/spindle-host/commands';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { testChatReads } from '../../helpers/chat-reads';
import { anyCaller, callSpindle } from '../../helpers/spindle-call';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

async function setup(options: { busy?: boolean; open?: 'branch' | 'none' } = {}) {
  const sessions = new SessionStore({ dataDir: tempDir() });
  const root = sessions.create({ title: 'Mira' });
  const branch = await sessions.add({ title: 'Mira (branch)', metadata: { branched_from: root.id, branch_at_message: 'm1' } });
  const engine = { activeSessionId: options.open === 'none' ? null : branch.id, isBusy: () => options.busy ?? false };
  const chats = testChatReads(sessions, engine);
  const commands = new ExtensionCommands(() => undefined);
  await callSpindle(commands.handlers(), anyCaller('notes'), 'commands.register', {
    args: [[{ id: 'anywhere', label: 'Anywhere' }, { id: 'summarize', label: 'Summarize', scope: 'chat' }, { id: 'tidy', label: 'Tidy', scope: 'chat-idle' }]],
  });
  const heard: Array<[string, unknown]> = [];
  const entry = { id: 'notes', worker: { state: 'running', sendCommand: (id: string, context: unknown) => void heard.push([id, context]) } } as unknown as Entry;
  const run = (commandId: string, chatId?: string) => runCommand(entry, commands, chats, commandId, chatId);
  return { root, branch, heard, run };
}

describe('running an extension’s command', () => {
  it('tells the worker the open chat, with its character: a branch’s is its line’s origin', async () => {
    const { root, branch, heard, run } = await setup();
    run('summarize');
    run('anywhere', root.id);
    expect(heard).toEqual([
      ['summarize', { route: `/chat/${branch.id}`, chatId: branch.id, characterId: root.id, isGroupChat: false }],
      ['anywhere', { route: `/chat/${root.id}`, chatId: root.id, characterId: root.id, isGroupChat: false }],
    ]);
  });

  it('with no chat open, a command for anywhere hears the home route and a chat one is refused', async () => {
    const { heard, run } = await setup({ open: 'none' });
    run('anywhere');
    expect(heard).toEqual([['anywhere', { route: '/' }]]);
    expect(() => run('summarize')).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'INVALID_INPUT', path: '/commandId' }) }));
  });

  it('refuses a chat that is no session, a chat-idle command while a reply is written, and a command not registered', async () => {
    const { heard, run } = await setup({ busy: true });
    expect(() => run('anywhere', 'no-such-chat')).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'NOT_FOUND', path: '/chatId' }) }));
    expect(() => run('tidy')).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'CONFLICT' }) }));
    expect(() => run('unknown')).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'NOT_FOUND', path: '/commandId' }) }));
    expect(heard).toEqual([]);
  });
});
