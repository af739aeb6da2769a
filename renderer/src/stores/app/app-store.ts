// The one renderer store, combined from one slice per domain. Built by a factory so tests get a fresh one.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { createChatSlice, type ChatSlice } from '../chat/chat-slice';
import { createConnectionSlice, type ConnectionSlice } from './connection-slice';
import { createConnectionsSlice, type ConnectionsSlice } from '../connections/connections-slice';
import { createCouncilSlice, type CouncilSlice } from '../council/council-slice';
import { createExtensionsSlice, type ExtensionsSlice } from '../extensions/extensions-slice';
import { createHostSlice, type HostSlice } from './host-slice';
import { createMcpSlice, type McpSlice } from '../mcp/mcp-slice';
import { createNoticesSlice, type NoticesSlice } from './notices-slice';
import { createRunsSlice, type RunsSlice } from '../council/runs-slice';
import { createSafetySlice, type SafetySlice } from '../safety/safety-slice';
import { createSettingsSlice, type SettingsSlice } from './settings-slice';
import { createSidecarSlice, type SidecarSlice } from '../connections/sidecar-slice';
import type { StoreDeps } from './slice';
import { createToolsSlice, type ToolsSlice } from '../tools/tools-slice';
import { createUiSlice, type UiSlice } from './ui-slice';

export type AppState = ConnectionSlice &
  HostSlice &
  SettingsSlice &
  NoticesSlice &
  UiSlice &
  CouncilSlice &
  ToolsSlice &
  ExtensionsSlice &
  SidecarSlice &
  ConnectionsSlice &
  RunsSlice &
  ChatSlice &
  McpSlice &
  SafetySlice;

export type AppStore = StoreApi<AppState>;

export function createAppStore(deps: Partial<StoreDeps> = {}): AppStore {
  const full: StoreDeps = { now: deps.now ?? (() => Date.now()) };
  return createStore<AppState>()((...a) => ({
    ...createConnectionSlice(...a),
    ...createHostSlice(...a),
    ...createSettingsSlice(...a),
    ...createNoticesSlice(full)(...a),
    ...createUiSlice(...a),
    ...createCouncilSlice(...a),
    ...createToolsSlice(...a),
    ...createExtensionsSlice(...a),
    ...createSidecarSlice(...a),
    ...createConnectionsSlice(...a),
    ...createRunsSlice(...a),
    ...createChatSlice(...a),
    ...createMcpSlice(...a),
    ...createSafetySlice(...a),
  }));
}
