// Where an extension's backend asks to take the person (spindle.ui, extension.ui events): Lumiverse's drawer tab ids
// the Workbench has a place for open that section, an extension's own drawer tab opens beside the chat, closeDrawer
// folds the extensions drawer. A place the Workbench does not have is left alone, as Lumiverse's window ignores a tab
// id it does not know.
import { useEffect } from 'react';
import type { HostEvent } from '../../../../shared/contract/events';
import { useAppStoreApi, useHost } from '../../app/context';
import type { SectionId } from '../../app/sections';
import type { AppStore } from '../../stores/app/app-store';
import { useFrontends } from './frontends-context';
import { drawerTabs, type FrontendsStore } from './frontends-store';

/** Lumiverse's drawer tabs and settings views (its ui-registry.ts) the Workbench has a section for. */
const SECTIONS: Record<string, SectionId> = {
  connections: 'connections',
  council: 'council',
  feedback: 'council',
  spindle: 'extensions',
  extensions: 'extensions',
  mcpServers: 'mcp',
  characters: 'workbench',
  profile: 'workbench',
  personas: 'workbench',
  lorebook: 'workbench',
  worldinfo: 'workbench',
  regex: 'workbench',
  branches: 'workbench',
};

type Navigation = Extract<HostEvent, { type: 'extension.ui' }>;

/** Moves the window as `to` asks; false when the Workbench has no such place. */
export function navigate(to: Navigation, app: AppStore, frontends: FrontendsStore): boolean {
  if (to.action === 'closeDrawer') {
    frontends.setState({ drawerOpen: false });
    return true;
  }
  const place = to.action === 'openDrawerTab' ? to.tabId : to.viewId;
  const section = place ? SECTIONS[place] : undefined;
  if (section) {
    app.getState().sectionSelected(section);
    return true;
  }
  if (to.action !== 'openDrawerTab') return false;
  // An extension's tab (its own first, then another's, as Lumiverse lets one deep-link into another's).
  const tabs = drawerTabs(frontends.getState().surfaces).filter((tab) => tab.surfaceId === to.tabId);
  const tab = tabs.find((t) => t.extensionId === to.id) ?? tabs[0];
  if (!tab) return false;
  frontends.setState({ activeTab: tab.key, drawerOpen: true });
  app.getState().sectionSelected('workbench');
  return true;
}

export function ExtensionNavigation() {
  const host = useHost();
  const app = useAppStoreApi();
  const { store } = useFrontends();
  useEffect(
    () =>
      host.onEvent((event) => {
        if (event.type === 'extension.ui') navigate(event, app, store);
      }),
    [host, app, store],
  );
  return null;
}
