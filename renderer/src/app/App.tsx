// The shell: skip link, sidebar navigation, the shown section with notices above it, and the status bar.
import { Suspense, useEffect, type MouseEvent, type ReactNode } from 'react';
import { Icon } from '../components/Icon';
import { PANELS, preloadPanels } from '../features';
import { ApprovalDialog } from '../features/safety/ApprovalDialog';
import { DockPanels } from '../features/frontends/DockPanels';
import { ExtensionToasts } from '../features/frontends/ExtensionToasts';
import { ExtensionNavigation } from '../features/frontends/ExtensionNavigation';
import { FloatWidgets } from '../features/frontends/FloatWidgets';
import { FrontendDialogs } from '../features/frontends/FrontendDialogs';
import { AppOverlays } from '../features/frontends/AppOverlays';
import { FrontendFrames } from '../features/frontends/FrontendFrames';
import { FrontendsProvider, useFrontendsStore } from '../features/frontends/frontends-context';
import { drawerShown } from '../features/frontends/frontends-store';
import '../features/frontends/frontends.css';
import { selectSection, selectSectionSelected, selectTheme } from '../stores/app/selectors';
import { useAppStore, useAppStoreApi, useHost } from './context';
import { useAddress } from './use-address';
import { Nav } from './Nav';
import { NoticesArea } from './NoticesArea';
import { sectionById } from './sections';
import { StatusBar } from './StatusBar';
import { ThemeSwitch } from './ThemeSwitch';
import { BackupControls } from '../features/backup/BackupControls';
import { FirstRunGuide } from './FirstRunGuide';
import { useSectionShortcuts } from './use-section-shortcuts';
import { useWindowPresence } from './use-window-presence';

/** The float widgets, told of the app's layout (its section, its open chat) without the shell re-rendering for it. */
function AppFloatWidgets() {
  const section = useAppStore(selectSection);
  const openChat = useAppStore((state) => state.chat.openId);
  return <FloatWidgets layout={`${section}/${openChat ?? ''}`} />;
}

function skipToMain(event: MouseEvent<HTMLAnchorElement>) {
  // Focus the main region without putting #main in the address bar.
  event.preventDefault();
  document.getElementById('main')?.focus();
}

/**
 * The shown section. Its layout follows attributes (the section; the extension drawer open beside the Workbench's
 * chat) rather than `:has()` rules: those made the browser check the whole page's style again at each streamed change.
 */
function Main(props: { section: ReturnType<typeof selectSection>; children: ReactNode }) {
  const spec = sectionById(props.section);
  const drawer = useFrontendsStore(drawerShown);
  return (
    <main id="main" className="main" tabIndex={-1} aria-labelledby="section-title" data-panel={spec.id} data-drawer={spec.id === 'workbench' && drawer ? 'open' : undefined}>
      <header className="main__header">
        <div className="main__title-row">
          <Icon name={spec.id} className="main__icon" />
          <h1 id="section-title" className="main__title">
            {spec.label}
          </h1>
        </div>
        <p className="main__summary">{spec.summary}</p>
      </header>
      <NoticesArea />
      <FirstRunGuide />
      <div className="main__body" data-testid={`panel-${spec.id}`}>
        {props.children}
      </div>
    </main>
  );
}

export function App() {
  const section = useAppStore(selectSection);
  const select = useAppStore(selectSectionSelected);
  const theme = useAppStore(selectTheme);
  const Panel = PANELS[section];

  useSectionShortcuts(select);
  const host = useHost();
  useAddress(useAppStoreApi(), host);
  useWindowPresence(host);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useEffect(() => void preloadPanels(), []);

  return (
    <FrontendsProvider>
      <a className="skip-link" href="#main" onClick={skipToMain}>
        Skip to content
      </a>
      <div className="shell">
        <aside className="sidebar">
          <div className="brand">
            <span className="brand__mark">
              <Icon name="logo" />
            </span>
            <span className="brand__name">Council Workbench</span>
          </div>
          <Nav />
          <div className="sidebar__footer">
            <BackupControls />
            <ThemeSwitch />
          </div>
        </aside>
        {/* The panel is made here: the drawer opening or closing re-renders Main, not the section inside it. */}
        <Main section={section}>
          <Suspense fallback={<p className="panel-note">Opening…</p>}>
            <Panel />
          </Suspense>
        </Main>
        <StatusBar />
      </div>
      {/* Over every section: tool calls waiting for a person (outside .shell, which goes inert while it shows). */}
      <ApprovalDialog />
      {/* Extensions' frontends: their runtime frames (hidden) and what they float, dock or ask over the app. */}
      <FrontendFrames />
      <DockPanels />
      <AppFloatWidgets />
      <AppOverlays />
      <FrontendDialogs />
      <ExtensionToasts />
      <ExtensionNavigation />
    </FrontendsProvider>
  );
}
