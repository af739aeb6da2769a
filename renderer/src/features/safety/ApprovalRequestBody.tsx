// What an approval asks about: the tool and its description, the arguments as text, and the diff of a file change.
import { useMemo } from 'react';
import type { ApprovalRequest } from '../../../../shared/types/safety';
import { DiffPreview } from './DiffPreview';
import { prettyArgs, REASON_HELP, REASON_TEXT, whoAsks } from './format';

export function ApprovalRequestBody(props: { request: ApprovalRequest; ids: { desc: string; args: string; diff: string } }) {
  const { request, ids } = props;
  const args = useMemo(() => prettyArgs(request.argsJson), [request.argsJson]);
  return (
    <div className="approval__body">
      <dl className="approval__facts">
        <div>
          <dt>Asked by</dt>
          <dd data-testid="approval-who">{whoAsks(request)}</dd>
        </div>
        <div>
          <dt>Tool</dt>
          <dd className="approval__tool">
            <strong data-testid="approval-tool">{request.toolDisplayName}</strong> <code data-testid="approval-qname">{request.toolQualifiedName}</code>
            <span className={`badge badge--${request.mode}`}>{request.mode}</span>
            <span className="badge badge--neutral" title={REASON_HELP[request.reason]} data-testid="approval-reason">
              {REASON_TEXT[request.reason]}
            </span>
          </dd>
        </div>
      </dl>
      {request.description && (
        <p className="approval__description" id={ids.desc} data-testid="approval-description">
          {request.description}
        </p>
      )}
      <section aria-labelledby={ids.args}>
        <h3 id={ids.args} className="approval__subtitle">
          Arguments <span className="approval__subtitle-note">exactly what the tool receives</span>
        </h3>
        <pre className="code-block approval__args" tabIndex={0} aria-labelledby={ids.args} data-testid="approval-args">
          {args}
        </pre>
      </section>
      {request.diff && (
        <section aria-labelledby={ids.diff}>
          <h3 id={ids.diff} className="approval__subtitle">
            Proposed change
          </h3>
          <DiffPreview diff={request.diff} labelledBy={ids.diff} />
        </section>
      )}
    </div>
  );
}
