// The council as the Workbench chat sees it (chat/council-port.ts): one run per reply, abort through the chat's signal.
// Wired by the host, so that neither the chat nor the council imports the other's folder for it.
import { randomBytes } from 'node:crypto';
import { HostFailure } from '../../shared/errors';
import type { CouncilPort } from './chat/council-port';
import type { CouncilService } from './council/council-service';

export function chatCouncilPort(council: CouncilService): CouncilPort {
  return {
    async run(chat, signal, options = {}) {
      const runId = `chat-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
      const onAbort = () => council.abort(runId);
      if (signal.aborted) throw new HostFailure({ code: 'CANCELLED', message: 'The council run was cancelled.' });
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const run = await council.run({ chat, runId, regen: options.regen === true, ...(options.dryRun === undefined ? {} : { dryRun: options.dryRun }) });
        if (run.status === 'aborted') throw new HostFailure({ code: 'CANCELLED', message: 'The council run was cancelled.' });
        return { deliberationBlock: run.deliberationBlock, ...(run.historyBlock ? { referenceBlock: run.historyBlock } : {}), runId: run.id, reused: run.status === 'reused' };
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    },
    inlineTools: () => council.inlineTools(),
  };
}
