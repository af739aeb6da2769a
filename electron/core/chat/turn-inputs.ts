// What a chat turn reads from the host's services as it starts: the chat settings, the connection and model it
// answers with, the world books the session reads, and the turn's and its preparation's services as they are now
// (the council and the extensions' pipeline plug in after the engine is built).
import { HostFailure } from '../../../shared/errors';
import { defaultChatSettings, type ChatSession, type ChatSettings } from '../../../shared/types/chat';
import type { ConnectionProfile } from '../../../shared/types/llm';
import type { Clock, Logger } from '../ports';
import type { ExtensionPipeline } from '../extensions/pipeline/pipeline-bridge';
import type { ChatEngineDeps } from './chat-engine';
import type { SendOptions, TurnDeps } from './chat-turn';
import type { CouncilPort } from './council-port';
import type { LoreBooks } from './pipeline/lore-stage';
import type { PrepareDeps } from './pipeline/prepare';
import { branchRoot, sessionHeads } from '../util/branch-root';

export interface TurnInputsLive {
  council(): CouncilPort | undefined;
  pipeline(): ExtensionPipeline | undefined;
  /** Keeps what a committed turn's macros changed of a chat's variables (and tells the window). */
  saveChatVariables(sessionId: string, changes: ReadonlyMap<string, string | null>): void;
}

export class TurnInputs {
  constructor(
    private readonly deps: ChatEngineDeps,
    private readonly live: TurnInputsLive,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  chatSettings(): ChatSettings {
    return { ...defaultChatSettings(), ...(this.deps.settings().chat ?? {}) };
  }

  /** The call's override, else the session's own connection and model, else the chat settings' default. */
  target(options: SendOptions, session: ChatSession): { profile: ConnectionProfile; model: string } {
    const chat = this.chatSettings();
    const id = options.connectionId ?? (session.connectionId || chat.mainConnectionId);
    if (!id) {
      throw new HostFailure({ code: 'CHAT_NO_CONNECTION', message: 'No main connection is chosen for the chat.', hint: 'Pick a connection in the Workbench settings.', path: '/mainConnectionId' });
    }
    const profile = this.deps.profile(id);
    const model = options.model || (session.connectionId ? session.model : chat.model) || profile.defaultModel;
    if (!model) throw new HostFailure({ code: 'INVALID_INPUT', message: `The connection ${profile.name} has no default model; choose a model.`, path: '/model' });
    return { profile, model };
  }

  /** The session with the entries of the world books it reads, and which book each of those came from. */
  withLore(session: ChatSession): { read: ChatSession; loreBooks: LoreBooks } {
    const books = this.deps.lore?.(session) ?? [];
    const lore = books.flatMap((b) => b.entries);
    const read = lore.length ? { ...session, worldInfo: [...session.worldInfo, ...lore] } : session;
    // Which book each entry came from, for those who ask (world info interceptors); the session's own are its own.
    const loreBooks = new Map(books.flatMap((b) => b.entries.map((e) => [e.id, { bookId: b.bookId, ...(b.bookName ? { bookName: b.bookName } : {}), source: b.source }] as const)));
    return { read, loreBooks };
  }

  /** What a turn works with (chat-turn.ts), as of now. */
  turnDeps(): TurnDeps {
    const { sessions, settings, llm, tools, emit, batching, onModelDelta } = this.deps;
    return {
      sessions,
      settings,
      chatSettings: () => this.chatSettings(),
      llm,
      tools,
      emit,
      council: this.live.council(),
      pipeline: this.live.pipeline(),
      prepare: this.prepareDeps(),
      clock: this.clock,
      log: this.log,
      ...(batching ? { batching } : {}),
      ...(onModelDelta ? { onModelDelta } : {}),
    };
  }

  /** What the turn's preparation works with (pipeline/prepare.ts), as of now. */
  prepareDeps(): Omit<PrepareDeps, 'council'> {
    const { sessions, regex, presets } = this.deps;
    return {
      pipeline: this.live.pipeline(),
      now: () => this.clock.now(),
      councilTools: () => this.live.council()?.inlineTools?.() ?? [],
      ...(regex ? { regex } : {}),
      saveChatVariables: (sessionId, changes) => this.live.saveChatVariables(sessionId, changes),
      currentMetadata: (sessionId) => (sessions.has(sessionId) ? sessions.head(sessionId).metadata : undefined),
      characterOf: (sessionId) => branchRoot(sessionId, sessionHeads(sessions)),
      preset: () => {
        const id = this.deps.settings().chat?.presetId;
        return id ? { id, preset: presets?.get(id) ?? null } : null;
      },
    };
  }
}
