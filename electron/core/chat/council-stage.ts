// The council stage of a turn (sidecar mode): run the council on the chat (a regeneration says so, and the council
// decides whether to reuse its last results); a failed run is reported and the reply goes on without its deliberation.
import { HostFailure, type HostError } from '../../../shared/errors';
import type { Settings } from '../../../shared/settings';
import type { ChatMessage, ChatSession } from '../../../shared/types/chat';
import type { ChatEvent } from '../../../shared/types/chat-events';
import type { Logger } from '../ports';
import { normalizeCouncil } from '../council/validate-council';
import type { CouncilPort, CouncilRunOutcome } from './council-port';

export interface CouncilStageDeps {
  settings: () => Settings;
  council: CouncilPort | undefined;
  emit: (event: ChatEvent) => void;
  log: Logger;
}

export interface CouncilStageInput {
  session: ChatSession;
  history: ChatMessage[];
  requested: boolean;
  regenerate: boolean;
  turnId: string;
  signal: AbortSignal;
  dryRun: boolean;
}

export async function runCouncilStage(deps: CouncilStageDeps, input: CouncilStageInput): Promise<CouncilRunOutcome | undefined> {
  const { session, history, requested, regenerate, turnId, signal, dryRun } = input;
  const settings = deps.settings();
  const tools = normalizeCouncil(settings.council).toolsSettings;
  if (!requested || tools.mode === 'inline') return undefined;
  const base = { type: 'chat.council' as const, sessionId: session.id, turnId };
  if (!deps.council) {
    deps.emit({ ...base, phase: 'skipped', reason: 'The council service is not available.' });
    return undefined;
  }
  deps.emit({ ...base, phase: 'started', runId: null });
  try {
    const outcome = await deps.council.run(
      {
        chatId: session.id,
        character: { ...session.character },
        persona: { ...session.persona },
        worldInfo: session.worldInfo.filter((e) => e.enabled).map((e) => ({ keywords: e.keywords, content: e.content })),
        messages: history.slice(-200).map((m) => ({ role: m.role, content: m.content })),
      },
      signal,
      { dryRun, regen: regenerate },
    );
    deps.emit({ ...base, phase: 'completed', runId: outcome.runId, reused: outcome.reused === true, deliberationChars: outcome.deliberationBlock.length });
    return outcome;
  } catch (err) {
    if (signal.aborted) return undefined;
    const error: HostError = err instanceof HostFailure ? err.error : unexpectedFailure(err);
    if (!(err instanceof HostFailure)) deps.log.warn('council run failed', err);
    deps.emit({ ...base, phase: 'failed', error });
    return undefined;
  }
}

/** An unexpected council failure, said where the person looks: a file system cause by its code, with what to check. */
function unexpectedFailure(err: unknown): HostError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const fileSystem = typeof code === 'string' && /^E[A-Z]{2,}$/.test(code);
  return {
    code: 'COUNCIL_FAILED',
    message: `The council run failed${fileSystem ? ` (${code})` : ''}; the reply goes on without its deliberation.`,
    hint: fileSystem ? 'The council could not use its files in the data folder (runs/, council-profiles/): check that they are folders you can write to.' : 'The host log has the details.',
  };
}
