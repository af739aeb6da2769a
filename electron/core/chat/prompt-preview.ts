// The prompt a turn would send now, built and not sent (Lumiverse's dryRunGeneration, which spindle.generate.dryRun
// answers): the same preparation as a turn — context handlers, world info and its interceptors, the preset or the
// Workbench's own prompt, macros without committing, prompt regex, interceptors — with the council skipped, as
// Lumiverse skips it (it is expensive and calls a model), and nothing saved or announced.
import { HostFailure } from '../../../shared/errors';
import { UnderWay } from '../extensions/per-extension-limits';
import type { ChatMessage, ChatSession, PromptReport } from '../../../shared/types/chat';
import type { ConnectionProfile, LlmMessage } from '../../../shared/types/llm';
import type { ChatSettings } from '../../../shared/types/chat';
import { preparePrompt, type PrepareDeps } from './pipeline/prepare';
import type { LoreBooks } from './pipeline/lore-stage';
import { budgetLimits, samplingParameters, turnSampling } from './sampling';

export type PreviewGenerationType = 'normal' | 'regenerate' | 'swipe' | 'continue';

/** Dry runs of one session built at once: side by side they are served; one asked for inside one ends at this depth. */
const MAX_PREVIEWS = 3;

/** The dry runs being built, by session. */
export class PreviewSlots {
  private readonly building = new UnderWay(MAX_PREVIEWS);

  /** A slot for a dry run of the session (CONFLICT when all are taken); the function gives it back. */
  hold(sessionId: string): () => void {
    if (!this.building.begin(sessionId)) throw new HostFailure({ code: 'CONFLICT', message: `${MAX_PREVIEWS} dry runs of this chat are already being built.`, path: '/chatId' });
    return () => this.building.end(sessionId);
  }
}

export interface PromptPreview {
  messages: LlmMessage[];
  /** The prompt by part and the world info that fired (absent when a context handler cancelled). */
  report?: PromptReport;
  /** What the request would carry: the session's sampling with the interceptors' changes over it. */
  parameters: Record<string, unknown>;
  model: string;
  profile: ConnectionProfile;
  /** Set when a context handler cancelled the generation (the messages are then empty). */
  cancelledBy?: string;
}

/** A regenerate (a swipe too) answers the person's last line again: the history ends there, as regenerate() has it. */
function historyFor(messages: readonly ChatMessage[], type: PreviewGenerationType): ChatMessage[] {
  if (type !== 'regenerate' && type !== 'swipe') return [...messages];
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  return messages.slice(0, lastUser + 1);
}

export async function previewPrompt(
  deps: { prepare: Omit<PrepareDeps, 'council'>; chatSettings: ChatSettings },
  input: {
    session: ChatSession;
    loreBooks: LoreBooks;
    target: { profile: ConnectionProfile; model: string };
    generationType: PreviewGenerationType;
    previewId: string;
    signal: AbortSignal;
    /** False: only the assembly (spindle.assemble): no context handlers, no interceptors. */
    hooks?: boolean;
  },
): Promise<PromptPreview> {
  const { session, target } = input;
  const sampling = turnSampling(deps.chatSettings, session, target.profile.id);
  const prepared = await preparePrompt(
    { ...deps.prepare, council: async () => undefined },
    {
      session,
      loreBooks: input.loreBooks,
      history: historyFor(session.messages, input.generationType),
      turnId: input.previewId,
      connectionId: target.profile.id,
      model: target.model,
      generationType: input.generationType,
      dryRun: true,
      toolDryRun: true,
      ...(input.hooks === false ? { hooks: false } : {}),
      signal: input.signal,
      limits: budgetLimits(sampling),
    },
  );
  return {
    messages: prepared.messages,
    ...(prepared.report ? { report: prepared.report } : {}),
    parameters: { ...samplingParameters(sampling), ...prepared.parameters },
    model: target.model,
    profile: target.profile,
    ...(prepared.cancelledBy ? { cancelledBy: prepared.cancelledBy } : {}),
  };
}
