// A proposed write as a line diff: every line is text, + and − lines coloured; says so when the file is new or the preview is a guess.
import { useMemo } from 'react';
import type { ApprovalDiff } from '../../../../shared/types/safety';
import { diffLines } from './format';

const SPOKEN: Record<string, string> = { add: 'added: ', del: 'removed: ' };

export function DiffPreview(props: { diff: ApprovalDiff; labelledBy?: string; label?: string }) {
  const { diff } = props;
  const lines = useMemo(() => diffLines(diff.unified), [diff.unified]);
  const added = lines.filter((l) => l.kind === 'add').length;
  const removed = lines.filter((l) => l.kind === 'del').length;
  return (
    <div className="diff" data-testid="approval-diff">
      <div className="diff__head">
        <code className="diff__path" data-testid="diff-path">
          {diff.path}
        </code>
        {diff.created && (
          <span className="badge badge--ok" data-testid="diff-created">
            new file
          </span>
        )}
        <span className="diff__counts">
          <span className="diff__count diff__count--add">+{added}</span> <span className="diff__count diff__count--del">−{removed}</span>
        </span>
      </div>
      {diff.inferred && (
        <p className="diff__note" data-testid="diff-inferred">
          This preview assumes the tool writes the whole file with its <code>content</code> argument; the tool itself may do something else.
        </p>
      )}
      {lines.length === 0 || diff.unified.trim() === '' ? (
        <p className="panel-note">No change to the file’s content.</p>
      ) : (
        <pre className="diff__body" tabIndex={0} aria-label={props.label ?? `Proposed change to ${diff.path}`} aria-describedby={props.labelledBy}>
          {lines.map((line, i) => (
            <span key={i} className={`diff__line diff__line--${line.kind}`}>
              {SPOKEN[line.kind] && <span className="visually-hidden">{SPOKEN[line.kind]}</span>}
              {line.text === '' ? ' ' : line.text}
              {'\n'}
            </span>
          ))}
        </pre>
      )}
    </div>
  );
}
