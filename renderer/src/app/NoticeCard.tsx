// One notice from the host or this window: its tone, title, text and Dismiss.
import type { Notice } from '../../../shared/notices';
import { Icon } from '../components/Icon';

function formatTime(at: number): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

export function NoticeCard(props: {
  level: Notice['level'];
  title: string;
  code: string;
  message: string;
  hint?: string | undefined;
  at: number;
  busy?: boolean;
  onDismiss(): void;
}) {
  const time = formatTime(props.at);
  return (
    <li className={`notice notice--${props.level}`} data-testid="notice" data-code={props.code}>
      <Icon name={props.level} className="notice__icon" />
      <div className="notice__content">
        <div className="notice__head">
          <strong className="notice__title">{props.title}</strong>
          <code className="notice__code">{props.code}</code>
          {time && (
            <time className="notice__time" dateTime={new Date(props.at).toISOString()}>
              {time}
            </time>
          )}
        </div>
        <p className="notice__message">{props.message}</p>
        {props.hint && <p className="notice__hint">{props.hint}</p>}
      </div>
      <button type="button" className="btn btn--ghost notice__dismiss" onClick={props.onDismiss} disabled={props.busy} aria-label={`Dismiss: ${props.title}`}>
        <Icon name="close" />
        <span className="notice__dismiss-text">Dismiss</span>
      </button>
    </li>
  );
}
