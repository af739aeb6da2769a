// A failure shown next to the control that caused it: the stable code, the message and, when there is one, the hint.
import type { HostError } from '../../../shared/errors';
import { Icon } from './Icon';

export function InlineError(props: { error: HostError; title?: string; durationMs?: number; testId?: string }) {
  const { error } = props;
  return (
    <div className="inline-error" role="alert" data-testid={props.testId ?? 'inline-error'} data-code={error.code}>
      <Icon name="error" className="inline-error__icon" />
      <div className="inline-error__content">
        <div className="inline-error__head">
          {props.title && <strong className="inline-error__title">{props.title}</strong>}
          <code className="inline-error__code">{error.code}</code>
          {props.durationMs !== undefined && <span className="inline-error__time">{formatMs(props.durationMs)}</span>}
        </div>
        <p className="inline-error__message">{error.message}</p>
        {error.path && (
          <p className="inline-error__path">
            At <code>{error.path}</code>
          </p>
        )}
        {error.hint && <p className="inline-error__hint">{error.hint}</p>}
      </div>
    </div>
  );
}

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '';
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}
