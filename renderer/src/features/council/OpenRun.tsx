// The run open below the run form: its header, timeline and Retry failed.
import { useId } from 'react';
import { Icon } from '../../components/Icon';
import type { RunTrace } from '../../stores/council/runs-slice';
import { Timeline } from './Timeline';
import { RunHeader } from './RunHeader';

export function OpenRun(props: { trace: RunTrace }) {
  const { trace } = props;
  const id = useId();
  const run = trace.run;
  return (
    <section className="card open-run" aria-labelledby={`${id}-title`} data-testid="open-run">
      <h2 id={`${id}-title`} className="card__title">
        Timeline
      </h2>
      <RunHeader trace={trace} />
      <Timeline trace={trace} />
      {run?.note && (
        <p className="note-line open-run__note" data-testid="run-note">
          <Icon name="info" /> {run.note}
        </p>
      )}
      {run && run.deliberationBlock && (
        <section className="deliberation" aria-labelledby={`${id}-block`}>
          <h3 id={`${id}-block`} className="settings__subtitle">
            Deliberation block
          </h3>
          <pre className="code-block deliberation__text" tabIndex={0} aria-label="Deliberation block" data-testid="deliberation">
            {run.deliberationBlock}
          </pre>
        </section>
      )}
      {run && run.historyBlock && (
        <details className="deliberation">
          <summary className="settings__subtitle">History block (earlier deliberations, main model only)</summary>
          <pre className="code-block deliberation__text" tabIndex={0} aria-label="History block">
            {run.historyBlock}
          </pre>
        </details>
      )}
    </section>
  );
}
