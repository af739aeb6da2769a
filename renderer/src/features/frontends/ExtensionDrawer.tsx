// The Workbench's extensions panel: the drawer tabs extensions registered (and what they mounted with
// ctx.ui.mount or mountApp, which has no nearer place here), one shown at a time, beside the chat.
import { useShallow } from 'zustand/react/shallow';
import { Icon } from '../../components/Icon';
import { useFrontends, useFrontendsStore } from './frontends-context';
import { DRAWER_HEADER_MOUNT_POINTS, drawerTabs, shownTab, type Surface } from './frontends-store';
import { ExtensionIcon } from './icon';
import { BarMountFrames } from './BarMountFrames';
import { SurfaceFrame } from './SurfaceFrame';


function label(surface: Surface): string {
  return surface.options.shortName || surface.title || (surface.kind === 'mount' ? `${surface.extensionId} (${surface.options.point ?? 'panel'})` : surface.extensionId);
}

export function ExtensionDrawer() {
  const { store } = useFrontends();
  const tabs = useFrontendsStore(useShallow((s) => drawerTabs(s.surfaces)));
  const active = useFrontendsStore((s) => s.activeTab);
  const open = useFrontendsStore((s) => s.drawerOpen);
  const shown = shownTab(tabs, active);
  if (!shown) return null;
  // Its onActivate hears of it through the drawer news (drawer-news.ts).
  const choose = (tab: Surface) => store.setState({ activeTab: tab.key, drawerOpen: true });
  return (
    <aside className={`ext-drawer${open ? ' ext-drawer--open' : ''}`} aria-label="Extension panels" data-testid="extension-drawer">
      <div className="ext-drawer__bar">
        <button type="button" className="btn btn--small btn--ghost" aria-expanded={open} onClick={() => store.setState({ drawerOpen: !open })} title={open ? 'Hide the extension panels' : 'Show the extension panels'}>
          <Icon name="extensions" /> {open ? 'Hide' : 'Extensions'}
        </button>
        {open && (
          <div className="ext-drawer__tabs" role="tablist" aria-label="Extension tabs">
            {tabs.map((tab) => (
              <button
                key={tab.key}
                type="button"
                role="tab"
                className="tabs__tab"
                aria-selected={tab.key === shown.key}
                title={tab.options.description ?? tab.title}
                onClick={() => choose(tab)}
                data-extension-id={tab.extensionId}
              >
                <ExtensionIcon svg={tab.options.iconSvg} />
                {label(tab)}
                {tab.badge && <span className="badge badge--neutral">{tab.badge}</span>}
              </button>
            ))}
          </div>
        )}
        {/* What extensions mounted in Lumiverse's drawer header: beside the tabs. */}
        {open && <BarMountFrames points={DRAWER_HEADER_MOUNT_POINTS} place="drawer header" />}
      </div>
      {open && (
        <div className="ext-drawer__panel" role="tabpanel" aria-label={label(shown)} data-extension-id={shown.extensionId}>
          {shown.options.headerTitle && <h2 className="ext-drawer__title">{shown.options.headerTitle}</h2>}
          <SurfaceFrame key={shown.key} extensionId={shown.extensionId} surfaceId={shown.surfaceId} title={label(shown)} className="surface-frame--fill" />
        </div>
      )}
    </aside>
  );
}
