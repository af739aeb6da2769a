// The person runs one of an extension's commands from its card: its worker's onInvoked handlers hear the command with a
// snapshot of where the person is, as Lumiverse's command palette sends it. The chat is the one the person has open
// (the window says which); a command scoped to a chat needs one, and a `chat-idle` one a chat no reply is written in.
import { HostFailure } from '../../../shared/errors';
import { branchRoot } from '../util/branch-root';
import type { Entry } from './extension-entry';
import type { ChatReads } from './spindle-host/chat-data';
import type { ExtensionCommands } from './spindle-host/commands';

const IN_A_CHAT = new Set(['chat', 'chat-idle', 'character']);

export function runCommand(entry: Entry, commands: ExtensionCommands, chats: ChatReads | null, commandId: string, openChatId?: string): void {
  const command = commands.find(entry.id, commandId);
  if (!command || entry.worker?.state !== 'running') {
    throw new HostFailure({ code: 'NOT_FOUND', message: `${entry.id} has no command ${commandId} now (it registers its commands while it runs).`, path: '/commandId' });
  }
  if (openChatId !== undefined && !chats?.saved(openChatId)) throw new HostFailure({ code: 'NOT_FOUND', message: `There is no session ${openChatId}.`, path: '/chatId' });
  const chatId = openChatId ?? chats?.activeId() ?? null;
  if (IN_A_CHAT.has(command.scope ?? '') && !chatId) {
    throw new HostFailure({ code: 'INVALID_INPUT', message: `"${command.label}" works in a chat: open one in the Workbench first.`, path: '/commandId' });
  }
  if (command.scope === 'chat-idle' && chatId && chats?.busy(chatId)) {
    throw new HostFailure({ code: 'CONFLICT', message: `"${command.label}" waits until the reply being written in this chat is done.`, path: '/commandId' });
  }
  // A chat's character is its line's origin (a session is its own; a branch is its origin's), never a group chat.
  const characterId = chatId ? branchRoot(chatId, (id) => chats?.head(id) ?? null) : null;
  const context = chatId ? { route: `/chat/${chatId}`, chatId, characterId, isGroupChat: false } : { route: '/' };
  entry.worker.sendCommand(command.id, context);
}
