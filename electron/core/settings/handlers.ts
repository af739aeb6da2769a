// Contract handlers for settings.*: clients read settings with MCP secrets masked and change everything but MCP servers.
import type { Handlers } from '../../../shared/contract';
import { fail } from '../../../shared/errors';
import type { Settings } from '../../../shared/settings';
import { maskSecrets } from '../../../shared/secret-mask';
import type { SettingsStore } from './settings-store';

export function settingsHandlers(settings: SettingsStore): Pick<Handlers, 'settings.get' | 'settings.update'> {
  return {
    'settings.get': () => settingsForClients(settings.get()),
    'settings.update': async ({ patch }) => {
      // Clients see MCP configs masked (settingsForClients); they change them through mcp.*, never as a whole.
      if ('mcpServers' in patch) fail('INVALID_INPUT', 'MCP servers change through mcp.add, mcp.update and mcp.remove.', { path: '/patch/mcpServers' });
      return settingsForClients(await settings.update(patch));
    },
  };
}

/** Settings as the renderer and the CLI get them: MCP header values and secret-looking env values masked. */
export function settingsForClients(settings: Settings): Settings {
  if (!settings.mcpServers?.length) return settings;
  return { ...settings, mcpServers: settings.mcpServers.map((config) => maskSecrets(config)) };
}
