// Host → renderer events, one discriminated union.
import type { Notice } from './notices';
import type { Settings } from './settings';
import type { Static } from '@sinclair/typebox';
import type { ExtensionInfoSchema } from './contract/extensions';
import type { ToolInfo } from './types/tools';

export type ExtensionInfo = Static<typeof ExtensionInfoSchema>;

export type HostEvent =
  | { type: 'settings.changed'; settings: Settings }
  | { type: 'notice.added'; notice: Notice }
  | { type: 'notice.dismissed'; id: string }
  /** The tool list changed (registered, replaced, unregistered or status); `tools` is the new full list. */
  | { type: 'tools.changed'; tools: ToolInfo[] }
  | { type: 'extension.changed'; extension: ExtensionInfo }
  | { type: 'extension.removed'; id: string }
  | { type: 'extension.log'; id: string; line: string };

export type HostEventListener = (event: HostEvent) => void;
