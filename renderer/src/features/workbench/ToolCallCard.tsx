// One tool call as it happens (seed 004 order): started → name → argument fragments growing → ended or failed, then its result. All text.
import type { ChatToolCallRecord } from '../../../../shared/types/chat';
import { formatMs, InlineError } from '../../components/InlineError';
import { Icon } from '../../components/Icon';
import type { ToolCallCard as Card } from '../../stores/chat/chat-turns';
import { OutcomeFlags } from '../safety/OutcomeFlags';

function phaseLabel(card: Card, live: boolean): { text: string; tone: 'busy' | 'ok' | 'danger' } {
  if (card.result) return card.result.ok ? { text: 'Done', tone: 'ok' } : { text: 'Error', tone: 'danger' };
  switch (card.phase) {
    case 'started':
      return { text: 'Starting…', tone: 'busy' };
    case 'named':
      return { text: 'Called', tone: 'busy' };
    case 'arguments':
      return { text: 'Writing arguments…', tone: 'busy' };
    case 'ended':
      return live ? { text: 'Running…', tone: 'busy' } : { text: 'No result', tone: 'danger' };
    case 'failed':
      return { text: 'Failed', tone: 'danger' };
  }
}

/** A saved call (from the session file) drawn with the same card. */
export function cardFromRecord(record: ChatToolCallRecord, index: number): Card {
  return {
    callId: record.id,
    index,
    round: record.round,
    // Records from before these were kept sit at the start of the reply, as they always did.
    textOffset: record.textOffset ?? 0,
    phase: record.ok || record.errorCode !== 'INVALID_ARGUMENTS_JSON' ? 'ended' : 'failed',
    name: record.name,
    qualifiedName: record.qualifiedName,
    memberName: record.memberName ?? null,
    argsText: record.argsText,
    error: null,
    result: {
      ok: record.ok,
      content: record.result,
      durationMs: record.durationMs ?? Number.NaN,
      ...(record.errorCode ? { errorCode: record.errorCode } : {}),
      ...(record.simulated ? { simulated: true } : {}),
      ...(record.unvalidated ? { unvalidated: true } : {}),
      ...(record.cached ? { cached: true } : {}),
      ...(record.unoffered ? { unoffered: true } : {}),
    },
  };
}

/** A call to a tool nobody offered: nothing ran, and it is said in one muted line (as SillyTavern hides it). */
export function QuietToolCall(props: { card: Card }) {
  return (
    <li className="tool-card tool-card--quiet" data-testid="tool-call-quiet" data-call-id={props.card.callId}>
      The model asked for <code>{props.card.name}</code>; no tool was offered, so nothing ran.
    </li>
  );
}

export function ToolCallCard(props: { card: Card; live: boolean }) {
  const { card, live } = props;
  const label = phaseLabel(card, live);
  const busy = label.tone === 'busy' && live;
  return (
    <li
      className={`tool-card tool-card--${label.tone}`}
      data-testid="tool-call"
      data-phase={card.phase}
      data-call-id={card.callId}
      data-result={card.result ? (card.result.ok ? 'ok' : 'error') : 'none'}
      aria-busy={busy || undefined}
    >
      <div className="tool-card__head">
        {busy ? <span className="spinner" aria-hidden="true" /> : <Icon name={label.tone === 'ok' ? 'check' : label.tone === 'danger' ? 'error' : 'tools'} className="tool-card__icon" />}
        <code className="tool-card__name" data-testid="tool-call-name">
          {card.name ?? '…'}
        </code>
        {card.memberName && <span className="tool-card__member">for {card.memberName}</span>}
        <span className={`badge badge--${label.tone === 'ok' ? 'ok' : label.tone === 'danger' ? 'danger' : 'read'}`} data-testid="tool-call-status">
          {label.text}
        </span>
        {card.result && <OutcomeFlags flags={card.result} testId="tool-call-flags" />}
        <span className="tool-card__meta">
          round {card.round}
          {card.result && Number.isFinite(card.result.durationMs) ? ` · ${formatMs(card.result.durationMs)}` : ''}
        </span>
      </div>
      {card.qualifiedName && card.qualifiedName !== card.name && <p className="tool-card__qname">{card.qualifiedName}</p>}
      <div className="tool-card__section">
        <span className="tool-card__label">Arguments</span>
        <pre className="tool-card__pre" data-testid="tool-call-args">
          {card.argsText || (card.phase === 'ended' || card.phase === 'failed' ? '(none)' : '…')}
        </pre>
      </div>
      {/* Once its result is in, the result says what went wrong (as the saved record does); before, the error does. */}
      {card.error && !card.result && <InlineError error={card.error} title="The call could not be used" />}
      {card.result && (
        <div className="tool-card__section">
          <span className="tool-card__label">
            Result{card.result.errorCode ? <code className="tool-card__code"> {card.result.errorCode}</code> : null}
          </span>
          <pre className={`tool-card__pre${card.result.ok ? '' : ' tool-card__pre--error'}`} data-testid="tool-call-result">
            {card.result.content}
          </pre>
        </div>
      )}
    </li>
  );
}
