// The time left to answer an approval, ticking each second; under 10 s it turns urgent, at 0 the call is not run.
import { clock } from './format';
import { useNow } from '../../components/use-now';

export function ApprovalCountdown(props: { deadline: number }) {
  const now = useNow(true, 1000);
  const left = props.deadline - now;
  const over = left <= 0;
  return (
    <span className={`approval__countdown${left < 10_000 ? ' approval__countdown--low' : ''}`} role="timer" data-testid="approval-countdown" aria-label={over ? 'Time is up' : `${clock(left)} left to answer`}>
      <span aria-hidden="true">{over ? 'Time is up — not run' : `${clock(left)} left`}</span>
    </span>
  );
}
