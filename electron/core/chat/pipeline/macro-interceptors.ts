// Lumiverse's macro interceptors (spindle.registerMacroInterceptor, permission macro_interceptor): before a text's
// macros are expanded, each interceptor in priority order gets the template with a snapshot of the macro environment
// and may hand back another template (a string, or `{ text }`), as Lumiverse's MacroEvaluator runs them
// (src/spindle/macro-interceptor.ts). Script engines (LumiScript, Risu compatibility layers) expand their own syntax
// this way. Only a text that holds a macro (`{{`) is offered: a long chat's plain messages cost no call. The chat's
// own messages (and regex captures from them) go only to extensions that may read chat text (chat_mutation), as
// every other way chat text reaches an extension here.
import type { PipelineHandlerRef } from '../../extensions/pipeline/pipeline-bridge';
import { UnderWay } from '../../extensions/per-extension-limits';
import type { MacroVariables } from './builtin-macros';
import type { MacroIntercept } from './macros';

/** Lumiverse's budget for one macro interceptor call (worker-host.ts, handleRegisterMacroInterceptor). */
const INTERCEPTOR_TIMEOUT_MS = 10_000;
/** Where the evaluation came from (Lumiverse's MacroInterceptorPhase). */
export type MacroPhase = 'prompt' | 'display' | 'response' | 'other';

/** Interceptor calls running now, by extension. */
const inFlight = new UnderWay(Number.POSITIVE_INFINITY);

/**
 * The interceptors a resolve an extension asked for (spindle.macros.resolve) may run: not those of an extension whose
 * interceptor is running now — it may be the one asking, and would be asked again without end.
 */
export function idleInterceptors(refs: readonly PipelineHandlerRef[]): PipelineHandlerRef[] {
  return refs.filter((ref) => !inFlight.busy(ref.extensionId));
}

/** A chat message as a macro's env carries it (Lumiverse's env.extra.messages). */
export interface EnvMessage {
  content: string;
  name: string;
  is_user: boolean;
}

/**
 * At most this many of the chat's latest messages, and this many characters of them, ride in one env: each call
 * carries them to the worker, in one frame (a chat of long messages must not make one no worker takes).
 */
export const ENV_MESSAGES_MAX = 1000;
export const ENV_MESSAGES_CHARS = 1_000_000;

export interface InterceptorSources {
  session: { id: string; character: { name: string; description: string; personality: string; scenario: string }; persona: { name: string }; card?: { data: Record<string, unknown> } };
  /** The character the chat is to extensions: its line's origin (util/branch-root.ts); absent: the session. */
  characterId?: string;
  /** The chat's latest messages for env.extra.messages, made once when first asked (absent: none). */
  chatMessages?: () => EnvMessage[];
  interceptors: PipelineHandlerRef[];
  /** Whether an extension may read chat text (chat_mutation): only those get the chat's messages. */
  readsChat: (extensionId: string) => boolean;
  variables: MacroVariables;
  commit: boolean;
  phase: MacroPhase;
  signal: AbortSignal;
  /** The longest template an interceptor may hand back (the resolver's own limit). */
  maxChars: number;
}

/**
 * Lumiverse's macro env (MacroInterceptorEnvDTO, and the env a macro's handler is given): a structured copy, so
 * nothing an extension does to it reaches the turn. The chat is named, not read: its messages (extra.messages) go
 * only to an extension that may read chat text (`readsChat`, chat_mutation).
 */
export function macroEnv(s: Pick<InterceptorSources, 'session' | 'variables' | 'commit' | 'characterId' | 'chatMessages'>, readsChat = false) {
  const { character, persona } = s.session;
  const card = s.session.card?.data;
  const greetings = Array.isArray(card?.alternate_greetings) ? card.alternate_greetings.filter((g): g is string => typeof g === 'string') : [];
  return {
    commit: s.commit,
    names: { char: character.name, user: persona.name },
    character: { ...character, firstMessage: typeof card?.first_mes === 'string' ? card.first_mes : '', alternateGreetings: greetings },
    chat: { id: s.session.id, greetingIndex: 0 },
    system: {},
    variables: { local: Object.fromEntries(s.variables.local), global: Object.fromEntries(s.variables.global), chat: Object.fromEntries(s.variables.chat) },
    dynamicMacros: {},
    // What Lumiverse's env.extra says of the person and the chat (Waypoints keys its settings by extra.userId).
    extra: {
      userId: 'local',
      characterId: s.characterId ?? s.session.id,
      characterTags: [],
      userInput: '',
      ...(readsChat && s.chatMessages ? { messages: s.chatMessages() } : {}),
    },
  };
}

/** The env's messages from a chat's history: its latest, within ENV_MESSAGES_MAX and ENV_MESSAGES_CHARS, named as the turn names them. */
export function envMessages(history: readonly { role: string; content: string }[], names: { char: string; user: string }): EnvMessage[] {
  let first = history.length;
  for (let chars = 0; first > 0 && history.length - first < ENV_MESSAGES_MAX; first--) {
    chars += history[first - 1]!.content.length;
    if (chars > ENV_MESSAGES_CHARS) break;
  }
  return history.slice(first).map((m) => ({ content: m.content, name: m.role === 'user' ? names.user : names.char, is_user: m.role === 'user' }));
}

/** The chain for these sources, or undefined when no extension intercepts. */
export function macroInterceptorChain(s: InterceptorSources): MacroIntercept | undefined {
  if (s.interceptors.length === 0) return undefined;
  return async (template, origin, note) => {
    if (!template.includes('{{')) return template;
    let current = template;
    for (const ref of s.interceptors) {
      if (s.signal.aborted) break;
      if (origin.chatText && !s.readsChat(ref.extensionId)) continue;
      const ctx = { template: current, env: macroEnv(s, s.readsChat(ref.extensionId)), commit: s.commit, phase: s.phase, ...(origin.hint ? { sourceHint: origin.hint } : {}), userId: 'local' };
      inFlight.begin(ref.extensionId);
      const result = await ref.call([ctx], INTERCEPTOR_TIMEOUT_MS, s.signal).finally(() => inFlight.end(ref.extensionId));
      if (!result.ok) {
        note(ref.extensionName, `Its macro interceptor was skipped: ${result.error.code} — ${result.error.message}.`);
        continue;
      }
      const value = result.value as unknown;
      const text = typeof value === 'string' ? value : typeof value === 'object' && value !== null && typeof (value as { text?: unknown }).text === 'string' ? (value as { text: string }).text : null;
      if (text === null) {
        if (value !== null && value !== undefined) note(ref.extensionName, 'Its macro interceptor answered something other than a template or { text }; skipped.');
        continue;
      }
      if (text.length > s.maxChars) {
        note(ref.extensionName, `Its macro interceptor answered over ${s.maxChars} characters; skipped.`);
        continue;
      }
      current = text;
    }
    return current;
  };
}
