// The council's heading: Council Mode on or off, the member count and the problems to fix.
import { useState } from 'react';
import type { CouncilView } from '../../../../shared/types/council';
import { useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { updateCouncil } from '../../stores/council/council-commands';
import { useAction } from '../../components/use-action';

export function CouncilHeader(props: { view: CouncilView }) {
  const { view } = props;
  const store = useAppStoreApi();
  const host = useHost();
  const { busy, error, run } = useAction<'mode'>();
  const [pending, setPending] = useState<boolean | null>(null);
  const on = pending ?? view.settings.councilMode;
  const withTools = view.members.filter((m) => m.tools.length > 0).length;
  const canTurnOn = view.members.length > 0;
  // A member takes part only with a tool and a chance above 0: with none such, Council Mode would do nothing.
  const canAct = view.members.some((m) => m.tools.length > 0 && m.chance > 0);
  const [confirming, setConfirming] = useState(false);
  const toggle = (next: boolean, anyway = false) => {
    if (busy) return;
    if (next && !canTurnOn) return;
    if (next && !canAct && !anyway) return setConfirming(true);
    setConfirming(false);
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
      {confirming && !on && (
        <div className="banner banner--warning" role="alert" data-testid="council-mode-confirm">
          <Icon name="warning" className="banner__icon" />
          <div className="banner__content">
            <p>
              No member can act: {withTools === 0 ? 'none has a tool' : 'every member with a tool has a 0% chance'}, so the council would add nothing to a
              reply. Give a member a tool below (or raise its chance) first.
            </p>
            <div className="banner__actions">
              <button type="button" className="btn btn--small" onClick={() => toggle(true, true)}>
                Turn on anyway
              </button>
              <button type="button" className="btn btn--small btn--ghost" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </div>
          </div>
        </div>
      )}
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
