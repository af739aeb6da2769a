// A model's capability card from the tool-calling probe, beside it where a model is chosen (a connection, the sidecar):
// the share of valid calls, restraint, follow-up turns, latency and speed — and a button to run the probe.
import { useEffect, useState } from 'react';
import type { HostError } from '../../../../shared/errors';
import type { HostEvent } from '../../../../shared/contract/events';
import type { ProbeCard } from '../../../../shared/types/local-models';
import { useHost } from '../../app/context';
import { InlineError } from '../../components/InlineError';
import { listProbeCards, probeToolCalling } from '../../stores/connections/connections-commands';

const share = (t: { passed: number; of: number }) => (t.of ? `${Math.round((t.passed / t.of) * 100)}%` : '—');

export function ToolCallingCard(props: { connectionId: string; model: string }) {
  const host = useHost();
  const { connectionId, model } = props;
  const [card, setCard] = useState<ProbeCard | null>(null);
  const [running, setRunning] = useState<{ done: number; total: number } | null>(null);
  const [error, setError] = useState<HostError | null>(null);

  useEffect(() => {
    let live = true;
    void listProbeCards(host).then((result) => live && result.ok && setCard(result.value.find((c) => c.connectionId === connectionId && (!model || c.model === model)) ?? null));
    const off = host.onEvent((event: HostEvent) => {
      if (event.type === 'models.probe' && event.connectionId === connectionId) setRunning({ done: event.done, total: event.total });
    });
    return () => {
      live = false;
      off();
    };
  }, [host, connectionId, model]);

  const run = async () => {
    if (running) return;
    setError(null);
    setRunning({ done: 0, total: 0 });
    const result = await probeToolCalling(host, connectionId, model || undefined);
    setRunning(null);
    if (result.ok) setCard(result.value);
    else setError(result.error);
  };

  return (
    <div className="tool-card" data-testid="tool-calling-card">
      {card ? (
        <p className="field__hint">
          <strong>Tool calling</strong> ({card.model}): {share(card.validCalls)} valid calls, {share(card.restraint)} restraint, {share(card.followUp)} follow-up turns · {card.meanLatencyMs} ms a case · {card.tokensPerSecond} tokens/s
        </p>
      ) : (
        <p className="field__hint">Tool calling not probed yet for this model.</p>
      )}
      <button type="button" className="btn btn--small" aria-disabled={running !== null || undefined} onClick={() => void run()}>
        {running ? `Probing… ${running.total ? `${running.done} of ${running.total}` : ''}` : card ? 'Probe again' : 'Probe tool calling'}
      </button>
      {error && <InlineError error={error} title="The probe could not run" />}
    </div>
  );
}
