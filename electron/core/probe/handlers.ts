// Contract handlers for the tool-calling probe: run it on a connection, read the cards it kept.
import type { Handlers } from '../../../shared/contract';
import type { ProbeCards } from './probe-cards';

export function probeHandlers(probes: ProbeCards): Pick<Handlers, 'models.probe' | 'models.probes'> {
  return {
    'models.probe': ({ connectionId, model, maxTokens }) => probes.probe(connectionId, model, maxTokens),
    'models.probes': () => probes.list(),
  };
}
