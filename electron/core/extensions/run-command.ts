// The person runs one of an extension's commands from its card: its worker's onInvoked handlers hear the command with a
// snapshot of where the person is, as Lumiverse's command palette sends it. A command scoped to a chat needs one open.
import { HostFailure } from '../../../shared/errors';
import type { Entry } from './extension-entry';
import type { ExtensionCommands } from './spindle-host/commands';

export function runCommand(entry: Entry, commands: ExtensionCommands, activeChatId: string | null, commandId: string): void {
  const command = commands.find(entry.id, commandId);
  if (!command || entry.worker?.state !== 'running') {
    throw new HostFailure({ code: 'NOT_FOUND', message: `${entry.id} has no command ${commandId} now (it registers its commands while it runs).`, path: '/commandId' });
  }
  if ((command.scope === 'chat' || command.scope === 'chat-idle') && !activeChatId) {
    throw new HostFailure({ code: 'INVALID_INPUT', message: `"${command.label}" works in a chat: open one in the Workbench first.`, path: '/commandId' });
  }
  // A session is its own character here, and never a group chat.
  const context = activeChatId ? { route: `/chat/${activeChatId}`, chatId: activeChatId, characterId: activeChatId, isGroupChat: false } : { route: '/' };
  entry.worker.sendCommand(command.id, context);
}
