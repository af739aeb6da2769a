// The Workbench chat: one turn = council (sidecar mode) → main generation streamed as events → inline tool rounds → the reply saved.
import { randomUUID } from 'node:crypto';
import { HostFailure, type HostError } from '../../../shared/errors';
import type { ChatEvent, ChatFinishReason, ChatMessage, ChatSession, ChatToolCallRecord } from '../../../shared/types/chat';
import { CHAT_DEFAULTS, defaultChatSettings, INLINE_MAX_ROUNDS_LIMIT, type ChatSettings } from '../../../shared/types/chat';
import type { ConnectionProfile, LlmMessage, LlmToolCallRef, LlmUsage } from '../../../shared/types/llm';
import type { Settings } from '../../../shared/settings';
import type { ToolInfo, ToolOutcome } from '../../../shared/types/tools';
import type { GuardedInvokeOptions } from '../safety/guarded-invoke';
import { readSafetySettings } from '../../../shared/types/safety';
import type { LlmClient } from '../llm/client';
import { silentLogger, systemClock, type Clock, type Logger } from '../ports';
import { readToolsSettings, type CouncilPort, type CouncilRunOutcome, type InlineToolBinding } from './council-port';
import { DeltaBatcher, type DeltaBatcherOptions } from './delta-batcher';
import { bindingsFromSettings, inlineFunctions, type InlineFunction } from './inline-tools';
import { buildMessages } from './prompt';
import type { SessionStore } from './session-store';

/** The guarded invoker as the chat uses it (approvals, paths, dry run, cache; a bare ToolRegistry also fits, for tests). */
export interface ChatToolRunner {
  get(qualifiedName: string): ToolInfo | undefined;
  invoke(nameOrAlias: string, rawArgs: unknown, opts: GuardedInvokeOptions): Promise<ToolOutcome>;
}

export interface ChatEngineDeps {
  sessions: SessionStore;
  settings: () => Settings;
  /** The full profile (key-free) by id; throws HostFailure NOT_FOUND. */
  profile: (id: string) => ConnectionProfile;
  llm: LlmClient;
  tools: ChatToolRunner;
  emit: (event: ChatEvent) => void;
  council?: CouncilPort;
  clock?: Clock;
  log?: Logger;
  newId?: () => string;
  batching?: DeltaBatcherOptions;
  /** Called with every text delta as it leaves the LLM layer (benchmarks measure added latency from here). */
  onModelDelta?: (text: string) => void;
}

export interface SendOptions {
  council?: boolean;
  dryRun?: boolean;
  /** Simulate write tools this turn (council run and inline calls); default settings.safety.dryRun. */
  toolDryRun?: boolean;
  /** Override the chat settings' connection and model for this turn (the CLI). */
  connectionId?: string;
  model?: string;
}

export interface TurnStarted {
  turnId: string;
  sessionId: string;
  userMessageId?: string;
  assistantMessageId: string;
  prompt?: Array<{ role: LlmMessage['role']; content: string }>;
  tools?: string[];
}

interface Turn {
  id: string;
  sessionId: string;
  controller: AbortController;
  done: Promise<void>;
}

interface CouncilCacheEntry {
  userMessageId: string;
  outcome: CouncilRunOutcome;
}

const MAX_TOOL_RESULT_CHARS = 64 * 1024;

export class ChatEngine {
  private readonly turns = new Map<string, Turn>();
  private readonly councilCache = new Map<string, CouncilCacheEntry>();
  private council: CouncilPort | undefined;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly newId: () => string;
  private disposed = false;

  constructor(private readonly deps: ChatEngineDeps) {
    this.council = deps.council;
    this.clock = deps.clock ?? systemClock;
    this.log = deps.log ?? silentLogger;
    this.newId = deps.newId ?? (() => randomUUID());
  }

  /** The council service plugs in here once it is built (host wiring). */
  setCouncil(council: CouncilPort | undefined): void {
    this.council = council;
  }

  isBusy(sessionId: string): boolean {
    return this.turns.has(sessionId);
  }

  /** Resolves when the session's running turn (if any) has ended and been saved. */
  async settled(sessionId: string): Promise<void> {
    await this.turns.get(sessionId)?.done;
  }

  send(sessionId: string, text: string, options: SendOptions = {}): TurnStarted {
    const session = this.deps.sessions.get(sessionId);
    this.assertIdle(sessionId);
    const target = this.target(options);
    const userMessage: ChatMessage = { id: this.newId(), role: 'user', content: text, createdAt: this.clock.now() };
    const history = [...session.messages, userMessage];
    if (options.dryRun) return this.dryRun(session, history, userMessage.id, options);
    this.deps.sessions.mutate(sessionId, (s) => {
      s.messages.push(userMessage);
    });
    this.deps.emit({ type: 'chat.sessions.changed', sessionId, change: 'updated' });
    return this.start(session, history, target, options, { userMessageId: userMessage.id });
  }

  regenerate(sessionId: string, options: SendOptions = {}): TurnStarted {
    const session = this.deps.sessions.get(sessionId);
    this.assertIdle(sessionId);
    const target = this.target(options);
    const lastUser = session.messages.map((m) => m.role).lastIndexOf('user');
    if (lastUser < 0) throw new HostFailure({ code: 'INVALID_INPUT', message: 'There is no user message to answer yet.', path: '/sessionId' });
    const history = session.messages.slice(0, lastUser + 1);
    const replaced = session.messages.length > lastUser + 1 ? session.messages[session.messages.length - 1] : undefined;
    return this.start(session, history, target, options, { replaceMessageId: replaced?.role === 'assistant' ? replaced.id : undefined, regenerate: true });
  }

  stop(sessionId: string): boolean {
    const turn = this.turns.get(sessionId);
    if (!turn) return false;
    turn.controller.abort();
    return true;
  }

  /** Forgets cached council results for a session (it was deleted). */
  forget(sessionId: string): void {
    this.councilCache.delete(sessionId);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const running = [...this.turns.values()];
    for (const turn of running) turn.controller.abort();
    await Promise.allSettled(running.map((t) => t.done));
  }

  // -------------------------------------------------------------------------------------------

  private assertIdle(sessionId: string): void {
    if (this.disposed) throw new HostFailure({ code: 'HOST_SHUTDOWN', message: 'The host is shutting down.' });
    if (this.turns.has(sessionId)) {
      throw new HostFailure({ code: 'CONFLICT', message: 'A reply is still being generated for this session.', hint: 'Stop it first, or wait for it to finish.' });
    }
  }

  private chatSettings(): ChatSettings {
    return { ...defaultChatSettings(), ...(this.deps.settings().chat ?? {}) };
  }

  private target(options: SendOptions): { profile: ConnectionProfile; model: string } {
    const chat = this.chatSettings();
    const id = options.connectionId ?? chat.mainConnectionId;
    if (!id) {
      throw new HostFailure({ code: 'CHAT_NO_CONNECTION', message: 'No main connection is chosen for the chat.', hint: 'Pick a connection in the Workbench settings.', path: '/mainConnectionId' });
    }
    const profile = this.deps.profile(id);
    const model = options.model || chat.model || profile.defaultModel;
    if (!model) throw new HostFailure({ code: 'INVALID_INPUT', message: `The connection ${profile.name} has no default model; choose a model.`, path: '/model' });
    return { profile, model };
  }

  private inlineSetup(): { functions: InlineFunction[]; maxRounds: number } | null {
    const settings = this.deps.settings();
    if (readToolsSettings(settings.council).mode !== 'inline') return null;
    const bindings: InlineToolBinding[] = this.council?.inlineTools ? this.council.inlineTools() : bindingsFromSettings(settings.council);
    const functions = inlineFunctions(bindings, (q) => this.deps.tools.get(q));
    const maxRounds = Math.max(1, Math.min(INLINE_MAX_ROUNDS_LIMIT, this.chatSettings().inlineMaxRounds ?? CHAT_DEFAULTS.inlineMaxRounds));
    return functions.length ? { functions, maxRounds } : null;
  }

  private dryRun(session: ChatSession, history: ChatMessage[], userMessageId: string, options: SendOptions): TurnStarted {
    const inline = this.inlineSetup();
    const prompt = buildMessages({ session, history });
    const turnId = this.newId();
    const assistantMessageId = this.newId();
    queueMicrotask(() =>
      this.deps.emit({ type: 'chat.finished', sessionId: session.id, turnId, messageId: assistantMessageId, finishReason: 'dry-run', usage: null, reason: 'Dry run: nothing was sent.' }),
    );
    void options;
    return {
      turnId,
      sessionId: session.id,
      userMessageId,
      assistantMessageId,
      prompt: prompt.map((m) => ({ role: m.role, content: m.content })),
      tools: inline?.functions.map((f) => f.name) ?? [],
    };
  }

  private start(
    session: ChatSession,
    history: ChatMessage[],
    target: { profile: ConnectionProfile; model: string },
    options: SendOptions,
    extra: { userMessageId?: string; replaceMessageId?: string | undefined; regenerate?: boolean },
  ): TurnStarted {
    const turnId = this.newId();
    const assistantMessageId = this.newId();
    const controller = new AbortController();
    const turn: Turn = { id: turnId, sessionId: session.id, controller, done: Promise.resolve() };
    this.turns.set(session.id, turn);
    const run = async () => {
      // Let the caller receive the turn id before the first event.
      await Promise.resolve();
      try {
        await this.runTurn({ session, history, target, options, turnId, assistantMessageId, signal: controller.signal, ...extra });
      } catch (err) {
        const error: HostError = err instanceof HostFailure ? err.error : { code: 'INTERNAL', message: 'The chat turn failed unexpectedly.' };
        if (!(err instanceof HostFailure)) this.log.error('chat turn failed', err);
        this.deps.emit({ type: 'chat.error', sessionId: session.id, turnId, error });
        this.deps.emit({ type: 'chat.finished', sessionId: session.id, turnId, messageId: assistantMessageId, finishReason: 'error', usage: null, error });
      } finally {
        this.turns.delete(session.id);
      }
    };
    turn.done = run();
    return { turnId, sessionId: session.id, ...(extra.userMessageId ? { userMessageId: extra.userMessageId } : {}), assistantMessageId };
  }

  private async councilStage(
    session: ChatSession,
    history: ChatMessage[],
    requested: boolean,
    regenerate: boolean,
    turnId: string,
    signal: AbortSignal,
    dryRun: boolean,
  ): Promise<CouncilRunOutcome | undefined> {
    const settings = this.deps.settings();
    const tools = readToolsSettings(settings.council);
    if (!requested || tools.mode === 'inline') return undefined;
    const base = { type: 'chat.council' as const, sessionId: session.id, turnId };
    const lastUser = history[history.length - 1]!;
    const cached = this.councilCache.get(session.id);
    if (regenerate && tools.retainResultsForRegens && cached && cached.userMessageId === lastUser.id) {
      this.deps.emit({ ...base, phase: 'completed', runId: cached.outcome.runId, reused: true, deliberationChars: cached.outcome.deliberationBlock.length });
      return cached.outcome;
    }
    if (!this.council) {
      this.deps.emit({ ...base, phase: 'skipped', reason: 'The council service is not available.' });
      return undefined;
    }
    this.deps.emit({ ...base, phase: 'started', runId: null });
    try {
      const outcome = await this.council.run(
        {
          chatId: session.id,
          character: { ...session.character },
          persona: { ...session.persona },
          worldInfo: session.worldInfo.filter((e) => e.enabled).map((e) => ({ keywords: e.keywords, content: e.content })),
          messages: history.slice(-200).map((m) => ({ role: m.role, content: m.content })),
        },
        signal,
        { dryRun },
      );
      this.councilCache.set(session.id, { userMessageId: lastUser.id, outcome });
      this.deps.emit({ ...base, phase: 'completed', runId: outcome.runId, reused: false, deliberationChars: outcome.deliberationBlock.length });
      return outcome;
    } catch (err) {
      if (signal.aborted) return undefined;
      const error: HostError = err instanceof HostFailure ? err.error : { code: 'COUNCIL_FAILED', message: 'The council run failed; the reply goes on without its deliberation.' };
      if (!(err instanceof HostFailure)) this.log.warn('council run failed', err);
      this.deps.emit({ ...base, phase: 'failed', error });
      return undefined;
    }
  }

  private async runTurn(t: {
    session: ChatSession;
    history: ChatMessage[];
    target: { profile: ConnectionProfile; model: string };
    options: SendOptions;
    turnId: string;
    assistantMessageId: string;
    signal: AbortSignal;
    replaceMessageId?: string | undefined;
    regenerate?: boolean;
  }): Promise<void> {
    const { session, history, target, turnId, assistantMessageId, signal } = t;
    const sessionId = session.id;
    const councilRequested = t.options.council ?? this.deps.settings().council.councilMode;
    const toolDryRun = t.options.toolDryRun ?? readSafetySettings(this.deps.settings().safety).dryRun;
    const council = await this.councilStage(session, history, councilRequested, t.regenerate === true, turnId, signal, toolDryRun);
    const inline = this.inlineSetup();
    const messages = buildMessages({
      session,
      history,
      ...(council ? { deliberationBlock: council.deliberationBlock } : {}),
      ...(council?.referenceBlock ? { referenceBlock: council.referenceBlock } : {}),
    });
    const byName = new Map((inline?.functions ?? []).map((f) => [f.name, f]));
    const toolTimeoutMs = readToolsSettings(this.deps.settings().council).timeoutMs;

    let text = '';
    let seq = 0;
    const usage: LlmUsage = {};
    let sawUsage = false;
    const records: ChatToolCallRecord[] = [];
    let finishReason: ChatFinishReason = 'stop';
    let reason: string | undefined;
    let error: HostError | undefined;
    const batcher = new DeltaBatcher((chunk) => {
      this.deps.emit({ type: 'chat.delta', sessionId, turnId, messageId: assistantMessageId, seq: seq++, text: chunk });
    }, this.deps.batching);
    const onModelDelta = this.deps.onModelDelta;

    try {
      for (let round = 1; ; round++) {
        if (signal.aborted) break;
        const roundText: string[] = [];
        const calls: Array<{ id: string; name: string; argsText: string; args?: unknown; error?: HostError }> = [];
        let finished = false;
        const emitCall = (phase: Record<string, unknown>) => {
          batcher.flush();
          this.deps.emit({ type: 'chat.toolCall', sessionId, turnId, round, ...phase } as ChatEvent);
        };
        for await (const event of this.deps.llm.stream(
          target.profile,
          {
            messages,
            model: target.model,
            ...(inline ? { tools: inline.functions.map((f) => f.definition), toolChoice: 'auto' as const } : {}),
          },
          { signal },
        )) {
          switch (event.type) {
            case 'text-delta':
              onModelDelta?.(event.text);
              roundText.push(event.text);
              batcher.push(event.text);
              break;
            case 'tool-call-start':
              emitCall({ phase: 'started', callId: event.id, index: event.index });
              break;
            case 'tool-call-name': {
              const fn = byName.get(event.name);
              emitCall({ phase: 'name', callId: event.id, name: event.name, qualifiedName: fn?.qualifiedName ?? null, memberName: fn?.memberName ?? null });
              break;
            }
            case 'tool-call-args-delta':
              emitCall({ phase: 'args', callId: event.id, delta: event.delta });
              break;
            case 'tool-call-end':
              emitCall({ phase: 'ended', callId: event.id, argsText: event.argsText });
              calls.push({ id: event.id, name: event.name, argsText: event.argsText, args: event.args });
              break;
            case 'tool-call-failed':
              emitCall({ phase: 'failed', callId: event.id, argsText: event.argsText, error: event.error });
              calls.push({ id: event.id, name: event.name, argsText: event.argsText, error: event.error });
              break;
            case 'finish':
              finished = true;
              finishReason = event.reason;
              if (event.usage) {
                sawUsage = true;
                for (const key of ['inputTokens', 'outputTokens', 'totalTokens'] as const) {
                  if (event.usage[key] !== undefined) usage[key] = (usage[key] ?? 0) + event.usage[key]!;
                }
              }
              break;
            case 'error':
              error = event.error;
              break;
          }
        }
        batcher.flush();
        text += roundText.join('');
        if (signal.aborted) break;
        if (error) {
          finishReason = 'error';
          break;
        }
        if (!finished) {
          finishReason = 'error';
          error = { code: 'LLM_BAD_RESPONSE', message: 'The response ended without finishing.' };
          break;
        }
        if (calls.length === 0) break;
        if (!inline) {
          records.push(...calls.map((call) => notRunRecord(call, round, 'No tools were offered in this turn, so the call was not run.')));
          break;
        }
        if (round > inline.maxRounds) {
          finishReason = 'tool-round-cap';
          reason = `The model kept calling tools after ${inline.maxRounds} round${inline.maxRounds === 1 ? '' : 's'}; stopped at the cap (chat.inlineMaxRounds).`;
          records.push(...calls.map((call) => notRunRecord(call, round, `Not run: the turn stopped at the cap of ${inline.maxRounds} tool round${inline.maxRounds === 1 ? '' : 's'}.`)));
          break;
        }
        // Answer every call (errors included) and go round again.
        const refs: LlmToolCallRef[] = calls.map((c) => ({ id: c.id, name: c.name, argsText: c.argsText }));
        messages.push({ role: 'assistant', content: roundText.join(''), toolCalls: refs });
        for (const [index, call] of calls.entries()) {
          const fn = byName.get(call.name);
          const outcome = await this.runCall(call, fn, toolTimeoutMs, signal, toolDryRun);
          if (signal.aborted) {
            records.push(...calls.slice(index).map((c) => notRunRecord(c, round, 'Not run: the turn was stopped.', byName.get(c.name)?.qualifiedName)));
            break;
          }
          const content = outcome.ok ? outcome.content : toolErrorText(outcome.error);
          records.push({
            id: call.id,
            name: call.name,
            qualifiedName: fn?.qualifiedName ?? null,
            argsText: call.argsText.slice(0, 1024 * 1024),
            ok: outcome.ok,
            result: content.slice(0, 1024 * 1024),
            ...(outcome.ok ? {} : { errorCode: String(outcome.error.code).slice(0, 64) }),
            round,
            ...safetyFlags(outcome),
          });
          emitCall({ phase: 'result', callId: call.id, ok: outcome.ok, content, ...(outcome.ok ? {} : { errorCode: outcome.error.code }), durationMs: outcome.durationMs, ...safetyFlags(outcome) });
          messages.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content });
        }
      }
    } finally {
      batcher.flush();
      batcher.dispose();
    }

    const stopped = signal.aborted;
    if (stopped) {
      finishReason = 'stopped';
      reason = 'Stopped by the user.';
    }
    if (error && !stopped) this.deps.emit({ type: 'chat.error', sessionId, turnId, error });

    const message: ChatMessage = {
      id: assistantMessageId,
      role: 'assistant',
      content: text,
      createdAt: this.clock.now(),
      finishReason,
      connectionId: target.profile.id,
      model: target.model,
      ...(stopped ? { stopped: true } : {}),
      ...(error && !stopped ? { error: { code: String(error.code), message: error.message } } : {}),
      ...(records.length ? { toolCalls: records.slice(-64) } : {}),
      ...(council ? { councilRunId: council.runId } : {}),
    };
    try {
      if (this.deps.sessions.has(sessionId)) {
        this.deps.sessions.mutate(sessionId, (s) => {
          const index = t.replaceMessageId ? s.messages.findIndex((m) => m.id === t.replaceMessageId) : -1;
          if (index >= 0) s.messages[index] = message;
          else s.messages.push(message);
        });
        this.deps.emit({ type: 'chat.sessions.changed', sessionId, change: 'updated' });
      }
    } catch (err) {
      const saveError: HostError = err instanceof HostFailure ? err.error : { code: 'INTERNAL', message: 'The reply could not be saved.' };
      this.deps.emit({ type: 'chat.error', sessionId, turnId, error: saveError });
    }
    this.deps.emit({
      type: 'chat.finished',
      sessionId,
      turnId,
      messageId: assistantMessageId,
      finishReason,
      usage: sawUsage ? usage : null,
      ...(reason ? { reason } : {}),
      ...(error && !stopped ? { error } : {}),
    });
  }

  private async runCall(
    call: { id: string; name: string; argsText: string; args?: unknown; error?: HostError },
    fn: InlineFunction | undefined,
    timeoutMs: number,
    signal: AbortSignal,
    dryRun: boolean,
  ): Promise<ToolOutcome> {
    if (call.error) return { ok: false, error: call.error, durationMs: 0 };
    if (!fn) return { ok: false, error: { code: 'UNKNOWN_TOOL', message: `There is no tool named ${call.name}.`, hint: 'Call only the tools offered.' }, durationMs: 0 };
    const outcome = await this.deps.tools.invoke(fn.qualifiedName, call.args ?? {}, {
      timeoutMs,
      signal,
      origin: 'chat',
      member: { id: fn.memberId, name: fn.memberName, role: fn.role },
      dryRun,
    });
    if (outcome.ok && outcome.content.length > MAX_TOOL_RESULT_CHARS) {
      return { ...outcome, content: `${outcome.content.slice(0, MAX_TOOL_RESULT_CHARS)}\n[truncated]` };
    }
    return outcome;
  }
}

/** A call the model made that the turn did not run; saved so it still shows after a reload. */
function notRunRecord(call: { id: string; name: string; argsText: string }, round: number, why: string, qualifiedName?: string): ChatToolCallRecord {
  return {
    id: call.id,
    name: call.name,
    qualifiedName: qualifiedName ?? null,
    argsText: call.argsText.slice(0, 1024 * 1024),
    ok: false,
    result: why,
    errorCode: 'TOOL_NOT_RUN',
    round,
  };
}

function safetyFlags(outcome: ToolOutcome): { simulated?: boolean; unvalidated?: boolean; cached?: boolean } {
  return {
    ...(outcome.simulated ? { simulated: true } : {}),
    ...(outcome.unvalidated ? { unvalidated: true } : {}),
    ...(outcome.cached ? { cached: true } : {}),
  };
}

/** What the model reads when a call failed: the code, the message and the hint, so it can correct itself. */
function toolErrorText(error: HostError): string {
  return JSON.stringify({ error: { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}), ...(error.path ? { path: error.path } : {}) } });
}
