// Host → renderer events, one discriminated union.
import type { Notice } from './notices';
import type { Settings } from './settings';
import type { Static } from '@sinclair/typebox';
import type { ExtensionInfoSchema } from './contract/extensions';
import type { ToolInfo } from './types/tools';
import type { ChatEvent } from './types/chat';
import type { CouncilEvent } from './types/council-events';

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
  /** Workbench chat: chat.delta, chat.toolCall, chat.council, chat.finished, chat.error, chat.sessions.changed (shared/types/chat.ts). */
  | ChatEvent
  /** Council: council.changed, council.run.started, council.run.result, council.run.finished, packs.changed (shared/types/council-events.ts). */
  | CouncilEvent;

export type HostEventListener = (event: HostEvent) => void;
