// spindle.ui (Lumiverse's UI automation, free tier): an extension takes the person to a place of the app, as an
// onboarding flow or an "Open connections" button does. The window does the moving (extension.ui); a place it does not
// have is passed on and left alone, as Lumiverse forwards any tab id. A flood is cut off, so no extension can keep the
// person from their own screen.
import { RecentWindow } from '../per-extension-limits';
import type { Clock } from '../../ports';
import { fail, type HandlersOf } from './handlers';

export type UiNavigation = { action: 'openDrawerTab'; tabId: string } | { action: 'closeDrawer' } | { action: 'openSettings'; viewId: string | null } | { action: 'openChat'; chatId: string };

/** At most this many moves of one extension in NAVIGATION_WINDOW_MS; the rest are refused (RATE_LIMITED). */
export const MAX_NAVIGATIONS = 5;
export const NAVIGATION_WINDOW_MS = 10_000;

/** The Workbench's places under the ids Lumiverse's drawer tabs have (ui-registry.ts there), where they match one. */
export const WORKBENCH_TABS = [
  { id: 'connections', shortName: 'Connect', tabName: 'Connections', tabDescription: 'Manage API connections and providers', keywords: ['api', 'provider', 'key', 'model'] },
  { id: 'council', shortName: 'Council', tabName: 'Council', tabDescription: 'Configure the Lumia Council and tool functions', keywords: ['council', 'tools', 'lumia', 'sidecar'] },
  { id: 'spindle', shortName: 'Extend', tabName: 'Extensions', tabDescription: 'Manage Spindle extensions', keywords: ['extensions', 'spindle', 'plugins'] },
  { id: 'mcpServers', shortName: 'MCP', tabName: 'MCP Servers', tabDescription: 'Connect to external MCP tool servers', keywords: ['mcp', 'tools', 'servers'] },
  { id: 'characters', shortName: 'Chars', tabName: 'Chat', tabDescription: 'The Workbench chat and its sessions', keywords: ['chat', 'character', 'session'] },
].map((tab) => ({ ...tab, source: 'builtin' as const }));

/** An extension's moves of the window, by spindle.ui or its frame's route: at most MAX_NAVIGATIONS in the window. */
export function windowMoves(clock: Clock, navigate: (extensionId: string, to: UiNavigation) => void): (extensionId: string, to: UiNavigation) => null {
  const recent = new RecentWindow(MAX_NAVIGATIONS, NAVIGATION_WINDOW_MS, () => clock.now());
  return (extensionId, to) => {
    if (!recent.take(extensionId)) fail('RATE_LIMITED', `At most ${MAX_NAVIGATIONS} moves of the app in ${NAVIGATION_WINDOW_MS / 1000} s; this one was not made.`);
    navigate(extensionId, to);
    return null;
  };
}

export function uiHandlers(move: ReturnType<typeof windowMoves>): HandlersOf<'ui'> {
  return {
    'ui.getDrawerTabs': () => WORKBENCH_TABS,
    'ui.getSettingsTabs': () => [],
    'ui.openDrawerTab': ({ tabId }, caller) => move(caller.extensionId, { action: 'openDrawerTab', tabId }),
    'ui.closeDrawer': (_params, caller) => move(caller.extensionId, { action: 'closeDrawer' }),
    'ui.openSettings': ({ viewId }, caller) => move(caller.extensionId, { action: 'openSettings', viewId: viewId ?? null }),
    // The Workbench has no settings dialog or command palette to open or close: done, nothing moves.
    'ui.closeSettings': () => null,
    'ui.openCommandPalette': () => null,
    'ui.closeCommandPalette': () => null,
  };
}
