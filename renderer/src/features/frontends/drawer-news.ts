// What each running frontend hears of the extensions panel: whether it shows, and which of its own tabs it
// shows. A frame hears it once it is ready (its handlers are registered by then) and again on each change;
// the frame turns "my tab is now the shown one" into that tab's onActivate.
import type { FrameBroker } from './frame-broker';
import { drawerTabs, shownTab, type FrontendsStore } from './frontends-store';
import { placeId } from './lumiverse-places';

/** Starts sending the panel's state to the brokers; `update()` re-reads it (the Workbench came or went). */
export function watchDrawer(store: FrontendsStore, brokers: ReadonlyMap<string, FrameBroker>, panelShown: () => boolean) {
  const update = () => {
    const state = store.getState();
    const shown = shownTab(drawerTabs(state.surfaces), state.activeTab);
    const open = state.drawerOpen && shown !== null && panelShown();
    // Once every frontend has placed its tabs, the one shown stays shown: an extension enabled later does not
    // take the panel over because its id sorts first.
    if (open && state.activeTab === null && [...brokers.keys()].every((id) => state.ready[id])) {
      store.setState({ activeTab: shown.key });
      return;
    }
    for (const [id, broker] of brokers) {
      if (!state.ready[id]) continue;
      broker.notifyChanged('drawer', { open, surfaceId: shown?.extensionId === id && shown.kind === 'drawer' ? shown.surfaceId : null, tabId: shown ? placeId(shown) : null });
    }
  };
  const unsubscribe = store.subscribe(update);
  update();
  return { update, stop: unsubscribe };
}
