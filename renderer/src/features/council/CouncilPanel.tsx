// Council section: Council Mode, problems to fix, and four tabs: Members (who and with which tools), Runs (test roll,
// run, timeline, past runs), Packs (the Lumia packs members come from) and Settings (mode, context, fallback, profiles).
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import type { CouncilView } from '../../../../shared/types/council';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { sectionById } from '../../app/sections';
import { EmptyState } from '../../components/EmptyState';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { reloadCouncil, updateCouncil } from '../../stores/council-commands';
import type { CouncilTab } from '../../stores/council-slice';
import { MembersTab } from './MembersTab';
import { PacksTab } from './PacksTab';
import { RunsTab } from './RunsTab';
import { SettingsTab } from './SettingsTab';
import { useAction } from './use-action';
import { AskingHost } from '../../components/AskingHost';

const SPEC = sectionById('council');

const TABS: ReadonlyArray<{ id: CouncilTab; label: string }> = [
  { id: 'members', label: 'Members' },
  { id: 'runs', label: 'Runs' },
  { id: 'packs', label: 'Packs' },
  { id: 'settings', label: 'Settings' },
];

function CouncilHeader(props: { view: CouncilView }) {
  const { view } = props;
  const store = useAppStoreApi();
  const host = useHost();
  const { busy, error, run } = useAction<'mode'>();
  const [pending, setPending] = useState<boolean | null>(null);
  const on = pending ?? view.settings.councilMode;
  const withTools = view.members.filter((m) => m.tools.length > 0).length;
  const canTurnOn = view.members.length > 0;
  const toggle = (next: boolean) => {
    if (busy) return;
    if (next && !canTurnOn) return;
    setPending(next);
    void run('mode', next ? 'Could not turn Council Mode on' : 'Could not turn Council Mode off', () => updateCouncil(store, host, { councilMode: next })).finally(() => setPending(null));
  };
  return (
    <div className="council-head" data-testid="council-head">
      <div className="council-head__row">
        <label className="switch council-head__switch" title={canTurnOn ? 'Members weigh in before every Workbench reply' : 'Add a member first'}>
          <input
            type="checkbox"
            role="switch"
            checked={on}
            aria-label="Council Mode"
            aria-disabled={busy !== null || (!on && !canTurnOn) || undefined}
            aria-describedby="council-mode-help"
            onChange={(e) => toggle(e.target.checked)}
            data-testid="council-mode"
          />
          <span className="switch__track" aria-hidden="true" />
          <span aria-hidden="true">Council Mode {on ? 'on' : 'off'}</span>
        </label>
        <p className="council-head__summary" role="status">
          {view.members.length} {view.members.length === 1 ? 'member' : 'members'} · {withTools} with tools · {view.settings.toolsSettings.mode} mode ·{' '}
          <span className={view.sidecarConfigured ? '' : 'council-head__warn'}>{view.sidecarConfigured ? 'sidecar ready' : 'no sidecar LLM'}</span>
        </p>
      </div>
      <p id="council-mode-help" className="council-head__help">
        {on
          ? `Before each Workbench reply the ${view.settings.toolsSettings.mode === 'inline' ? 'members’ tools are offered to the main model' : 'members roll and their tools run'}.`
          : canTurnOn
            ? 'Off: the Workbench chat replies without the council. Runs from the Runs tab still work.'
            : 'Council Mode needs a member: add one below, then turn it on here.'}
      </p>
      {view.warnings.length > 0 && (
        <div className="banner banner--warning council-warnings" role="region" aria-label="Council problems" data-testid="council-warnings">
          <Icon name="warning" className="banner__icon" />
          <div className="banner__content">
            <ul className="council-warnings__list">
              {view.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </div>
        </div>
      )}
      {error && <InlineError error={error.error} title={error.title} />}
    </div>
  );
}

function Tabs(props: { tab: CouncilTab; onSelect(tab: CouncilTab): void; idBase: string }) {
  const refs = useRef(new Map<CouncilTab, HTMLButtonElement>());
  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = TABS.findIndex((t) => t.id === props.tab);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = TABS[(moves[event.key]! + TABS.length) % TABS.length]!;
    props.onSelect(next.id);
    refs.current.get(next.id)?.focus();
  };
  return (
    <div className="council-tabs" role="tablist" aria-label="Council" onKeyDown={onKey}>
      {TABS.map((t) => (
        <button
          key={t.id}
          ref={(el) => {
            if (el) refs.current.set(t.id, el);
          }}
          type="button"
          role="tab"
          id={`${props.idBase}-tab-${t.id}`}
          className="council-tab"
          aria-selected={props.tab === t.id}
          aria-controls={`${props.idBase}-panel`}
          tabIndex={props.tab === t.id ? 0 : -1}
          onClick={() => props.onSelect(t.id)}
          data-testid={`council-tab-${t.id}`}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

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
      <Tabs tab={tab} onSelect={select} idBase={idBase} />
      <div role="tabpanel" id={`${idBase}-panel`} aria-labelledby={`${idBase}-tab-${tab}`} className="council-tabpanel">
        {tab === 'members' && <MembersTab view={view} />}
        {tab === 'runs' && <RunsTab view={view} />}
        {tab === 'packs' && <PacksTab />}
        {tab === 'settings' && <SettingsTab view={view} />}
      </div>
    </div>
  );
}
