// Host → client events (the window, the CLI's --follow), declared in the contract beside the methods: one discriminated
// union, and HOST_EVENTS naming each once.
import type { Notice } from '../notices';
import type { Settings } from '../settings';
import type { Static } from '@sinclair/typebox';
import type { ExtensionInfoSchema } from './extensions';
import type { ToolInfo } from '../types/tools';
import type { ChatEvent } from '../types/chat-events';
import type { CouncilEvent } from '../types/council-events';
import type { ApprovalRequest, ApprovalResolution } from '../types/safety';
import type { McpServerInfo } from '../types/mcp';
import type { ExtensionToast } from '../spindle/toast';
import type { BackendDialog } from '../spindle/backend-dialog';
import type { ModelDownload } from '../types/local-models';

export type ExtensionInfo = Static<typeof ExtensionInfoSchema>;

export type HostEvent =
  | { type: 'settings.changed'; settings: Settings }
  | { type: 'notice.added'; notice: Notice }
  | { type: 'notice.dismissed'; id: string }
  /** The tool list changed (registered, replaced, unregistered or status); `tools` is the new full list. */
  | { type: 'tools.changed'; tools: ToolInfo[] }
  | { type: 'extension.changed'; extension: ExtensionInfo }
  | { type: 'extension.removed'; id: string }
  /** One line of its log: `line` as the log file has it; `source` and `text` for a client that shows only some. */
  | { type: 'extension.log'; id: string; line: string; source: string; text: string }
  /** For the extension's frontend frames: a message its backend sent (spindle.sendToFrontend). */
  | { type: 'extension.frontend-message'; id: string; payload: unknown }
  /** A toast its backend asked for (spindle.toast.*): shown by the window with the extension's name. */
  | { type: 'extension.toast'; id: string; toast: ExtensionToast }
  /** Its backend opened a dialog for the person (spindle.modal, prompt, textEditor): the first window to answer it closes it. */
  | { type: 'extension.dialog'; dialog: BackendDialog }
  /** A backend's dialog was answered (in some window), closed by the extension, or timed out: drop it. */
  | { type: 'extension.dialog-closed'; dialogId: string }
  /** It asked to take the person somewhere (spindle.ui, its frame's route): a Lumiverse drawer tab id, an extension's tab, settings, or a chat. */
  | ({ type: 'extension.ui'; id: string } & ({ action: 'openDrawerTab'; tabId: string } | { action: 'closeDrawer' } | { action: 'openSettings'; viewId: string | null } | { action: 'openChat'; chatId: string }))
  /** For every extension's frontend frames: an event with Lumiverse's name and payload (GENERATION_ENDED, CHAT_SWITCHED…). */
  | { type: 'extension.event'; event: string; payload: unknown }
  /** MCP servers: status/config/tool count changed; removed; one log line (rate-limited; mcp.log has all). */
  | { type: 'mcp.changed'; server: McpServerInfo }
  | { type: 'mcp.removed'; id: string }
  | { type: 'mcp.log'; id: string; line: string }
  /** A local model download moved on (at most 4 a second), paused, failed or finished. */
  | { type: 'models.download'; download: ModelDownload }
  /** The tool-calling probe of a connection has run `done` of its `total` cases. */
  | { type: 'models.probe'; connectionId: string; done: number; total: number }
  /** Workbench chat: chat.delta, chat.toolCall, chat.council, chat.finished, chat.error, chat.sessions.changed (shared/types/chat.ts). */
  | ChatEvent
  /** Council: council.changed, council.run.started, council.run.result, council.run.finished, packs.changed (shared/types/council-events.ts). */
  | CouncilEvent
  /** Safe tool use: a call waits for a person (queue order = approvals.list order). */
  | { type: 'approval.requested'; request: ApprovalRequest }
  /** A pending approval ended (answered, timed out, argument mismatch, cancelled): drop its dialog. */
  | { type: 'approval.resolved'; id: string; toolQualifiedName: string; resolution: ApprovalResolution }
  /** The "always allowed" list changed (approvals.allowed.list returns the new one). */
  | { type: 'approvals.allowed.changed' }
  /** A regex script was written, switched or deleted: what the window shows through them is stale. */
  | { type: 'regex.changed'; revision: number }
  /** A preset was written (by the window, an extension or an import) or deleted: an editor showing it reads it again. */
  | { type: 'presets.changed'; presetId: string; change: 'updated' | 'deleted' };

export type HostEventListener = (event: HostEvent) => void;

/** Every event the host sends, by its type: what it tells. The compiler checks that each type is named, and only those. */
export const HOST_EVENTS = {
  'settings.changed': 'The settings document changed.',
  'notice.added': 'A notice for the status bar.',
  'notice.dismissed': 'A notice was dismissed.',
  'tools.changed': 'The tool list changed; the new full list.',
  'extension.changed': "An extension's card changed.",
  'extension.removed': 'An extension was removed.',
  'extension.log': "One line of an extension's log.",
  'extension.frontend-message': "A message an extension's backend sent its frontend frames.",
  'extension.toast': 'A toast an extension asked for.',
  'extension.dialog': "A dialog an extension's backend opened for the person.",
  'extension.dialog-closed': "An extension's dialog was answered or closed.",
  'extension.ui': "An extension asked to take the person to a place of the app (spindle.ui.openDrawerTab, closeDrawer, openSettings) or to a chat (its frame's route).",
  'extension.event': "An event every extension's frontend hears (GENERATION_ENDED, CHAT_SWITCHED…).",
  'mcp.changed': "An MCP server's status, config or tools changed.",
  'mcp.removed': 'An MCP server was removed.',
  'mcp.log': "One line of an MCP server's log.",
  'models.download': 'A local model download moved on, paused, failed or finished.',
  'models.probe': "A connection's tool-calling probe ran one more case.",
  'chat.delta': "Text of a turn's reply.",
  'chat.reasoning': "A reasoning model's thinking in a turn, shown apart from the reply.",
  'chat.toolCall': "A step of a turn's tool call.",
  'chat.council': "The council's part of a turn.",
  'chat.finished': 'A turn ended.',
  'chat.error': 'A turn failed.',
  'chat.trace': "A turn's prompt breakdown.",
  'chat.sessions.changed': 'A session was created, changed or deleted.',
  'council.changed': 'The council changed; its new view.',
  'packs.changed': 'The packs changed.',
  'council.run.started': 'A council run began.',
  'council.run.result': 'A council tool finished.',
  'council.run.finished': 'A council run is over.',
  'approval.requested': 'A tool call waits for a person.',
  'approval.resolved': 'A pending approval ended.',
  'approvals.allowed.changed': 'The "always allowed" list changed.',
  'regex.changed': 'A regex script was written, switched or deleted.',
  'presets.changed': 'A preset was written or deleted.',
} as const satisfies Record<HostEvent['type'], string>;
