// Council section: Council Mode, problems to fix, and four tabs: Members (who and with which tools), Runs (test roll,
// run, timeline, past runs), Packs (the Lumia packs members come from) and Settings (mode, context, fallback, profiles).
import { useId } from 'react';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { sectionById } from '../../app/sections';
import { EmptyState } from '../../components/EmptyState';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { reloadCouncil } from '../../stores/council/council-commands';
import { MembersTab } from './MembersTab';
import { PacksTab } from './PacksTab';
import { RunsTab } from './RunsTab';
import { SettingsTab } from './SettingsTab';
import { AskingHost } from '../../components/AskingHost';
import { CouncilHeader } from './CouncilHeader';
import { CouncilTabs } from './CouncilTabs';

const SPEC = sectionById('council');


export function CouncilPanel() {
  const view = useAppStore((s) => s.council.view);
  const loadError = useAppStore((s) => s.council.loadError);
  const tab = useAppStore((s) => s.council.tab);
  const select = useAppStore((s) => s.councilTabSelected);
  const store = useAppStoreApi();
  const host = useHost();
  const idBase = useId().replace(/[^A-Za-z0-9]/g, '');

  if (!view) {
    return (
      <EmptyState icon="council" {...SPEC.empty}>
        {loadError ? (
          <div className="council-load-error">
            <InlineError error={loadError} title="Could not read the council" />
            <button type="button" className="btn" onClick={() => void reloadCouncil(store, host)}>
              <Icon name="refresh" /> Try again
            </button>
          </div>
        ) : (
          <AskingHost>for the council</AskingHost>
        )}
      </EmptyState>
    );
  }

  return (
    <div className="panel-stack council" data-testid="council-panel">
      <CouncilHeader view={view} />
      <CouncilTabs tab={tab} onSelect={select} idBase={idBase} />
      <div role="tabpanel" id={`${idBase}-panel`} aria-labelledby={`${idBase}-tab-${tab}`} className="council-tabpanel">
        {tab === 'members' && <MembersTab view={view} />}
        {tab === 'runs' && <RunsTab view={view} />}
        {tab === 'packs' && <PacksTab />}
        {tab === 'settings' && <SettingsTab view={view} />}
      </div>
    </div>
  );
}
