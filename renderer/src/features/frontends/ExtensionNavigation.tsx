// Where an extension asks to take the person (spindle.ui, its frame's route; extension.ui events): Lumiverse's drawer
// tab ids the Workbench has a place for open that section, an extension's own drawer tab opens beside the chat,
// closeDrawer folds the extensions drawer, a route to a chat opens it. The window moves only when the person was just using that extension (its card, a
// surface of it, its frame holding the focus); otherwise it asks, so no extension takes the screen, or a half-filled
// form, away from the person. A place the Workbench has not is left alone, as Lumiverse's window ignores a tab id it
// does not know.
import { useEffect, useState } from 'react';
import type { HostEvent } from '../../../../shared/contract/events';
import { useAppStoreApi, useHost } from '../../app/context';
import { sectionById } from '../../app/sections';
import { LUMIVERSE_PLACES, placeId } from './lumiverse-places';
import type { AppStore } from '../../stores/app/app-store';
import type { HostConnection } from '../../api/connection';
import { openSession } from '../../stores/chat/chat-commands';
import { useFrontends } from './frontends-context';
import { drawerTabs, type FrontendsStore } from './frontends-store';

/** A move this soon after the person used the extension is theirs; a later one is asked first. */
const GESTURE_MS = 5_000;

type Navigation = Extract<HostEvent, { type: 'extension.ui' }>;

/** Where `to` leads, as the person reads it, or null when the Workbench has no such place. */
function destination(to: Navigation, frontends: FrontendsStore, app: AppStore, host?: HostConnection): { label: string; go(app: AppStore): void } | null {
  if (to.action === 'closeDrawer') return { label: 'fold the extensions drawer', go: () => frontends.setState({ drawerOpen: false }) };
  if (to.action === 'openChat') {
    // Its frame's route went to a chat (Tapestry's "go to branch"): that chat opens in the Workbench.
    const session = app.getState().chat.sessions.find((s) => s.id === to.chatId);
    if (!session || !host) return null;
    return {
      label: `open the chat “${session.title || session.characterName}”`,
      go: (store) => {
        store.getState().sectionSelected('workbench');
        void openSession(store, host, to.chatId);
      },
    };
  }
  const place = to.action === 'openDrawerTab' ? to.tabId : to.viewId;
  // Its own places only: an extension's id of `constructor` is no place.
  const section = place && Object.hasOwn(LUMIVERSE_PLACES, place) ? LUMIVERSE_PLACES[place] : undefined;
  if (section) return { label: `open ${sectionById(section).label}`, go: (app) => app.getState().sectionSelected(section) };
  if (to.action !== 'openDrawerTab') return null;
  // An extension's tab (its own first, then another's, as Lumiverse lets one deep-link into another's).
  // By the id its tab has everywhere (its handle's tabId, ctx.host.surfaces), or by its surface id.
  const tabs = drawerTabs(frontends.getState().surfaces).filter((tab) => placeId(tab) === to.tabId || tab.surfaceId === to.tabId);
  const tab = tabs.find((t) => t.extensionId === to.id) ?? tabs[0];
  if (!tab) return null;
  return {
    label: `open its tab ${tab.title || tab.surfaceId}`,
    go: (app) => {
      frontends.setState({ activeTab: tab.key, drawerOpen: true });
      app.getState().sectionSelected('workbench');
    },
  };
}

/** Moves the window as `to` asks; false when the Workbench has no such place. */
export function navigate(to: Navigation, app: AppStore, frontends: FrontendsStore, host?: HostConnection): boolean {
  const found = destination(to, frontends, app, host);
  found?.go(app);
  return found !== null;
}

/** The extension an element belongs to: one of its surfaces, or its card. */
const ownerOf = (element: Element | null) =>
  element?.closest('[data-extension-id]')?.getAttribute('data-extension-id') ?? element?.closest('[data-testid="extension"][data-id]')?.getAttribute('data-id') ?? null;

interface Offer {
  key: number;
  from: string;
  label: string;
  go(): void;
}

export function ExtensionNavigation() {
  const host = useHost();
  const app = useAppStoreApi();
  const { store } = useFrontends();
  const [offers, setOffers] = useState<Offer[]>([]);
  useEffect(() => {
    const used = new Map<string, number>();
    const note = (event: Event) => {
      const owner = ownerOf(event.target as Element | null);
      if (owner) used.set(owner, Date.now());
    };
    document.addEventListener('pointerdown', note, true);
    document.addEventListener('keydown', note, true);
    let seq = 0;
    const off = host.onEvent((event) => {
      if (event.type !== 'extension.ui') return;
      const found = destination(event, store, app, host);
      if (!found) return;
      // Its frame holding the focus (clicks inside a frame never reach this page) counts as using it.
      if (Date.now() - (used.get(event.id) ?? -Infinity) < GESTURE_MS || ownerOf(document.activeElement) === event.id) return found.go(app);
      const from = app.getState().extensions.items.find((e) => e.id === event.id)?.name ?? event.id;
      const key = ++seq;
      setOffers((list) => [...list.filter((o) => o.from !== from), { key, from, label: found.label, go: () => found.go(app) }].slice(-3));
    });
    return () => {
      off();
      document.removeEventListener('pointerdown', note, true);
      document.removeEventListener('keydown', note, true);
    };
  }, [host, app, store]);
  if (offers.length === 0) return null;
  const dismiss = (key: number) => setOffers((list) => list.filter((o) => o.key !== key));
  return (
    <div className="ext-toasts ext-toasts--offers" aria-label="Extensions asking to move the window">
      {offers.map((offer) => (
        <div key={offer.key} className="ext-toast ext-toast--info" role="status" data-testid="extension-navigation-offer">
          <div className="ext-toast__text">
            <span className="ext-toast__from">{offer.from}</span>
            <span>Asks to {offer.label}.</span>
          </div>
          <button
            type="button"
            className="btn btn--small"
            onClick={() => {
              dismiss(offer.key);
              offer.go();
            }}
          >
            Go
          </button>
          <button type="button" className="btn btn--small btn--ghost" onClick={() => dismiss(offer.key)}>
            Not now
          </button>
        </div>
      ))}
    </div>
  );
}
