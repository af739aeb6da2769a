// Contract handlers for mcp.*, and the settings-backed config store the manager persists to.
import type { Handlers } from '../../../shared/contract';
import type { McpServerConfig } from '../../../shared/types/mcp';
import type { SettingsStore } from '../settings/settings-store';
import type { McpConfigStore, McpManager } from './mcp-manager';

type McpHandlers = Pick<
  Handlers,
  'mcp.list' | 'mcp.add' | 'mcp.update' | 'mcp.remove' | 'mcp.importJson' | 'mcp.connect' | 'mcp.disconnect' | 'mcp.restart' | 'mcp.tools' | 'mcp.log'
>;

export function mcpHandlers(manager: McpManager): McpHandlers {
  return {
    'mcp.list': () => manager.list(),
    'mcp.add': (input) => manager.add(input),
    'mcp.update': ({ id, patch }) => manager.update(id, patch),
    'mcp.remove': async ({ id }) => ({ removed: await manager.remove(id) }),
    'mcp.importJson': ({ json, enable }) => manager.importJson(json, { enable: enable === true }),
    'mcp.connect': ({ id }) => manager.connect(id),
    'mcp.disconnect': ({ id }) => manager.disconnect(id),
    'mcp.restart': ({ id }) => manager.restart(id),
    'mcp.tools': ({ id }) => manager.tools(id),
    'mcp.log': ({ id }) => ({ lines: manager.logLines(id) }),
  };
}

/** Configs live in settings as `mcpServers` (validated by the settings schema on every write). */
export function settingsMcpStore(settings: Pick<SettingsStore, 'get' | 'update'>): McpConfigStore {
  return {
    read: () => (settings.get() as { mcpServers?: McpServerConfig[] }).mcpServers ?? [],
    change: async (edit) => {
      await settings.update((current) => ({ ...current, mcpServers: edit((current as { mcpServers?: McpServerConfig[] }).mcpServers ?? []) }));
    },
  };
}
