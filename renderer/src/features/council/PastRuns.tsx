// The stored runs: open one again, or export it as a JSON Lines trace.
import { useId, useState } from 'react';
import type { RunSummary } from '../../../../shared/types/council';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { exportRunTrace } from '../../stores/chat/chat-commands';
import { openRun, reloadRuns } from '../../stores/council/council-commands';
import { FileExport } from './FileExport';
import { formatDuration } from './timeline-geometry';
import { useAction } from '../../components/use-action';
import { AskingHost } from '../../components/AskingHost';
import { when } from './run-model';

export function PastRuns() {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const items = useAppStore((s) => s.runs.items);
  const loaded = useAppStore((s) => s.runs.loaded);
  const loadError = useAppStore((s) => s.runs.loadError);
  const openId = useAppStore((s) => s.runs.openId);
  const traces = useAppStore((s) => s.runs.traces);
  const live = Object.values(traces).filter((t) => t.run === null && t.id !== openId);
  const { busy, error, run } = useAction<string>();
  const [exported, setExported] = useState<{ runId: string; fileName: string; content: string } | null>(null);

  const open = (runId: string) =>
    void run(`open:${runId}`, `Could not open ${runId}`, () => openRun(store, host, runId)).then((r) => {
      if (r?.ok) document.querySelector<HTMLElement>('[data-testid="open-run"] h2')?.scrollIntoView?.({ block: 'nearest' });
    });
  const exportTrace = (runId: string) =>
    void run(`export:${runId}`, `Could not export ${runId}`, () => exportRunTrace(host, runId)).then((r) => {
      if (r?.ok) setExported({ runId, ...r.value });
    });

  const row = (r: RunSummary) => (
    <li key={r.id} className={`past-run${r.id === openId ? ' past-run--open' : ''}`} data-testid="past-run" data-run-id={r.id}>
      <div className="past-run__text">
        <span className={`badge badge--${r.status === 'aborted' ? 'danger' : r.counts.failed > 0 ? 'write' : 'ok'}`}>{r.status}</span>
        <span className="past-run__when">{when(r.startedAt)}</span>
        <span className="past-run__counts">
          {r.counts.ok}/{r.counts.total} ok · {r.activeMembers} {r.activeMembers === 1 ? 'member' : 'members'} · {formatDuration(r.totalDurationMs)}
        </span>
        <code className="past-run__id">{r.id}</code>
        {r.retryOf && <span className="past-run__retry">retry</span>}
      </div>
      <div className="past-run__actions">
        <button type="button" className="btn btn--small" aria-pressed={r.id === openId} aria-label={`Open run ${r.id}`} aria-disabled={busy !== null || undefined} onClick={() => busy === null && open(r.id)}>
          <span aria-hidden="true">{busy === `open:${r.id}` ? 'Opening…' : 'Open'}</span>
        </button>
        <button type="button" className="btn btn--small" aria-label={`Export trace of run ${r.id}`} aria-disabled={busy !== null || undefined} onClick={() => busy === null && exportTrace(r.id)}>
          <span aria-hidden="true">{busy === `export:${r.id}` ? 'Exporting…' : 'Export trace'}</span>
        </button>
      </div>
    </li>
  );

  return (
    <section className="card past-runs" aria-labelledby={`${id}-title`} data-testid="past-runs">
      <div className="card__head">
        <h2 id={`${id}-title`} className="card__title">
          Past runs
        </h2>
        <button type="button" className="btn btn--small btn--ghost" onClick={() => void reloadRuns(store, host)} aria-label="Reload past runs">
          <Icon name="refresh" />
        </button>
      </div>
      {live.length > 0 && (
        <ul className="past-run-list" aria-label="Runs in progress">
          {live.map((t) => (
            <li key={t.id} className="past-run past-run--live" data-testid="live-run" data-run-id={t.id}>
              <div className="past-run__text">
                <span className="status-badge status-badge--warn">
                  <span className="status-badge__dot status-badge__dot--pulse" aria-hidden="true" />
                  running
                </span>
                <span className="past-run__when">{when(t.startedAt)}</span>
                <span className="past-run__counts">
                  {t.results.length} of {t.planned.length} tools done{t.retryOf ? ' · retry' : ''}
                </span>
                <code className="past-run__id">{t.id}</code>
              </div>
              <div className="past-run__actions">
                <button type="button" className="btn btn--small" aria-label={`Watch run ${t.id}`} onClick={() => store.getState().runOpened(t.id)}>
                  <span aria-hidden="true">Watch</span>
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {loadError && <InlineError error={loadError} title="Could not list the stored runs" />}
      {items.length > 0 ? (
        <ul className="past-run-list" aria-label="Stored runs, newest first">
          {items.map(row)}
        </ul>
      ) : (
        // Asking only while an answer can come: not beside the error that ended it, nor under the "not connected" banner.
        loaded ? (
          <p className="panel-note">No runs yet. Runs from here and from the Workbench chat are stored and listed here.</p>
        ) : (
          !loadError && <AskingHost>for stored runs</AskingHost>
        )
      )}
      {exported && (
        <FileExport
          fileName={exported.fileName}
          content={exported.content}
          mime="application/x-ndjson"
          title={`Trace of ${exported.runId} (JSON Lines)`}
          onClose={() => setExported(null)}
          testId="trace-export"
        />
      )}
      {error && <InlineError error={error.error} title={error.title} />}
    </section>
  );
}
