// A reply's prompt by part as a bar (estimated tokens, against the budget when there is one), what the budget left
// out, and the world-info activation log: which entries fired, on which keyword in which message, which did not fit.
import type { PromptReport } from '../../../../shared/types/chat';

const PARTS: Array<{ key: keyof PromptReport['parts']; label: string }> = [
  { key: 'system', label: 'System' },
  { key: 'character', label: 'Character' },
  { key: 'worldInfo', label: 'World info' },
  { key: 'deliberation', label: 'Deliberation' },
  { key: 'history', label: 'History' },
];

const count = (n: number) => n.toLocaleString('en');

function trigger(hit: PromptReport['worldInfo'][number]): string {
  if (hit.trigger === 'constant') return 'always on (constant)';
  if (hit.trigger === 'always') return 'always on (no keywords)';
  const where = hit.messageIndex !== undefined ? ` in message ${hit.messageIndex + 1}${hit.role ? ` (${hit.role === 'user' ? 'the user' : 'the character'})` : ''}` : '';
  return `“${hit.keyword ?? ''}”${where}`;
}

export function PromptReportView(props: { report: PromptReport }) {
  const { report } = props;
  const scale = Math.max(report.budget ?? 0, report.total, 1);
  const left = report.worldInfo.filter((w) => !w.included);
  return (
    <div className="prompt-report" data-testid="prompt-report">
      <p className="prompt-report__total">
        ≈{count(report.total)} tokens in the prompt
        {report.budget !== undefined && ` of a ${count(report.budget)}-token budget (context ${count(report.contextSize ?? 0)} less the reply’s tokens)`}
      </p>
      <div className="prompt-report__bar" role="img" aria-label={PARTS.map((p) => `${p.label} ${report.parts[p.key]} tokens`).join(', ')}>
        {PARTS.map((p) =>
          report.parts[p.key] > 0 ? <span key={p.key} className={`prompt-report__part prompt-report__part--${p.key}`} style={{ width: `${(report.parts[p.key] / scale) * 100}%` }} /> : null,
        )}
      </div>
      <ul className="prompt-report__legend">
        {PARTS.map((p) => (
          <li key={p.key} data-part={p.key}>
            <span className={`prompt-report__swatch prompt-report__part--${p.key}`} aria-hidden="true" /> {p.label} {count(report.parts[p.key])}
          </li>
        ))}
      </ul>
      {(report.cutMessages > 0 || left.length > 0) && (
        <p className="prompt-report__cut" data-testid="prompt-cut">
          To fit: {report.cutMessages > 0 && `the ${report.cutMessages} oldest message${report.cutMessages === 1 ? ' was' : 's were'} left out`}
          {report.cutMessages > 0 && left.length > 0 && '; '}
          {left.length > 0 && `${left.length} world-info entr${left.length === 1 ? 'y' : 'ies'} did not fit`}.
        </p>
      )}
      {report.worldInfo.length > 0 && (
        <table className="prompt-report__wi" data-testid="world-info-log">
          <caption>World info in this turn</caption>
          <thead>
            <tr>
              <th scope="col">Entry</th>
              <th scope="col">Fired on</th>
              <th scope="col">Tokens</th>
              <th scope="col">In the prompt</th>
            </tr>
          </thead>
          <tbody>
            {report.worldInfo.map((hit) => (
              <tr key={hit.id} data-entry={hit.id} data-included={hit.included}>
                <td>{hit.label}</td>
                <td>{trigger(hit)}</td>
                <td>{count(hit.tokens)}</td>
                <td>{hit.included ? 'yes' : 'no — did not fit the budget'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
