// A turn up to the request the model gets, in Lumiverse's order (src/services/generate.service.ts):
// GENERATION_STARTED → council (sidecar mode) → context handlers → assembly (world info, macros, prompt regex scripts)
// → interceptors.
// Every stage is timed in the turn's trace, with what it changed.
import type { PresetDto } from '../../presets/preset-store';
import type { ChatMessage, ChatSession, PromptReport } from '../../../../shared/types/chat';
import type { BudgetLimits } from '../prompt-budget';
import type { LlmMessage } from '../../../../shared/types/llm';
import type { ExtensionPipeline } from '../../extensions/pipeline/pipeline-bridge';
import type { CouncilRunOutcome, InlineTool } from '../council-port';
import { activatedWorldInfo } from './activated-lore';
import { runWorldInfoInterceptors, vectorOnlyNote, type LoreBooks } from './lore-stage';
import { assemblePrompt } from './assemble';
import { renderMessages, runContextHandlers, runInterceptors, type GenerationContext, type InterceptorParameters } from './extension-stages';
import { TurnTrace } from './turn-trace';
import { patternsOf, turnRegexMacros } from './regex-stage';
import { seedPromptVariables, sessionVariables } from './builtin-macros';
import { extensionMacroSources } from './macro-catalog';
import { promptVariables } from '../../presets/prompt-variables';
import type { RegexScripts } from '../../regex/regex-scripts';
import { personaIdOf } from '../../../../shared/spindle/lumiverse-ids';

export interface PrepareDeps {
  pipeline: ExtensionPipeline | undefined;
  now: () => number;
  councilTools: () => InlineTool[];
  /** The council stage (sidecar mode); undefined when it did not run. */
  council: (toolDryRun: boolean) => Promise<CouncilRunOutcome | undefined>;
  /** The regex scripts (absent: none run). */
  regex?: RegexScripts;
  /** Keeps what a committed turn's macros changed of the session's chat variables (metadata.chat_variables). */
  saveChatVariables?: (sessionId: string, changes: ReadonlyMap<string, string | null>) => void;
  /** The session's metadata as it is now (what extensions wrote since the turn began included). */
  currentMetadata?: (sessionId: string) => Record<string, unknown> | undefined;
  /** The preset chosen for the chat's prompt (its id, and the preset or null when it is gone); null: none chosen. */
  preset?: () => { id: string; preset: PresetDto | null } | null;
  /** The character a chat is to extensions: its line's origin (util/branch-root.ts); absent: the session itself. */
  characterOf?: (sessionId: string) => string;
}

export interface PrepareInput {
  session: ChatSession;
  /** The book each world-books entry of `session` came from (its own entries are the session's). */
  loreBooks?: LoreBooks;
  history: ChatMessage[];
  turnId: string;
  /** The connection the reply is written on, and its model. */
  connectionId: string;
  model: string;
  /** Lumiverse's: `swipe` is a regenerate the person asked for by swiping past the last reply. */
  generationType: 'normal' | 'regenerate' | 'swipe' | 'continue';
  /** The message (and swipe) the reply is written into. */
  target?: { messageId: string; swipeId: number };
  /** A dry run: everything but the generation; handlers see dryRun and macros commit: false. */
  dryRun: boolean;
  /** False: the prompt is only assembled (spindle.assemble), without context handlers or interceptors. */
  hooks?: boolean;
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
  parameters: InterceptorParameters;
  /** Set when a context handler cancelled the generation. */
  cancelledBy?: string;
  /** What the reply starts with: the preset's prefill, the prompt's last message (the model goes on from it). */
  prefill?: string;
}

export async function preparePrompt(deps: PrepareDeps, input: PrepareInput): Promise<Prepared> {
  const { session, history, signal, pipeline } = { ...input, pipeline: deps.pipeline };
  const trace = new TurnTrace(deps.now);
  // A dry run builds the prompt and generates nothing, so it is not announced (Lumiverse's dryRunGeneration is not).
  // A session is its character too (a branch its origin's), as everywhere an extension reads it.
  const characterId = deps.characterOf?.(session.id) ?? session.id;
  if (!input.dryRun) {
    const target = input.target ? { targetMessageId: input.target.messageId, targetSwipeId: input.target.swipeId } : {};
    pipeline?.broadcast('GENERATION_STARTED', { generationId: input.turnId, chatId: session.id, ...target, characterId, model: input.model, characterName: session.character.name, generationType: input.generationType });
  }

  const council = await trace.run('council', () => deps.council(input.toolDryRun || input.dryRun), (outcome) => ({
    note: outcome ? `run ${outcome.runId}: ${outcome.deliberationBlock.length} characters of deliberation` : 'did not run',
  }));

  // The chat's preset, as Lumiverse's active Loom preset: one that is gone leaves the Workbench's own prompt.
  const chosen = deps.preset?.() ?? null;
  const preset = chosen?.preset ?? null;
  if (chosen && !preset) trace.note('assembly', 'host', `The chosen preset ${chosen.id} is gone: the Workbench's own prompt was built.`);
  // Lumiverse's context (InterceptorContextDTO).
  const base: GenerationContext = {
    chatId: session.id,
    generationId: input.turnId,
    generationType: input.generationType,
    dryRun: input.dryRun,
    isDryRun: input.dryRun,
    userId: 'local',
    characterId,
    personaId: personaIdOf(session.id),
    // The connection the turn runs on (Lumiverse's spindleContext has it): an interceptor shapes its request by provider.
    connectionId: input.connectionId,
    presetId: preset?.id ?? null,
    presetMetadata: preset?.metadata ?? null,
    personaAddonStates: {},
    mainDispatch: { source: 'main', descriptor: null, connectionDispatchRevision: null, dispatchKind: null },
  };
  const hooked = input.hooks === false ? undefined : pipeline;
  const handled = await runContextHandlers(hooked, base, signal, trace);
  if (handled.cancelledBy) return { trace, council, messages: [], parameters: {}, cancelledBy: handled.cancelledBy };

  // An extension that applies this chat's prompt regex itself (in its interceptor) has the host skip its own pass.
  const promptRegexOwner = pipeline?.promptRegexOwner(session.id) ?? null;
  if (promptRegexOwner) trace.note('regex', promptRegexOwner, 'applies the prompt regex scripts of this chat itself (promptRegex.setOwnedChats): the host’s pass is skipped.');
  // What extensions change of the world info the turn reads, before it is scanned (Lumiverse's order).
  const read = await runWorldInfoInterceptors(pipeline, { session, characterId, history, books: input.loreBooks ?? new Map() }, signal, trace);
  const vectorOnly = vectorOnlyNote(read.worldInfo);
  if (vectorOnly) trace.note('world info', 'host', vectorOnly);
  // Read now, not when the turn began: an extension may have written the chat's variables meanwhile (its handlers).
  const variables = sessionVariables(deps.currentMetadata ? { metadata: deps.currentMetadata(session.id) } : session);
  if (preset) seedPromptVariables(variables, promptVariables(preset));
  const started = deps.now();
  const patterns = patternsOf(deps.regex);
  const assembled = await assemblePrompt({
    variables,
    ...patterns,
    ...extensionMacroSources(pipeline),
    phase: 'prompt',
    characterId,
    turn: { model: input.model, generationType: input.generationType },
    ...(preset ? { preset: { blocks: preset.prompt_order, name: preset.name, generationType: input.generationType, ...prefillOf(preset, input.generationType) } } : {}),
    session: read,
    history,
    ...(council ? { deliberationBlock: council.deliberationBlock } : {}),
    ...(council?.referenceBlock ? { referenceBlock: council.referenceBlock } : {}),
    councilTools: deps.councilTools(),
    commit: !input.dryRun,
    signal,
    ...(input.limits ? { limits: input.limits } : {}),
    now: deps.now,
    ...(deps.regex && !promptRegexOwner ? { regex: { regex: deps.regex, chatId: session.id, signal, macros: turnRegexMacros({ session, characterId, history, deliberation: council?.deliberationBlock ?? '', councilTools: deps.councilTools(), pipeline, commit: !input.dryRun, signal, variables, phase: 'prompt', ...patterns }) } } : {}),
  });
  // Lumiverse saves the chat's variables after assembly when a macro changed them; a dry run commits nothing.
  if (!input.dryRun && variables.chatChanges.size) deps.saveChatVariables?.(session.id, variables.chatChanges);
  // Each step after the first is timed by its macros' own time, so the stages' times still add up to the whole.
  const views = assembled.views.map((view) => ({ ...view, rendered: renderMessages(view.messages) }));
  const inSteps = views.slice(1).reduce((sum, view) => sum + (view.ms ?? 0), 0);
  for (const [i, view] of views.entries()) {
    const ms = i === 0 ? Math.max(0, deps.now() - started - inSteps) : (view.ms ?? 0);
    trace.record({ stage: view.stage, by: view.by, ms, before: i === 0 ? '' : views[i - 1]!.rendered, after: view.rendered, note: view.note });
  }
  for (const note of assembled.notes) trace.note(note.owner === 'host' ? 'assembly' : 'macros', note.owner === 'built-in' ? 'host' : note.owner, note.text);

  const activated = activatedWorldInfo(read, assembled.report, input.loreBooks);
  if (!input.dryRun) pipeline?.broadcast('WORLD_INFO_ACTIVATED', { chatId: session.id, entries: activated });
  const intercepted = await runInterceptors(hooked, assembled.messages, assembled.sources, { ...handled.context, activatedWorldInfo: activated }, signal, trace);
  return { trace, council, messages: intercepted.messages, report: assembled.report, parameters: intercepted.parameters, ...(assembled.prefill ? { prefill: assembled.prefill } : {}) };
}

/**
 * A preset's "Start Reply With" (completionSettings.assistantPrefill, as Lumiverse imports and keeps it). A continuation
 * goes on from the reply as written, so it starts with nothing new.
 */
function prefillOf(preset: PresetDto, generationType: PrepareInput['generationType']): { prefill?: string } {
  const settings = (preset.prompts as { completionSettings?: { assistantPrefill?: unknown } } | undefined)?.completionSettings;
  const prefill = settings?.assistantPrefill;
  return generationType !== 'continue' && typeof prefill === 'string' && prefill !== '' ? { prefill } : {};
}
