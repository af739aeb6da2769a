// A run's heading: its status badge, id, seed and counts, with a progress bar while it runs.
import type { RunTrace } from '../../stores/council/runs-slice';
import { progressOf, when } from './run-model';
import { formatDuration } from './timeline-geometry';

export function Progress(props: { trace: RunTrace }) {
  const p = progressOf(props.trace);
  if (!p.running) return null;
  return (
    <div className="run-progress" data-testid="run-progress">
      <progress max={Math.max(1, p.total)} value={p.done} aria-label="Council run progress" />
      <span role="status">
        {p.done} of {p.total} {p.total === 1 ? 'tool' : 'tools'} done
      </span>
    </div>
  );
}

export function RunHeader(props: { trace: RunTrace }) {
  const { trace } = props;
  const run = trace.run;
  const status = run ? run.status : 'running';
  return (
    <div className="run-head" data-testid="run-head" data-status={status}>
      <span className={`status-badge status-badge--${status === 'completed' ? (run && run.counts.failed > 0 ? 'warn' : 'ok') : status === 'aborted' ? 'danger' : status === 'running' ? 'warn' : 'ok'}`}>
        <span className={`status-badge__dot${status === 'running' ? ' status-badge__dot--pulse' : ''}`} aria-hidden="true" />
        {status}
      </span>
      <code className="run-head__id">{trace.id}</code>
      <span>
        seed <code data-testid="run-seed">{trace.seed}</code>
      </span>
      <span>{trace.mode} mode</span>
      <span>{when(trace.startedAt)}</span>
      {run && <span>took {formatDuration(run.totalDurationMs)}</span>}
      {run && (
        <span data-testid="run-counts">
          {run.counts.ok} ok · {run.counts.failed} failed
        </span>
      )}
      {trace.retryOf && <span>retry of <code>{trace.retryOf}</code></span>}
      {run?.dryRun && (
        <span className="badge badge--write" data-testid="run-dry-run" title="Write tools were simulated: nothing was written.">
          dry run
        </span>
      )}
    </div>
  );
}
