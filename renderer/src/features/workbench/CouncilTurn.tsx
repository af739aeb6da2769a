// The council's part in one reply: deliberating / done / failed / skipped, and the run itself on demand —
// its deliberation as monospace text (collapsible), each tool's outcome, and its JSON Lines trace to download.
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { HostError } from '../../../../shared/errors';
import type { CouncilRun } from '../../../../shared/types/council';
import { useAppStoreApi, useHost } from '../../app/context';
import { formatMs, InlineError } from '../../components/InlineError';
import { Icon } from '../../components/Icon';
import { exportRunTrace, fetchRun } from '../../stores/chat/chat-commands';
import { openRun } from '../../stores/council/council-commands';
import type { CouncilState } from '../../stores/chat/chat-turns';
import { downloadText } from './files';

export function CouncilTurn(props: { council: CouncilState | null; runId: string | null; live: boolean }) {
  const host = useHost();
  const store = useAppStoreApi();
  const uid = useId();
  const { council } = props;
  const runId = council?.phase === 'completed' ? council.runId : council?.phase === 'started' ? council.runId : props.runId;
  const [open, setOpen] = useState(false);
  const [run, setRun] = useState<CouncilRun | null>(null);
  const [error, setError] = useState<HostError | null>(null);
  const [busy, setBusy] = useState<null | 'run' | 'trace'>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => void (mounted.current = false);
  }, []);
  // Opened by a click, the deliberation comes into view once read (it opens downwards, under the composer).
  const bodyRef = useRef<HTMLDivElement>(null);
  const reveal = useRef(false);
  useLayoutEffect(() => {
    if (!open || !reveal.current || busy === 'run') return;
    reveal.current = false;
    bodyRef.current?.scrollIntoView({ block: 'nearest' });
  }, [open, busy]);

  if (!council && !runId) return null;

  const toggle = async () => {
    const next = !open;
    setOpen(next);
    reveal.current = next;
    if (!next || run || !runId || busy) return;
    setBusy('run');
    setError(null);
    const result = await fetchRun(host, runId);
    if (!mounted.current) return;
    setBusy(null);
    if (result.ok) setRun(result.value);
    else setError(result.error);
  };

  const trace = async () => {
    if (!runId || busy) return;
    setBusy('trace');
    setError(null);
    const result = await exportRunTrace(host, runId);
    if (!mounted.current) return;
    setBusy(null);
    if (!result.ok) setError(result.error);
    else downloadText(result.value.fileName, result.value.content, 'application/x-ndjson');
  };

  /** Watch the run where the council lives: its timeline, per-tool timing and retry. */
  const openInCouncil = async () => {
    if (!runId || busy) return;
    setBusy('run');
    setError(null);
    const result = await openRun(store, host, runId);
    if (!mounted.current) return;
    setBusy(null);
    if (!result.ok) return setError(result.error);
    store.getState().councilTabSelected('runs');
    store.getState().sectionSelected('council');
  };

  let status: ReactNode;
  if (council?.phase === 'started') {
    status = (
      <>
        <span className="spinner" aria-hidden="true" /> The council is deliberating…
      </>
    );
  } else if (council?.phase === 'failed') {
    status = (
      <>
        <Icon name="warning" /> The council failed; the reply goes on without its deliberation.
      </>
    );
  } else if (council?.phase === 'skipped') {
    status = (
      <>
        <Icon name="info" /> Council skipped: {council.reason}
      </>
    );
  } else {
    const chars = council?.phase === 'completed' ? council.deliberationChars : null;
    status = (
      <>
        <Icon name="council" /> Council deliberated{council?.phase === 'completed' && council.reused ? ' (reused for this regeneration)' : ''}
        {chars !== null ? ` · ${chars.toLocaleString('en')} characters` : ''}
      </>
    );
  }

  const bodyId = `${uid}-deliberation`;
  return (
    <div className="council-turn" data-testid="council-turn" data-phase={council?.phase ?? 'saved'}>
      <div className="council-turn__head">
        <span className="council-turn__status" role={props.live ? 'status' : undefined}>
          {status}
        </span>
        {runId && (
          <span className="council-turn__actions">
            <code className="council-turn__run" title="Council run id (find it in runs.list / the CLI)" data-testid="council-run-id">
              {runId}
            </code>
            <button type="button" className="btn btn--small" aria-expanded={open} aria-controls={bodyId} onClick={() => void toggle()}>
              {open ? 'Hide deliberation' : 'Show deliberation'}
            </button>
            <button type="button" className="btn btn--small btn--ghost" aria-disabled={busy !== null || undefined} onClick={() => void openInCouncil()}>
              <Icon name="council" />
              Open in Council
            </button>
            <button type="button" className="btn btn--small btn--ghost" aria-disabled={busy !== null || undefined} onClick={() => void trace()}>
              <Icon name="terminal" />
              {busy === 'trace' ? 'Exporting…' : 'Download trace'}
            </button>
          </span>
        )}
      </div>
      {council?.phase === 'failed' && <InlineError error={council.error} title="Council run failed" />}
      {error && <InlineError error={error} title="Could not read the council run" />}
      {open && (
        <div className="council-turn__body" id={bodyId} data-testid="deliberation" ref={bodyRef}>
          {busy === 'run' && <p className="panel-note">Reading the run…</p>}
          {run && (
            <>
              <p className="council-turn__summary">
                {run.counts.ok} of {run.counts.total} tools answered · {formatMs(run.totalDurationMs)} · seed {run.seed}
                {run.note ? ` · ${run.note}` : ''}
              </p>
              {run.results.length > 0 && (
                <ul className="council-turn__results">
                  {run.results.map((r, i) => (
                    <li key={`${r.memberId}:${r.toolName}:${i}`} data-status={r.status}>
                      <span className={`badge badge--${r.status === 'ok' ? 'ok' : 'danger'}`}>{r.status}</span> <strong>{r.memberName}</strong> ·{' '}
                      <code>{r.toolDisplayName || r.toolName}</code> · {formatMs(r.durationMs)}
                      {r.error ? <span className="council-turn__error"> — {r.error}</span> : null}
                    </li>
                  ))}
                </ul>
              )}
              <pre className="council-turn__text" tabIndex={0} aria-label="Deliberation">
                {run.deliberationBlock || '(The deliberation is empty.)'}
              </pre>
            </>
          )}
        </div>
      )}
    </div>
  );
}
