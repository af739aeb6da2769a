// A turn up to the request the model gets, in Lumiverse's order (src/services/generate.service.ts):
// GENERATION_STARTED → council (sidecar mode) → context handlers → assembly with macros → interceptors.
// Every stage is timed in the turn's trace, with what it changed.
import type { ChatMessage, ChatSession, PromptReport } from '../../../../shared/types/chat';
import type { BudgetLimits } from '../prompt-budget';
import type { LlmMessage, LlmRequest } from '../../../../shared/types/llm';
import type { ExtensionPipeline } from '../../extensions/pipeline/pipeline-bridge';
import type { CouncilRunOutcome, InlineTool } from '../council-port';
import { assemblePrompt } from './assemble';
import { renderMessages, runContextHandlers, runInterceptors, type GenerationContext } from './extension-stages';
import { TurnTrace } from './turn-trace';

export interface PrepareDeps {
  pipeline: ExtensionPipeline | undefined;
  now: () => number;
  councilTools: () => InlineTool[];
  /** The council stage (sidecar mode); undefined when it did not run. */
  council: (toolDryRun: boolean) => Promise<CouncilRunOutcome | undefined>;
}

export interface PrepareInput {
  session: ChatSession;
  history: ChatMessage[];
  turnId: string;
  model: string;
  generationType: 'normal' | 'regenerate' | 'continue';
  /** A dry run: everything but the generation; handlers see dryRun and macros commit: false. */
  dryRun: boolean;
  toolDryRun: boolean;
  signal: AbortSignal;
  /** The context budget (the session's sampling). */
  limits?: BudgetLimits;
}

export interface Prepared {
  trace: TurnTrace;
  council: CouncilRunOutcome | undefined;
  messages: LlmMessage[];
  /** The assembled prompt by part, and what the budget left out (before interceptors). */
  report?: PromptReport;
  parameters: Pick<LlmRequest, 'temperature' | 'topP' | 'maxTokens'>;
  /** Set when a context handler cancelled the generation. */
  cancelledBy?: string;
}

export async function preparePrompt(deps: PrepareDeps, input: PrepareInput): Promise<Prepared> {
  const { session, history, signal, pipeline } = { ...input, pipeline: deps.pipeline };
  const trace = new TurnTrace(deps.now);
  pipeline?.broadcast('GENERATION_STARTED', { generationId: input.turnId, chatId: session.id, model: input.model, characterName: session.character.name, generationType: input.generationType });

  const council = await trace.run('council', () => deps.council(input.toolDryRun || input.dryRun), (outcome) => ({
    note: outcome ? `run ${outcome.runId}: ${outcome.deliberationBlock.length} characters of deliberation` : 'did not run',
  }));

  const base: GenerationContext = { chatId: session.id, generationType: input.generationType, dryRun: input.dryRun, userId: 'local' };
  const handled = await runContextHandlers(pipeline, base, signal, trace);
  if (handled.cancelledBy) return { trace, council, messages: [], parameters: {}, cancelledBy: handled.cancelledBy };

  const assembled = await trace.run(
    'assembly',
    () =>
      assemblePrompt({
        session,
        history,
        ...(council ? { deliberationBlock: council.deliberationBlock } : {}),
        ...(council?.referenceBlock ? { referenceBlock: council.referenceBlock } : {}),
        councilTools: deps.councilTools(),
        extensions: pipeline?.macros() ?? [],
        commit: !input.dryRun,
        signal,
        ...(input.limits ? { limits: input.limits } : {}),
      }),
    (a) => ({ before: '', after: renderMessages(a.messages), note: assemblyNote(a.macrosUsed, a.report) }),
  );
  for (const note of assembled.notes) trace.note('assembly', 'host', note);

  const intercepted = await runInterceptors(pipeline, assembled.messages, handled.context, signal, trace);
  return { trace, council, messages: intercepted.messages, report: assembled.report, parameters: intercepted.parameters };
}

function assemblyNote(macros: string[], report: PromptReport): string {
  const parts = [macros.length ? `macros: ${macros.join(', ')}` : 'no macros', `≈${report.total} tokens`];
  if (report.cutMessages) parts.push(`${report.cutMessages} oldest message${report.cutMessages === 1 ? '' : 's'} left out to fit`);
  const left = report.worldInfo.filter((w) => !w.included).length;
  if (left) parts.push(`${left} world-info entr${left === 1 ? 'y' : 'ies'} did not fit`);
  return parts.join('; ');
}
