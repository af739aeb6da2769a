// The approval dialog: over any section whenever a tool call waits for a person. Shows who asks, the tool, its
// description, the exact arguments and (for writes) the proposed diff, all as text; Approve once / Always allow /
// Reject with an optional message. Several waiting calls queue ("1 of N"). Focus is trapped inside and returned after.
// Escape never answers: it only points at Reject. Enter acts only on the focused button.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { HostError } from '../../../../shared/errors';
import type { ApprovalDecision } from '../../../../shared/types/safety';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { respondToApproval } from '../../stores/safety/safety-commands';
import { selectApprovalCount, selectLastResolved, selectPendingApproval } from '../../stores/safety/safety-selectors';
import { RESOLUTION_TEXT } from './format';
import './safety.css';
import { ApprovalCountdown } from './ApprovalCountdown';
import { ApprovalRequestBody } from './ApprovalRequestBody';

const FOCUSABLE = 'button:not([disabled]), textarea:not([disabled]), input:not([disabled]), [href], [tabindex]:not([tabindex="-1"])';

export function ApprovalDialog() {
  const request = useAppStore(selectPendingApproval);
  const count = useAppStore(selectApprovalCount);
  const lastResolved = useAppStore(selectLastResolved);
  const store = useAppStoreApi();
  const host = useHost();
  const uid = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const rejectRef = useRef<HTMLButtonElement>(null);
  const returnTo = useRef<Element | null>(null);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState<ApprovalDecision | null>(null);
  const [error, setError] = useState<HostError | null>(null);
  const [escHint, setEscHint] = useState(false);
  const open = request !== null;
  const requestId = request?.id ?? null;

  // Opening: remember where focus was; closing: give it back. The rest of the window is inert meanwhile.
  useEffect(() => {
    if (!open) return;
    returnTo.current = document.activeElement;
    const shell = document.querySelector('.shell');
    shell?.setAttribute('inert', '');
    return () => {
      shell?.removeAttribute('inert');
      const back = returnTo.current;
      returnTo.current = null;
      if (back instanceof HTMLElement && back.isConnected) back.focus();
      else document.getElementById('main')?.focus();
    };
  }, [open]);

  // Each request starts clean, with focus on its title (never on Approve: a held Enter must not approve the next one).
  useEffect(() => {
    if (requestId === null) return;
    setMessage('');
    setError(null);
    setBusy(null);
    setEscHint(false);
    titleRef.current?.focus();
  }, [requestId]);

  // Focus that wanders outside (a click on the backdrop, a script) comes back.
  useEffect(() => {
    if (!open) return;
    const onFocusIn = (event: FocusEvent) => {
      const dialog = dialogRef.current;
      if (dialog && event.target instanceof Node && !dialog.contains(event.target)) titleRef.current?.focus();
    };
    document.addEventListener('focusin', onFocusIn);
    return () => document.removeEventListener('focusin', onFocusIn);
  }, [open]);

  if (!request) return null;

  const answer = async (decision: ApprovalDecision) => {
    if (busy) return;
    setBusy(decision);
    setError(null);
    const result = await respondToApproval(store, host, request, decision, decision === 'reject' ? message : undefined);
    // The store moves on to the next request when this one is answered; a failure stays here.
    if (!result.ok) {
      setError(result.error);
      setBusy(null);
    } else if (result.value.status === 'mismatch') {
      setBusy(null);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      // Never an answer: the call stays waiting until a button is pressed (or its deadline passes).
      event.preventDefault();
      event.stopPropagation();
      setEscHint(true);
      rejectRef.current?.focus();
      return;
    }
    if ((event.ctrlKey || event.metaKey) && /^[1-9]$/.test(event.key)) {
      // Section shortcuts would switch panels behind the dialog.
      event.preventDefault();
      return;
    }
    if (event.key !== 'Tab') return;
    const items = [...(dialogRef.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])].filter((el) => !el.closest('[hidden]'));
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === titleRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const ids = { title: `${uid}-title`, desc: `${uid}-desc`, args: `${uid}-args`, diff: `${uid}-diff`, msg: `${uid}-msg` };
  const wasLabel = lastResolved ? (RESOLUTION_TEXT[lastResolved.resolution] ?? lastResolved.resolution) : '';
  return (
    <div className="approval-backdrop" data-testid="approval-backdrop">
      <div
        ref={dialogRef}
        className="approval"
        role="dialog"
        aria-modal="true"
        aria-labelledby={ids.title}
        aria-describedby={request.description ? ids.desc : undefined}
        data-testid="approval-dialog"
        data-request-id={request.id}
        onKeyDown={onKeyDown}
      >
        <header className="approval__header">
          <Icon name="warning" className="approval__icon" />
          <h2 id={ids.title} ref={titleRef} tabIndex={-1} className="approval__title">
            Allow this {request.mode === 'write' ? 'write' : 'tool call'}?
          </h2>
          {count > 1 && (
            <span className="approval__queue" data-testid="approval-position">
              1 of {count}
            </span>
          )}
          <ApprovalCountdown deadline={request.deadline} />
        </header>
        <ApprovalRequestBody key={request.id} request={request} ids={ids} />
        <footer className="approval__footer">
          <div className="field">
            <label className="field__label" htmlFor={ids.msg}>
              Message if you reject <span className="field__title">(optional, passed to the model as quoted text)</span>
            </label>
            <textarea
              id={ids.msg}
              className="input input--area approval__message"
              rows={2}
              maxLength={2000}
              value={message}
              placeholder="e.g. Append to the existing note instead"
              onChange={(e) => setMessage(e.target.value)}
              data-testid="approval-message"
            />
          </div>
          {error && <InlineError error={error} title="The answer did not go through" testId="approval-error" />}
          {escHint && (
            <p className="approval__hint" role="note">
              Escape does not answer. Press Reject if the tool should not run; otherwise it stays waiting until its time is up.
            </p>
          )}
          <div className="approval__actions">
            <button type="button" className="btn btn--primary" aria-disabled={busy !== null || undefined} onClick={() => void answer('once')} data-testid="approve-once">
              <Icon name="check" />
              {busy === 'once' ? 'Approving…' : 'Approve once'}
            </button>
            <button
              type="button"
              className="btn"
              aria-disabled={busy !== null || undefined}
              title="Run it now, and don’t ask again for this tool until its definition changes (revoke in Safety)"
              onClick={() => void answer('always')}
              data-testid="approve-always"
            >
              {busy === 'always' ? 'Approving…' : 'Always allow this tool'}
            </button>
            <span className="approval__spacer" />
            <button type="button" ref={rejectRef} className="btn btn--danger" aria-disabled={busy !== null || undefined} onClick={() => void answer('reject')} data-testid="approve-reject">
              <Icon name="close" />
              {busy === 'reject' ? 'Rejecting…' : 'Reject'}
            </button>
          </div>
        </footer>
        <p className="visually-hidden" role="status" aria-live="polite">
          {lastResolved ? `Previous request ${wasLabel}.` : ''}
        </p>
      </div>
    </div>
  );
}
