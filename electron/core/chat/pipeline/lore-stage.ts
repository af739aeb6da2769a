// Lumiverse's world info interceptors (spindle.registerWorldInfoInterceptor, permission generation), run just before
// the turn's world info is scanned, in priority order under each one's deadline: a handler sees the entries the chat
// reads (its own world info and its books, in Lumiverse's entry shape) with the history, and may disable, enable,
// force (always fire) or rewrite entries; a later handler sees the earlier ones' changes. Activation captures and
// overrides (scan depth, recursion) have nothing to act on here and are noted. One that fails or answers something
// else is skipped with a note; the turn goes on.
import type { ChatMessage, ChatSession, WorldInfoEntry } from '../../../../shared/types/chat';
import type { ExtensionPipeline } from '../../extensions/pipeline/pipeline-bridge';
import { worldInfoEntryDto } from '../../extensions/spindle-host/lumiverse-dto';
import { handlerTimeout } from './extension-stages';
import type { TurnTrace } from './turn-trace';

/** The newest messages a handler is shown (Lumiverse scans a window of the chat, not all of it). */
const MESSAGES_SHOWN = 100;

type Changes = { disabled?: unknown; enabled?: unknown; forced?: unknown; mutated?: unknown; captured?: unknown; activationOverrides?: unknown };

const ids = (value: unknown): Set<string> => new Set(Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** The entries with a handler's changes applied, and what it changed (for the turn's trace); null when its answer is not Lumiverse's shape. */
function applied(entries: WorldInfoEntry[], answer: unknown): { entries: WorldInfoEntry[]; note: string } | null {
  if (answer === null || answer === undefined) return { entries, note: 'no change' };
  if (typeof answer !== 'object' || Array.isArray(answer)) return null;
  const changes = answer as Changes;
  const [off, on, forced] = [ids(changes.disabled), ids(changes.enabled), ids(changes.forced)];
  const rewrites = new Map<string, string>();
  for (const m of Array.isArray(changes.mutated) ? changes.mutated : []) {
    const { id, content } = (m ?? {}) as { id?: unknown; content?: unknown };
    if (typeof id === 'string' && typeof content === 'string') rewrites.set(id, content);
  }
  const next = entries.map((entry) => {
    let e = entry;
    if (on.has(e.id)) e = { ...e, enabled: true };
    if (off.has(e.id)) e = { ...e, enabled: false };
    if (forced.has(e.id)) e = { ...e, enabled: true, constant: true };
    const content = rewrites.get(e.id);
    return content === undefined ? e : { ...e, content };
  });
  const said = [`${off.size} disabled`, `${on.size} enabled`, `${forced.size} forced`, `${rewrites.size} rewritten`].filter((part) => !part.startsWith('0 '));
  if (changes.captured !== undefined || changes.activationOverrides !== undefined) said.push('captures and activation overrides not applied here');
  return { entries: next, note: said.join(', ') || 'no change' };
}

export async function runWorldInfoInterceptors(pipeline: ExtensionPipeline | undefined, session: ChatSession, history: ChatMessage[], signal: AbortSignal, trace: TurnTrace): Promise<ChatSession> {
  const refs = pipeline?.handlers('world_info_interceptor') ?? [];
  if (refs.length === 0 || session.worldInfo.length === 0) return session;
  const shown = history.slice(-MESSAGES_SHOWN);
  const first = history.length - shown.length;
  const messages = shown.map((m, i) => ({ id: m.id, role: m.role, content: m.content, is_user: m.role === 'user', is_greeting: first + i === 0 && m.role === 'assistant', swipe_id: m.swipeId ?? 0, index_in_chat: first + i }));
  let entries = session.worldInfo;
  for (const ref of refs) {
    if (signal.aborted) break;
    const step = trace.start('world info interceptors', ref.extensionName);
    const ctx = {
      chatId: session.id,
      characterId: session.id,
      userId: 'local',
      entries: entries.map((e) => worldInfoEntryDto(session.id, e)),
      messages,
      chatTurn: history.filter((m) => m.role === 'user').length,
      chatMetadata: session.metadata ?? {},
      activationSettings: { globalScanDepth: null, maxRecursionPasses: 0 },
    };
    const result = await ref.call([ctx], handlerTimeout(ref), signal);
    const next = result.ok ? applied(entries, result.value) : null;
    if (!next) {
      step.end(undefined, undefined, result.ok ? 'skipped: it returned something other than { disabled, enabled, forced, mutated }.' : `skipped: ${result.error.code} — ${result.error.message}`);
      continue;
    }
    step.end(undefined, undefined, next.note);
    entries = next.entries;
  }
  return entries === session.worldInfo ? session : { ...session, worldInfo: entries };
}
