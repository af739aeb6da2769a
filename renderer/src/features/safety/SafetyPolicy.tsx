// The write policy: ask before every write tool, and dry run by default for council runs and Workbench messages.
import { useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { readSafetySettings } from '../../../../shared/types/safety';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { InlineError } from '../../components/InlineError';
import { updateSafety } from '../../stores/safety/safety-commands';
import { useAction } from '../../components/use-action';

export function SafetyPolicy() {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const loaded = useAppStore((s) => s.settings !== null);
  const { approveAllWrites, dryRun } = useAppStore(useShallow((s) => {
    const safety = readSafetySettings(s.settings?.safety);
    return { approveAllWrites: safety.approveAllWrites, dryRun: safety.dryRun };
  }));
  const { busy, error, run } = useAction<'writes' | 'dry'>();
  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="safety-policy">
      <h2 id={`${id}-title`} className="card__title">
        Policy
      </h2>
      <div className="safety-switches">
        <div>
          <label className="switch">
            <input
              type="checkbox"
              role="switch"
              checked={approveAllWrites}
              disabled={!loaded}
              aria-describedby={`${id}-writes-help`}
              aria-busy={busy === 'writes' || undefined}
              onChange={(e) => void run('writes', 'Could not change the write policy', () => updateSafety(store, host, { approveAllWrites: e.target.checked }))}
              data-testid="approve-all-writes"
            />
            <span className="switch__track" aria-hidden="true" />
            <span>Ask before every write tool</span>
          </label>
          <p className="safety-switch__help" id={`${id}-writes-help`}>
            {approveAllWrites
              ? 'On: any tool that can change things waits for your approval (tools you chose to always allow excepted).'
              : 'Off: only tools that declare they need approval ask first; other write tools run at once.'}
          </p>
        </div>
        <div>
          <label className="switch">
            <input
              type="checkbox"
              role="switch"
              checked={dryRun}
              disabled={!loaded}
              aria-describedby={`${id}-dry-help`}
              aria-busy={busy === 'dry' || undefined}
              onChange={(e) => void run('dry', 'Could not change the dry-run default', () => updateSafety(store, host, { dryRun: e.target.checked }))}
              data-testid="dry-run-default"
            />
            <span className="switch__track" aria-hidden="true" />
            <span>Dry run by default</span>
          </label>
          <p className="safety-switch__help" id={`${id}-dry-help`}>
            Council runs and Workbench messages simulate write tools instead of running them (results are marked simulated). Each run and message can still choose.
          </p>
        </div>
      </div>
      {error && <InlineError error={error.error} title={error.title} />}
    </section>
  );
}
