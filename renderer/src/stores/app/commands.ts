// User actions that ask the host to change something, then mirror its answer (the event may also arrive).
import type { HostConnection } from '../../api/connection';
import type { AppStore } from './app-store';
import type { Theme } from './theme';

export async function dismissNotice(store: AppStore, host: HostConnection, id: string): Promise<boolean> {
  const result = await host.invoke('notices.dismiss', { id });
  if (!result.ok) {
    store.getState().errorReported('Could not dismiss the notice', result.error);
    return false;
  }
  // dismissed:false means the host no longer has it: either way it should not be on screen.
  store.getState().noticeRemoved(id);
  return true;
}

export async function changeTheme(store: AppStore, host: HostConnection, theme: Theme): Promise<boolean> {
  const result = await host.invoke('settings.update', { patch: { ui: { theme } } });
  if (!result.ok) {
    store.getState().errorReported('Could not change the theme', result.error);
    return false;
  }
  store.getState().settingsLoaded(result.value);
  return true;
}

/** Connect again after the connection was lost or never made. */
export function reconnectHost(host: HostConnection): void {
  host.reconnect();
}
