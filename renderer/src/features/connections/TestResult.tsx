// The outcome of "Test connection": OK with latency and model count, or the host's error code, message and hint.
import { formatMs, InlineError } from '../../components/InlineError';
import { Icon } from '../../components/Icon';
import type { TestOutcome } from '../../stores/connections/connections-commands';

export function TestResult(props: { outcome: TestOutcome }) {
  const { outcome } = props;
  if (!outcome.ok) return <InlineError error={outcome.error} title="Test failed" durationMs={outcome.latencyMs} testId="test-result" />;
  if (!outcome.value.ok) {
    const error = outcome.value.error ?? { code: 'LLM_BAD_RESPONSE', message: 'The server did not answer as expected.' };
    return <InlineError error={error} title="Test failed" durationMs={outcome.latencyMs} testId="test-result" />;
  }
  const count = outcome.value.models.length;
  return (
    <div className="test-ok" role="status" data-testid="test-result" data-ok="true">
      <Icon name="check" className="test-ok__icon" />
      <span>
        <strong>Connected</strong> · {count} {count === 1 ? 'model' : 'models'} · {formatMs(outcome.latencyMs)}
      </span>
    </div>
  );
}
