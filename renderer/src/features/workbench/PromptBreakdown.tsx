// A saved turn's prompt breakdown: each stage in order (council, context handlers, assembly, interceptors,
// generation), who ran it, how long it took, notes, and what it changed as a diff of the messages.
import { useId, useMemo, useState } from 'react';
import type { PromptReport, TurnStage } from '../../../../shared/types/chat';
import { PromptReportView } from './PromptReportView';
import { formatMs } from '../../components/InlineError';
import { unifiedDiff } from '../../../../shared/text/line-diff';
import { DiffPreview } from '../safety/DiffPreview';

function StageChange(props: { stage: TurnStage & { before: string; after: string } }) {
  const { stage } = props;
  const diff = useMemo(
    () => ({ path: `${stage.stage} — ${stage.by}`, before: stage.before, after: stage.after, unified: unifiedDiff('messages', stage.before, stage.after), created: false, inferred: false }),
    [stage],
  );
  return <DiffPreview diff={diff} label={`What ${stage.by} changed in ${stage.stage}`} />;
}

export function PromptBreakdown(props: { stages: TurnStage[]; report?: PromptReport | undefined }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const total = props.stages.reduce((sum, s) => sum + s.ms, 0);
  return (
    <section className="breakdown" data-testid="prompt-breakdown">
      <button type="button" className="btn btn--small btn--ghost" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        Prompt breakdown ({props.report ? `≈${props.report.total.toLocaleString('en')} tokens, ` : ''}
        {props.stages.length} stages, {formatMs(total)})
      </button>
      {open && props.report && <PromptReportView report={props.report} />}
      {open && (
        <ol id={id} className="breakdown__stages">
          {props.stages.map((stage, i) => (
            <li key={i} className="breakdown__stage" data-testid="breakdown-stage" data-stage={stage.stage}>
              <div className="breakdown__head">
                <strong>{stage.stage}</strong> <span className="breakdown__by">{stage.by}</span> <span className="breakdown__ms">{formatMs(stage.ms)}</span>
              </div>
              {stage.note && <p className="breakdown__note">{stage.note}</p>}
              {stage.before !== undefined && stage.after !== undefined && <StageChange stage={stage as TurnStage & { before: string; after: string }} />}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
