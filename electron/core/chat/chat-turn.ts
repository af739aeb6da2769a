// One chat turn, from a prepared prompt to a saved reply: the council stage (sidecar mode), the main generation
// streamed as events with inline tool rounds, the reply saved in its place, and the extensions told how it ended.
import type { LoreBooks } from './pipeline/lore-stage';
import type { HostError } from '../../../shared/errors';
import { HostFailure } from '../../../shared/errors';
import type { ChatMessage, ChatSession } from '../../../shared/types/chat';
import type { ChatEvent } from '../../../shared/types/chat-events';
import { CHAT_DEFAULTS, INLINE_MAX_ROUNDS_LIMIT, SESSION_LIMITS, type ChatSettings } from '../../../shared/types/chat';
import type { ConnectionProfile } from '../../../shared/types/llm';
import type { Settings } from '../../../shared/settings';
import { readSafetySettings } from '../../../shared/types/safety';
import type { LlmClient } from '../llm/client';
import type { Clock, Logger } from '../ports';
import { normalizeCouncil } from '../council/validate-council';
import type { ExtensionPipeline } from '../extensions/pipeline/pipeline-bridge';
import type { CouncilPort, InlineTool } from './council-port';
import type { DeltaBatcherOptions } from './delta-batcher';
import { runGeneration, type ChatToolRunner } from './generate-stage';
import { preparePrompt, type PrepareDeps } from './pipeline/prepare';
import { runCouncilStage } from './council-stage';
import type { SessionStore } from './session-store';
import { budgetLimits, samplingParameters, turnSampling } from './sampling';
import { saveReply, type ReplyPlacement } from './reply-save';
import { messageWireIn } from './chat-reads';
import { swipeCount, swipeIndex } from './swipes';
import { patternsOf, responseRegex, turnRegexMacros } from './pipeline/regex-stage';

const GENERATION_TYPE = { new: 'normal', swipe: 'regenerate', continue: 'continue' } as const;

export interface SendOptions {
  council?: boolean;
  dryRun?: boolean;
  /** Simulate write tools this turn (council run and inline calls); default settings.safety.dryRun. */
  toolDryRun?: boolean;
  /** Override the chat settings' connection and model for this turn (the CLI). */
  connectionId?: string;
  model?: string;
  /** A regenerate the person asked for by swiping past the last reply: Lumiverse's generation type `swipe`. */
  swipe?: boolean;
}

/** What a turn works with: the engine's services as they are when the turn starts. */
export interface TurnDeps {
  sessions: SessionStore;
  settings: () => Settings;
  chatSettings: () => ChatSettings;
  llm: LlmClient;
  tools: ChatToolRunner;
  emit: (event: ChatEvent) => void;
  council: CouncilPort | undefined;
  pipeline: ExtensionPipeline | undefined;
  prepare: Omit<PrepareDeps, 'council'>;
  clock: Clock;
  log: Logger;
  batching?: DeltaBatcherOptions;
  onModelDelta?: (text: string) => void;
}

/** Inline mode: the members' tools the main model may call this turn, and how many rounds it gets. */
function inlineSetup(d: TurnDeps): { functions: InlineTool[]; maxRounds: number } | null {
  if (normalizeCouncil(d.settings().council).toolsSettings.mode !== 'inline') return null;
  const functions = d.council?.inlineTools?.() ?? [];
  const maxRounds = Math.max(1, Math.min(INLINE_MAX_ROUNDS_LIMIT, d.chatSettings().inlineMaxRounds ?? CHAT_DEFAULTS.inlineMaxRounds));
  return functions.length ? { functions, maxRounds } : null;
}

function councilStage(d: TurnDeps, session: ChatSession, history: ChatMessage[], requested: boolean, regenerate: boolean, turnId: string, signal: AbortSignal, dryRun: boolean) {
  return runCouncilStage(
    { settings: d.settings, council: d.council, emit: d.emit, log: d.log },
    { session, history, requested, regenerate, turnId, signal, dryRun },
  );
}

/**
 * Where the reply goes, as GENERATION_STARTED names it: a new message (announced now, empty, as Lumiverse stages one:
 * MESSAGE_SENT before the generation starts), a new swipe of the message regenerated, or the swipe continued.
 */
function targetOf(d: TurnDeps, sessionId: string, replyId: string, placement: ReplyPlacement, dryRun: boolean): { messageId: string; swipeId: number } {
  const now = d.sessions.get(sessionId);
  if (placement.kind === 'new') {
    const staged: ChatMessage = { id: replyId, role: 'assistant', content: '', createdAt: d.clock.now() };
    if (!dryRun) d.pipeline?.broadcast('MESSAGE_SENT', { chatId: sessionId, message: messageWireIn(now, now.messages.length, staged) });
    return { messageId: replyId, swipeId: 0 };
  }
  const message = now.messages.find((m) => m.id === placement.of);
  // A new swipe is the last; at the cap the oldest goes, so the last place is the cap's.
  const swipeId = !message ? 0 : placement.kind === 'swipe' ? Math.min(swipeCount(message), SESSION_LIMITS.swipes - 1) : swipeIndex(message);
  return { messageId: placement.of, swipeId };
}

export interface TurnInput {
  session: ChatSession;
  /** The book each world-books entry of `session` came from. */
  loreBooks?: LoreBooks;
  history: ChatMessage[];
  target: { profile: ConnectionProfile; model: string };
  options: SendOptions;
  turnId: string;
  assistantMessageId: string;
  signal: AbortSignal;
  placement: ReplyPlacement;
  dryRun?: boolean;
}

export async function runTurn(d: TurnDeps, t: TurnInput): Promise<void> {
  const replyTarget = targetOf(d, t.session.id, t.assistantMessageId, t.placement, t.dryRun === true);
  // A staged reply that never comes (a context handler cancelled the turn, or it failed before its reply was saved)
  // is gone again, as Lumiverse deletes its staged message.
  let unstaged = t.placement.kind !== 'new' || t.dryRun === true;
  const unstage = () => {
    if (unstaged) return;
    unstaged = true;
    d.pipeline?.broadcast('MESSAGE_DELETED', { chatId: t.session.id, messageId: t.assistantMessageId });
  };
  let saved = false;
  try {
    saved = await turnAfterStaging(d, t, replyTarget, unstage);
  } finally {
    if (!saved) unstage();
  }
}

/** The turn once its reply is placed; true when a reply was saved. */
async function turnAfterStaging(d: TurnDeps, t: TurnInput, replyTarget: { messageId: string; swipeId: number }, unstage: () => void): Promise<boolean> {
  const { session, history, target, turnId, assistantMessageId, signal } = t;
  const sessionId = session.id;
  const settings = d.settings();
  const councilRequested = t.options.council ?? settings.council.councilMode;
  const toolsSettings = normalizeCouncil(settings.council).toolsSettings;
  const toolDryRun = t.options.toolDryRun ?? readSafetySettings(settings.safety).dryRun;
  const generationType = t.placement.kind === 'swipe' && t.options.swipe ? 'swipe' : GENERATION_TYPE[t.placement.kind];
  const sampling = turnSampling(d.chatSettings(), session, target.profile.id);
  const again = t.placement.kind !== 'new';
  const prepared = await preparePrompt(
    { ...d.prepare, council: (dryRun) => councilStage(d, session, history, councilRequested, again, turnId, signal, dryRun) },
    { session, ...(t.loreBooks ? { loreBooks: t.loreBooks } : {}), history, turnId, connectionId: target.profile.id, model: target.model, generationType, target: replyTarget, dryRun: t.dryRun === true, toolDryRun, signal, limits: budgetLimits(sampling) },
  );
  const { trace, council } = prepared;
  const inline = inlineSetup(d);
  if (!inline && toolsSettings.mode === 'inline' && councilRequested) {
    d.emit({ type: 'chat.council', sessionId, turnId, phase: 'skipped', reason: 'Inline mode: no member has a tool the main model can call right now, so this turn offers none.' });
  }
  const finish = (fields: Omit<Extract<ChatEvent, { type: 'chat.finished' }>, 'type' | 'sessionId' | 'turnId' | 'messageId'>) =>
    d.emit({ type: 'chat.finished', sessionId, turnId, messageId: assistantMessageId, ...fields });
  d.emit({ type: 'chat.trace', sessionId, turnId, stages: [...trace.stages] });
  if (t.dryRun) {
    finish({ finishReason: 'dry-run', usage: null, reason: 'Dry run: nothing was sent.', prompt: prepared.messages.map((m) => ({ role: m.role, content: m.content })), tools: inline?.functions.map((f) => f.name) ?? [], ...(prepared.report ? { report: prepared.report } : {}) });
    return false;
  }
  if (prepared.cancelledBy) {
    const reason = `Cancelled by the extension ${prepared.cancelledBy} (a context handler asked to stop the generation).`;
    unstage();
    d.pipeline?.broadcast('GENERATION_STOPPED', { generationId: turnId, chatId: sessionId, content: '' });
    finish({ finishReason: 'stopped', usage: null, reason });
    return false;
  }

  const timing = trace.start('generation');
  const pipeline = d.pipeline;
  const result = await runGeneration(
    {
      llm: d.llm,
      tools: d.tools,
      emit: d.emit,
      ...(d.batching ? { batching: d.batching } : {}),
      ...(d.onModelDelta ? { onModelDelta: d.onModelDelta } : {}),
      ...(pipeline ? { onBatch: (token: string, seq: number) => pipeline.broadcast('STREAM_TOKEN_RECEIVED', { generationId: turnId, chatId: sessionId, token, seq }) } : {}),
      // As Lumiverse streams a reasoning model's thinking: extensions see the turn is alive before its first word (Auto Retry).
      ...(pipeline ? { onReasoning: (token: string, seq: number) => pipeline.broadcast('STREAM_TOKEN_RECEIVED', { generationId: turnId, chatId: sessionId, token, type: 'reasoning', seq }) } : {}),
      now: () => d.clock.now(),
    },
    {
      sessionId,
      turnId,
      assistantMessageId,
      target,
      messages: prepared.messages,
      parameters: { ...samplingParameters(sampling), ...prepared.parameters },
      inline,
      ...(prepared.prefill ? { prefill: prepared.prefill } : {}),
      toolTimeoutMs: toolsSettings.timeoutMs,
      toolDryRun,
      signal,
    },
  );
  timing.end(undefined, undefined, `${result.finishReason}; ${result.text.length} characters`);
  const stopped = signal.aborted;
  const finishReason = stopped ? 'stopped' : result.finishReason;
  const reason = stopped ? 'Stopped by the user.' : result.reason;
  const error = stopped ? undefined : result.error;
  if (error) d.emit({ type: 'chat.error', sessionId, turnId, error });

  // A stopped reply is saved too, so its scripts run on a signal of their own.
  const kept = new AbortController().signal;
  const macros = turnRegexMacros({ session, characterId: d.prepare.characterOf?.(sessionId) ?? sessionId, history, deliberation: council?.deliberationBlock ?? '', councilTools: d.prepare.councilTools(), pipeline, commit: true, signal: kept, phase: 'response', ...patternsOf(d.prepare.regex) });
  const content = await responseRegex({ regex: d.prepare.regex, chatId: sessionId, trace, macros, signal: kept }, result.text);
  const message: ChatMessage = {
    id: assistantMessageId,
    role: 'assistant',
    content,
    createdAt: d.clock.now(),
    finishReason,
    connectionId: target.profile.id,
    model: target.model,
    ...(stopped ? { stopped: true } : {}),
    ...(error ? { error: { code: String(error.code), message: error.message } } : {}),
    ...(result.records.length ? { toolCalls: result.records.slice(-64) } : {}),
    ...(result.reasoning ? { reasoning: result.reasoning, reasoningMs: result.reasoningMs ?? 0 } : {}),
    ...(council ? { councilRunId: council.runId } : {}),
    trace: trace.stages,
    ...(prepared.report ? { prompt: prepared.report } : {}),
  };
  saveTurnReply(d, sessionId, turnId, message, t.placement);
  d.emit({ type: 'chat.trace', sessionId, turnId, stages: [...trace.stages] });
  pipeline?.broadcast(stopped ? 'GENERATION_STOPPED' : 'GENERATION_ENDED', {
    generationId: turnId,
    chatId: sessionId,
    messageId: assistantMessageId,
    content,
    ...(stopped ? {} : { usage: result.usage, generationType }),
    // As Lumiverse says a failure: its message (a retrying extension tells it from an empty reply).
    ...(error ? { error: error.message } : {}),
  });
  // The reply is in the chat: SillyTavern's event for it, which trackers ported from it (Tracktor) run on.
  if (!stopped && !error && content) pipeline?.broadcast('CHARACTER_MESSAGE_RENDERED', { chatId: sessionId, messageId: assistantMessageId });
  finish({ finishReason, usage: result.usage, ...(reason ? { reason } : {}), ...(error ? { error } : {}) });
  return true;
}

function saveTurnReply(d: TurnDeps, sessionId: string, turnId: string, message: ChatMessage, placement: ReplyPlacement): void {
  try {
    if (!d.sessions.has(sessionId)) return;
    const { event } = saveReply(d.sessions, sessionId, message, placement);
    d.emit({ type: 'chat.sessions.changed', sessionId, change: 'updated' });
    if (event) d.pipeline?.broadcast(event.name, event.payload);
  } catch (err) {
    const saveError: HostError = err instanceof HostFailure ? err.error : { code: 'INTERNAL', message: 'The reply could not be saved.' };
    d.emit({ type: 'chat.error', sessionId, turnId, error: saveError });
  }
}

