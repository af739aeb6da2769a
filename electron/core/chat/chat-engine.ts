// The Workbench chat: sessions' turns started, stopped and awaited (one at a time per session), and the chat extensions
// see as active. What a turn reads as it starts (connection and model, world books, services) is turn-inputs.ts; a
// turn itself runs in chat-turn.ts.
import type { PresetDto } from '../presets/preset-store';
import { assemblyPreset } from '../presets/assembly-preset';
import type { LoreBook } from './pipeline/lore-stage';
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { HostFailure, type HostError } from '../../../shared/errors';
import type { ChatMessage, ChatSession } from '../../../shared/types/chat';
import type { ChatEvent } from '../../../shared/types/chat-events';
import type { ConnectionProfile } from '../../../shared/types/llm';
import type { Settings } from '../../../shared/settings';
import type { Static } from '@sinclair/typebox';
import type { TurnStartedSchema } from '../../../shared/contract/chat';
import type { LlmClient } from '../llm/client';
import { silentLogger, systemClock, type Clock, type Logger } from '../ports';
import type { CouncilPort } from './council-port';
import type { ExtensionPipeline } from '../extensions/pipeline/pipeline-bridge';
import type { DeltaBatcherOptions } from './delta-batcher';
import type { MacroSources } from './pipeline/macro-catalog';
import { sessionMacroSources } from './session-macros';
import { TurnInputs } from './turn-inputs';
import type { SessionStore } from './session-store';
import { titleFrom } from './store/session-summary';
import { ActiveChat } from './active-chat';
import type { ReplyPlacement } from './reply-save';
import { runTurn, type SendOptions } from './chat-turn';
import type { ChatToolRunner } from './generate-stage';
import { messageWireIn } from './chat-reads';
import type { RegexScripts } from '../regex/regex-scripts';
import type { ExtensionPermission } from '../../../shared/types/spindle';
import { previewPrompt, PreviewSlots, type PreviewGenerationType, type PromptPreview } from './prompt-preview';
import { keepChatVariables } from './chat-variables';
import { processContent, type ContentWrite } from './pipeline/content-processors';

export interface PreviewOptions {
  connectionId?: string;
  presetId?: string;
  generationType?: PreviewGenerationType;
  signal: AbortSignal;
  /** spindle.assemble: the prompt of these blocks, only assembled (no context handlers, no interceptors). */
  assembly?: { owner: string; blocks: Record<string, unknown>[]; promptVariables: Record<string, unknown> };
}

/** What the caller leaves out follows the session's own Council switch. */
const followSession = (options: SendOptions, session: ChatSession): SendOptions =>
  options.council === undefined && session.council !== undefined ? { ...options, council: session.council } : options;

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
  /** Extensions' handlers, macros and events (absent: a turn without extensions). */
  pipeline?: () => ExtensionPipeline | undefined;
  /** The regex scripts a turn runs (absent: none). */
  regex?: RegexScripts;
  /** The person's Lumiverse presets: the chosen one (settings.chat.presetId) builds the turn's prompt. */
  presets?: { get(id: string): PresetDto | null };
  /** The world books a session reads (lore/book-library.ts), each with its entries, read at each turn beside its own. */
  lore?: (session: ChatSession) => LoreBook[];
}

export type { SendOptions } from './chat-turn';
export type { ChatToolRunner } from './generate-stage';

export type TurnStarted = Static<typeof TurnStartedSchema>;

interface Turn {
  id: string;
  sessionId: string;
  controller: AbortController;
  done: Promise<void>;
}

export class ChatEngine {
  private readonly turns = new Map<string, Turn>();
  private council: CouncilPort | undefined;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly newId: () => string;
  private disposed = false;
  private readonly active = new ActiveChat(() => this.pipeline());
  private pipelineSource: (() => ExtensionPipeline | undefined) | undefined;
  private readonly previews = new PreviewSlots();
  private readonly inputs: TurnInputs;
  /** Sessions whose person's line is with the extensions' processors (send waits on them before it saves). */
  private readonly writing = new Set<string>();

  constructor(private readonly deps: ChatEngineDeps) {
    this.council = deps.council;
    this.clock = deps.clock ?? systemClock;
    this.log = deps.log ?? silentLogger;
    this.newId = deps.newId ?? (() => randomUUID());
    this.inputs = new TurnInputs(deps, { council: () => this.council, pipeline: () => this.pipeline(), saveChatVariables: (id, changes) => this.saveChatVariables(id, changes) }, this.clock, this.log);
  }

  /** The extensions' pipeline plugs in here once the extension manager is built (host wiring). */
  setPipeline(source: () => ExtensionPipeline | undefined): void {
    this.pipelineSource = source;
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

  async send(sessionId: string, text: string, options: SendOptions = {}): Promise<TurnStarted> {
    let session = this.deps.sessions.get(sessionId);
    this.assertIdle(sessionId);
    options = { ...followSession(options, session), dryRun: options.dryRun ?? session.dryRun === true };
    const target = this.inputs.target(options, session);
    if (options.dryRun) {
      // A dry run saves nothing, so no processor runs on the line (they are for writes, and may act on them).
      const line: ChatMessage = { id: this.newId(), role: 'user', content: text, createdAt: this.clock.now() };
      return { ...this.start(session, [...session.messages, line], target, options, { dryRun: true }), userMessageId: line.id };
    }
    // Extensions' processors have the line before it is saved; the session takes no other send meanwhile.
    this.writing.add(sessionId);
    let written: Awaited<ReturnType<typeof processContent>>;
    try {
      written = await this.processWrite({ chatId: sessionId, content: text, isUser: true, origin: 'create' });
      session = this.deps.sessions.get(sessionId);
    } finally {
      this.writing.delete(sessionId);
    }
    this.assertIdle(sessionId);
    const userMessage: ChatMessage = { id: this.newId(), role: 'user', content: written.content, createdAt: this.clock.now(), ...(written.extra ? { extra: written.extra } : {}) };
    const history = [...session.messages, userMessage];
    const chat = this.inputs.chatSettings();
    const saved = this.deps.sessions.mutate(sessionId, (s) => {
      s.messages.push(userMessage);
      // The first message names a session nobody named; the connection answering it stays with the session.
      if (!s.titleSet && !s.messages.some((m) => m.role === 'user' && m !== userMessage)) s.title = titleFrom(text) || s.title;
      if (!s.connectionId && !options.connectionId && chat.mainConnectionId) {
        s.connectionId = chat.mainConnectionId;
        s.model = chat.model;
      }
    });
    this.deps.emit({ type: 'chat.sessions.changed', sessionId, change: 'updated' });
    this.announce(sessionId, 'MESSAGE_SENT', { chatId: sessionId, message: messageWireIn(saved, saved.messages.length - 1) });
    // SillyTavern's "shown" events, which trackers ported from it wait for (Lumiverse names them, with these payloads).
    this.broadcast('USER_MESSAGE_RENDERED', { chatId: sessionId, messageId: userMessage.id });
    return this.start(session, history, target, options, { userMessageId: userMessage.id });
  }

  regenerate(sessionId: string, options: SendOptions = {}): TurnStarted {
    const session = this.deps.sessions.get(sessionId);
    this.assertIdle(sessionId);
    options = followSession(options, session);
    const target = this.inputs.target(options, session);
    const lastUser = session.messages.map((m) => m.role).lastIndexOf('user');
    if (lastUser < 0) throw new HostFailure({ code: 'INVALID_INPUT', message: 'There is no user message to answer yet.', path: '/sessionId' });
    const history = session.messages.slice(0, lastUser + 1);
    const replaced = session.messages.length > lastUser + 1 ? session.messages[session.messages.length - 1] : undefined;
    // The new reply becomes a swipe of the one it regenerates (same message id, so the window draws it in place).
    const placement: ReplyPlacement = replaced?.role === 'assistant' ? { kind: 'swipe', of: replaced.id } : { kind: 'new' };
    return this.start(session, history, target, options, { placement });
  }

  /**
   * A new reply to the session as it now is (an extension appended the person's line and asked for the answer), as
   * the person's send would make it: their dry run switch honoured, refused while a reply is written or with no
   * connection. `check` asks only whether it could start (before anything is appended).
   */
  reply(sessionId: string, options: SendOptions = {}, check = false): TurnStarted | null {
    const session = this.deps.sessions.get(sessionId);
    this.assertIdle(sessionId);
    options = { ...followSession(options, session), dryRun: options.dryRun ?? session.dryRun === true };
    const target = this.inputs.target(options, session);
    if (check) return null;
    return this.start(session, session.messages, target, options, options.dryRun ? { dryRun: true } : {});
  }

  /** Asks the model to go on from the last reply: what it writes is added to that reply. */
  continueReply(sessionId: string, options: SendOptions = {}): TurnStarted {
    const session = this.deps.sessions.get(sessionId);
    this.assertIdle(sessionId);
    options = followSession(options, session);
    const last = session.messages[session.messages.length - 1];
    if (last?.role !== 'assistant') throw new HostFailure({ code: 'INVALID_INPUT', message: 'The last message is not a reply to continue.', path: '/sessionId' });
    return this.start(session, session.messages, this.inputs.target(options, session), options, { placement: { kind: 'continue', of: last.id } });
  }

  stop(sessionId: string): boolean {
    const turn = this.turns.get(sessionId);
    if (!turn) return false;
    turn.controller.abort();
    return true;
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
    if (this.turns.has(sessionId) || this.writing.has(sessionId)) {
      throw new HostFailure({ code: 'CONFLICT', message: 'A reply is still being generated for this session.', hint: 'Stop it first, or wait for it to finish.' });
    }
  }

  private start(
    session: ChatSession,
    history: ChatMessage[],
    target: { profile: ConnectionProfile; model: string },
    options: SendOptions,
    extra: { userMessageId?: string; placement?: ReplyPlacement; dryRun?: boolean },
  ): TurnStarted {
    const turnId = this.newId();
    const placement = extra.placement ?? { kind: 'new' };
    const assistantMessageId = placement.kind === 'new' ? this.newId() : placement.of;
    const controller = new AbortController();
    // Every macro, handler and tool call of the turn listens to it at once (tens, not a leak).
    setMaxListeners(1000, controller.signal);
    const turn: Turn = { id: turnId, sessionId: session.id, controller, done: Promise.resolve() };
    this.turns.set(session.id, turn);
    if (!extra.dryRun) this.announce(session.id);
    const run = async () => {
      // Let the caller receive the turn id before the first event.
      await Promise.resolve();
      try {
        const { read, loreBooks } = this.inputs.withLore(session);
        await runTurn(this.inputs.turnDeps(), { session: read, loreBooks, history, target, options, turnId, assistantMessageId, signal: controller.signal, placement, ...(extra.dryRun ? { dryRun: true } : {}) });
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

  /** The prompt a turn would send now, nothing sent or saved (spindle.generate.dryRun; prompt-preview.ts). */
  async previewPrompt(sessionId: string, options: PreviewOptions): Promise<PromptPreview> {
    const release = this.previews.hold(sessionId);
    try {
      await this.deps.sessions.preload(sessionId);
      const session = this.deps.sessions.get(sessionId);
      const target = this.inputs.target({ ...(options.connectionId ? { connectionId: options.connectionId } : {}) }, session);
      const prepare = this.inputs.prepareDeps();
      if (options.presetId !== undefined) {
        const preset = this.deps.presets?.get(options.presetId) ?? null;
        if (!preset) throw new HostFailure({ code: 'NOT_FOUND', message: `No preset ${options.presetId}.`, path: '/presetId' });
        prepare.preset = () => ({ id: preset.id, preset });
      }
      const { assembly } = options;
      if (assembly) {
        const preset = assemblyPreset(assembly.owner, assembly.blocks, assembly.promptVariables, Math.floor(this.clock.now() / 1000));
        prepare.preset = () => ({ id: preset.id, preset });
      }
      const { read, loreBooks } = this.inputs.withLore(session);
      return await previewPrompt(
        { prepare, chatSettings: this.inputs.chatSettings() },
        { session: read, loreBooks, target, generationType: options.generationType ?? 'normal', previewId: this.newId(), signal: options.signal, ...(assembly ? { hooks: false } : {}) },
      );
    } finally {
      release();
    }
  }

  private pipeline(): ExtensionPipeline | undefined {
    return (this.pipelineSource ?? this.deps.pipeline)?.();
  }

  /** What a macro in this session (or a blank one) resolves from, outside a turn (session-macros.ts). */
  macroSources(sessionId?: string, commit = false): MacroSources {
    const session = sessionId ? this.deps.sessions.get(sessionId) : undefined;
    const deps = this.inputs.prepareDeps();
    const sources = sessionMacroSources(session, { pipeline: this.pipeline(), councilTools: deps.councilTools(), regex: this.deps.regex }, commit);
    // The chat's character to extensions' macros: a branch's is its line's origin, in every phase as in the prompt's.
    return session && deps.characterOf ? { ...sources, characterId: deps.characterOf(session.id) } : sources;
  }

  /** Whether a running extension holds `permission` now (false with no extensions). */
  extensionAllowed(extensionId: string, permission: ExtensionPermission): boolean {
    return this.pipeline()?.allowed(extensionId, permission) === true;
  }

  /** The session extensions see as active (chats.getActive): the one open in the window, or the last a turn ran in. */
  get activeSessionId(): string | null {
    return this.active.id;
  }

  /** The person opened a session (null: none): extensions hear CHAT_SWITCHED when that changes the active chat. */
  open(sessionId: string | null): { active: string | null } {
    if (sessionId !== null) {
      this.deps.sessions.assertExists(sessionId);
      // Read whole in the background while the person reads the newest page: their first turn or edit then waits on nothing.
      void this.deps.sessions.preload(sessionId);
      this.deps.llm.warm();
    }
    this.active.switchTo(sessionId);
    return { active: this.active.id };
  }

  /** What the extensions' message content processors make of a person's write before it is saved (content-processors.ts). */
  processWrite(write: ContentWrite): ReturnType<typeof processContent> {
    return processContent(this.pipeline()?.handlers('message_content_processor') ?? [], write, this.log);
  }

  /** What macros changed of a chat's variables, merged onto them as they are now (chat-variables.ts). */
  saveChatVariables(sessionId: string, changes: ReadonlyMap<string, string | null>): void {
    if (keepChatVariables(this.deps.sessions, sessionId, changes, this.log)) this.deps.emit({ type: 'chat.sessions.changed', sessionId, change: 'updated' });
  }

  /** Tells extensions about a chat event (active-chat.ts). */
  announce(sessionId: string, event?: string, payload?: unknown): void {
    this.active.tell(sessionId, event, payload);
  }

  /** Tells extensions about an event of a session that need not be the active one (a character edited or deleted). */
  broadcast(event: string, payload: unknown): void {
    this.pipeline()?.broadcast(event, payload);
  }
}
