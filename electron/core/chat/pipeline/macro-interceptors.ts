// Lumiverse's macro interceptors (spindle.registerMacroInterceptor, permission macro_interceptor): before a text's
// macros are expanded, each interceptor in priority order gets the template with a snapshot of the macro environment
// and may hand back another template (a string, or `{ text }`), as Lumiverse's MacroEvaluator runs them
// (src/spindle/macro-interceptor.ts). Script engines (LumiScript, Risu compatibility layers) expand their own syntax
// this way. Only a text that holds a macro (`{{`) is offered: a long chat's plain messages cost no call. The chat's
// own messages (and regex captures from them) go only to extensions that may read chat text (chat_mutation), as
// every other way chat text reaches an extension here.
import type { PipelineHandlerRef } from '../../extensions/pipeline/pipeline-bridge';
import { UnderWay } from '../../extensions/per-extension-limits';
import { envAccess, macroEnv, type MacroEnvSources } from './macro-env';
import type { ExtensionPermission } from '../../../../shared/types/spindle';
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

export interface InterceptorSources extends MacroEnvSources {
  interceptors: PipelineHandlerRef[];
  /** Whether an extension may read chat text (chat_mutation): only those get the chat's messages. */
  readsChat: (extensionId: string) => boolean;
  /** Whether an extension holds a permission (its env's record fields follow the API's). */
  mayRead: (extensionId: string, permission: ExtensionPermission) => boolean;
  phase: MacroPhase;
  signal: AbortSignal;
  /** The longest template an interceptor may hand back (the resolver's own limit). */
  maxChars: number;
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
      const ctx = { template: current, env: macroEnv(s, envAccess(ref.extensionId, s.readsChat, s.mayRead)), commit: s.commit, phase: s.phase, ...(origin.hint ? { sourceHint: origin.hint } : {}), userId: 'local' };
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
