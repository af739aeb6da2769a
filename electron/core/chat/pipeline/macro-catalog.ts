// The macros a turn knows: Lumiverse's built-ins that people write in cards and prompts (builtin-macros.ts), the council's, and the
// ones extensions registered (a pushed value, or a handler run in the worker with Lumiverse's 5 s budget).
import type { ChatMessage, ChatSession } from '../../../../shared/types/chat';
import type { InlineTool } from '../council-port';
import { MACRO_LIMITS, MacroResolver, type MacroDefinition, type MacroLimits } from './macros';
import { macroInterceptorChain, type MacroPhase } from './macro-interceptors';
import { envAccess, envMessages, macroEnv, type EnvMessage, type MacroEnvSources } from './macro-env';
import type { ExtensionPermission } from '../../../../shared/types/spindle';
import type { LoopMessage } from './macro-walk';
import type { ExtensionMacroRef, ExtensionPipeline, PipelineHandlerRef } from '../../extensions/pipeline/pipeline-bridge';
import { CHAT_TEXT_PERMISSION } from '../../../../shared/spindle/event-access';
import { builtinMacros, sessionVariables, type MacroVariables, type PatternTest } from './builtin-macros';

/** Lumiverse's per-macro budget for a pull-model handler. */
export const MACRO_HANDLER_TIMEOUT_MS = 5_000;
/** A macro value is cut to this many characters. */
const MAX_VALUE_CHARS = 64 * 1024;

export interface MacroSources {
  session: ChatSession;
  history: ChatMessage[];
  /** The council's block for this turn ('' when none ran). */
  deliberation: string;
  /** Every member's tools, with the member's name ({{lumiaCouncilToolsList}}). */
  councilTools: InlineTool[];
  extensions: ExtensionMacroRef[];
  /** false for a dry run: handlers see ctx.commit = false. */
  commit: boolean;
  signal: AbortSignal;
  /** The turn's macro variables (absent: the session's, for this resolve alone). */
  variables?: MacroVariables;
  /** Extensions' macro interceptors, in priority order (absent: none). */
  interceptors?: PipelineHandlerRef[];
  /** Which of them may read chat text (chat_mutation): only those get the chat's messages (absent: none). */
  readsChat?: (extensionId: string) => boolean;
  /** Whether an extension holds a permission: a macro's env gives the card's and persona's fields as the API would (absent: none). */
  mayRead?: (extensionId: string, permission: ExtensionPermission) => boolean;
  /** Runs {{matches}}'s patterns where they cannot hold the host (absent: {{matches}} stays as written). */
  patterns?: PatternTest;
  /** Where the resolve is for (interceptors are told): a turn's prompt, the display, a reply, or elsewhere. */
  phase?: MacroPhase;
  /** The character the chat is to extensions: its line's origin (util/branch-root.ts); absent: the session. */
  characterId?: string;
  /** The turn's model and generation type, for the env's `system` (absent: a resolve outside a turn). */
  turn?: { model: string; generationType: string };
}

/** The extensions' part of a resolve's sources, as the pipeline has them now: their macros, their interceptors, and which may read chat text. */
export function extensionMacroSources(pipeline: ExtensionPipeline | undefined): Required<Pick<MacroSources, 'extensions' | 'interceptors' | 'readsChat' | 'mayRead'>> {
  return {
    extensions: pipeline?.macros() ?? [],
    interceptors: pipeline?.handlers('macro_interceptor') ?? [],
    readsChat: chatReaders(pipeline),
    mayRead: (extensionId, permission) => pipeline?.allowed(extensionId, permission) === true,
  };
}

/** Which running extensions may read chat text (chat_mutation) now. */
export function chatReaders(pipeline: ExtensionPipeline | undefined): (extensionId: string) => boolean {
  return (extensionId) => pipeline?.allowed(extensionId, CHAT_TEXT_PERMISSION) === true;
}

/** A resolver over the sources' macros, with the extensions' macro interceptors before each text is expanded. */
export function macroResolver(sources: MacroSources, options: { limits?: MacroLimits; now?: () => number } = {}): MacroResolver {
  const variables = sources.variables ?? sessionVariables(sources.session);
  const limits = options.limits ?? MACRO_LIMITS;
  const chatMessages = chatMessagesOf(sources);
  const intercept = macroInterceptorChain({ ...envSources(sources, variables, chatMessages), interceptors: sources.interceptors ?? [], readsChat: sources.readsChat ?? (() => false), mayRead: sources.mayRead ?? (() => false), phase: sources.phase ?? 'other', signal: sources.signal, maxChars: limits.maxChars });
  // A loop's messages, made once for the resolver and only if a loop asks (a long chat is 10,000 of them).
  let loopMessages: LoopMessage[] | undefined;
  const messages = () => (loopMessages ??= sources.history.map((m) => ({ content: m.content, name: m.role === 'user' ? sources.session.persona.name : sources.session.character.name, isUser: m.role === 'user' })));
  return new MacroResolver(macroDefinitions({ ...sources, variables }, chatMessages), limits, options.now, { ...(intercept ? { intercept } : {}), variables, messages });
}

/** The env's chat messages for these sources, made once when first asked (a long chat is 10,000 of them). */
function chatMessagesOf(sources: MacroSources): () => EnvMessage[] {
  let made: EnvMessage[] | undefined;
  return () => (made ??= envMessages(sources.history, { char: sources.session.character.name, user: sources.session.persona.name }));
}

/** What a macro's env is made of, for these sources. */
const envSources = (sources: MacroSources, variables: MacroVariables, chatMessages: () => EnvMessage[]): MacroEnvSources => ({
  session: sources.session,
  history: sources.history,
  variables,
  commit: sources.commit,
  chatMessages,
  ...(sources.characterId ? { characterId: sources.characterId } : {}),
  ...(sources.turn ? { turn: sources.turn } : {}),
});

function builtin(name: string, description: string, value: string): MacroDefinition {
  return { name, owner: 'built-in', description, value, resolve: () => value };
}

function toolsList(bindings: InlineTool[]): string {
  if (bindings.length === 0) return '';
  const byTool = new Map<string, string[]>();
  for (const b of bindings) byTool.set(b.qualifiedName, [...(byTool.get(b.qualifiedName) ?? []), b.memberName]);
  return ['**Available Tools:**', ...[...byTool].map(([tool, members]) => `- **${tool}** — assigned to: ${members.join(', ')}`)].join('\n');
}

/** `chatMessages`: the env's messages, made once for a resolver (absent: made here when first asked). */
export function macroDefinitions(sources: MacroSources, chatMessages = chatMessagesOf(sources)): MacroDefinition[] {
  const { session, history } = sources;
  const { character, persona } = session;
  const last = history[history.length - 1]?.content ?? '';
  const variables = sources.variables ?? sessionVariables(session);
  const readsChat = sources.readsChat ?? (() => false);
  const defs: MacroDefinition[] = [
    builtin('char', "The character's name.", character.name),
    builtin('user', "The user's persona name.", persona.name),
    builtin('persona', "The user's persona description.", persona.description),
    builtin('description', "The character's description.", character.description),
    builtin('personality', "The character's personality.", character.personality),
    builtin('scenario', 'The scenario.', character.scenario),
    builtin('lastMessage', 'The last message of the chat.', last),
    builtin('lumiaCouncilDeliberation', "The council's deliberation for this turn (empty when no tools ran).", sources.deliberation),
    builtin('lumiaCouncilToolsActive', "'yes' when council tools produced output this turn, else 'no'.", sources.deliberation.trim() ? 'yes' : 'no'),
    builtin('lumiaCouncilToolsList', 'The council tools with the members they are assigned to.', toolsList(sources.councilTools)),
    // Lumiverse's registry keeps its built-ins: an extension's macro of the same name does not replace one.
    ...builtinMacros({ session, history, variables, ...(sources.patterns ? { patterns: sources.patterns } : {}) }),
  ];
  for (const ref of sources.extensions) {
    const call = ref.call;
    defs.push({
      name: ref.name,
      owner: ref.extensionName,
      description: ref.description,
      ...(ref.value !== undefined ? { value: ref.value } : {}),
      async resolve(args) {
        if (ref.value !== undefined) return ref.value;
        if (!call) throw new Error('it has no pushed value and no handler');
        // The turn's variables as they stand when the macro is expanded (SummaryPlus reads its state from env.variables.chat).
        const context = { name: ref.name, args, commit: sources.commit, env: macroEnv(envSources(sources, variables, chatMessages), envAccess(ref.extensionId, readsChat, sources.mayRead ?? (() => false))) };
        const result = await call(context, MACRO_HANDLER_TIMEOUT_MS, sources.signal);
        if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
        const value = result.value;
        const text = value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
        return text.slice(0, MAX_VALUE_CHARS);
      },
    });
  }
  return defs;
}
