// One tool call of a run in full: member, tool, status, timing, error code and message, planned arguments, and the output as plain text.
import { formatMs } from '../../components/InlineError';
import { Icon } from '../../components/Icon';
import { STATUS_GLYPHS, STATUS_HELP, STATUS_LABELS, type TimelineCall } from './run-model';
import { formatDuration, type BarLayout } from './timeline-geometry';

const TONE: Record<string, string> = { ok: 'ok', error: 'danger', timeout: 'warn', cancelled: 'neutral', missing: 'danger', running: 'info' };

export function CallDetail(props: { call: TimelineCall & Pick<BarLayout, 'endMs'>; onClose(): void }) {
  const { call } = props;
  const result = call.result;
  const args = result?.plannedArgs ? JSON.stringify(result.plannedArgs, null, 2) : null;
  return (
    <article className="inset call-detail" aria-label={`${call.memberName}: ${call.toolDisplayName}`} data-testid="call-detail" data-status={call.status}>
      <header className="call-detail__head">
        <span className={`call-detail__status call-detail__status--${TONE[call.status] ?? 'neutral'}`} data-testid="call-status">
          <span aria-hidden="true">{STATUS_GLYPHS[call.status]} </span>
          {STATUS_LABELS[call.status]}
        </span>
        <h3 className="call-detail__title">
          {call.memberName} <span className="call-detail__sep">·</span> {call.toolDisplayName}
        </h3>
        <button type="button" className="btn btn--small btn--ghost call-detail__close" onClick={props.onClose} aria-label="Close call details">
          <Icon name="close" />
        </button>
      </header>
      <p className="call-detail__help">{STATUS_HELP[call.status]}</p>
      <dl className="meta call-detail__meta">
        <div>
          <dt>Tool</dt>
          <dd>
            <code>{call.toolName}</code>
          </dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>+{formatDuration(call.startMs)} after the run began</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd data-testid="call-duration">{call.status === 'running' ? `${formatMs(call.endMs - call.startMs)} so far` : formatMs(call.durationMs)}</dd>
        </div>
        {result?.planning && (
          <div>
            <dt>Planning</dt>
            <dd data-testid="call-planning">
              {result.planning.constrained ? 'Constrained: generated under a grammar built from the tool’s schema.' : 'Planned by the sidecar model.'}
              {result.planning.repaired ? ' Repaired: the first plan broke the schema, and the model was asked once more with the error.' : ''}
            </dd>
          </div>
        )}
        {result?.unplanned && (
          <div>
            <dt>Arguments</dt>
            <dd data-testid="call-unplanned">Unplanned: {result.unplanned}. Called as Lumiverse calls council tools, with only the chat context and the deadline.</dd>
          </div>
        )}
        {result?.simulated && (
          <div>
            <dt>Dry run</dt>
            <dd data-testid="call-simulated">
              {result.unvalidated ? 'Simulated: a placeholder answered; nothing checked what the tool would really do.' : 'Simulated: the tool described what it would do, without doing it.'}
            </dd>
          </div>
        )}
        {(result?.cached || result?.approval) && (
          <div>
            <dt>Safety</dt>
            <dd data-testid="call-safety">
              {[result.cached ? 'Served from the result cache (the tool did not run again).' : '', result.approval ? `Approved: ${result.approval === 'once' ? 'once' : result.approval === 'always' ? 'always allowed' : 'by policy'}.` : '']
                .filter(Boolean)
                .join(' ')}
            </dd>
          </div>
        )}
        {result?.rejectionNote && (
          <div>
            <dt>Rejection note</dt>
            <dd data-testid="call-rejection-note">{result.rejectionNote}</dd>
          </div>
        )}
        {result?.errorCode && (
          <div>
            <dt>Error code</dt>
            <dd>
              <code data-testid="call-error-code">{result.errorCode}</code>
            </dd>
          </div>
        )}
        {result?.error && (
          <div>
            <dt>Error</dt>
            <dd className="call-detail__error" data-testid="call-error">
              {result.error}
            </dd>
          </div>
        )}
      </dl>
      {args !== null && (
        <section className="call-detail__section">
          <h4>Planned arguments</h4>
          <pre className="code-block" tabIndex={0} aria-label="Planned arguments">
            {args}
          </pre>
        </section>
      )}
      {result && (result.status === 'ok' || result.content) && (
        <section className="call-detail__section">
          <h4>Output</h4>
          {result.content ? (
            <pre className="code-block call-detail__output" tabIndex={0} aria-label="Tool output" data-testid="call-output">
              {result.content}
            </pre>
          ) : (
            <p className="panel-note">The tool answered with empty text.</p>
          )}
        </section>
      )}
    </article>
  );
}
