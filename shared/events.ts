// Host → renderer events, one discriminated union.
import type { Notice } from './notices';
import type { Settings } from './settings';
import type { Static } from '@sinclair/typebox';
import type { ExtensionInfoSchema } from './contract/extensions';
import type { ToolInfo } from './types/tools';
import type { ChatEvent } from './types/chat-events';
import type { CouncilEvent } from './types/council-events';
import type { ApprovalRequest, ApprovalResolution } from './types/safety';
import type { McpServerInfo } from './types/mcp';
import type { ExtensionToast } from './spindle/toast';
import type { ModelDownload } from './types/local-models';

export type ExtensionInfo = Static<typeof ExtensionInfoSchema>;

export type HostEvent =
  | { type: 'settings.changed'; settings: Settings }
  | { type: 'notice.added'; notice: Notice }
  | { type: 'notice.dismissed'; id: string }
  /** The tool list changed (registered, replaced, unregistered or status); `tools` is the new full list. */
  | { type: 'tools.changed'; tools: ToolInfo[] }
  | { type: 'extension.changed'; extension: ExtensionInfo }
  | { type: 'extension.removed'; id: string }
  | { type: 'extension.log'; id: string; line: string }
  /** For the extension's frontend frames: a message its backend sent (spindle.sendToFrontend). */
  | { type: 'extension.frontend-message'; id: string; payload: unknown }
  /** A toast its backend asked for (spindle.toast.*): shown by the window with the extension's name. */
  | { type: 'extension.toast'; id: string; toast: ExtensionToast }
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
  | { type: 'approvals.allowed.changed' };

export type HostEventListener = (event: HostEvent) => void;
