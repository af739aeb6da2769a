// The empty state every section shows until it has data: what will appear here, and what to do. Not in a window
// the host refused: there nothing is known, and the banner above says what to do.
import type { ReactNode } from 'react';
import { useAppStore } from '../app/context';
import { Icon, type IconName } from './Icon';

export function EmptyState(props: { icon: IconName; title: string; body: string; steps: string[]; children?: ReactNode }) {
  const refused = useAppStore((s) => s.connection.state === 'unauthorized');
  if (refused) return null;
  return (
    <div className="empty-state" data-testid="empty-state">
      <div className="empty-state__icon">
        <Icon name={props.icon} />
      </div>
      <h2 className="empty-state__title">{props.title}</h2>
      <p className="empty-state__body">{props.body}</p>
      {props.steps.length > 0 && (
        <ol className="empty-state__steps">
          {props.steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      )}
      {props.children}
    </div>
  );
}
