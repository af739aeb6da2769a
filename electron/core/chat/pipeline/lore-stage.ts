// Lumiverse's world info interceptors (spindle.registerWorldInfoInterceptor, permission generation), run just before
// the turn's world info is scanned, in priority order under each one's deadline: a handler sees the entries the chat
// reads (its own world info and its books, in Lumiverse's entry shape, each with its book) with the newest messages,
// and votes to disable, enable, force (always fire) or rewrite entries. Votes add up along the chain as in Lumiverse's
// rebuildWorking: a disable by any handler wins; enable only turns on a stored-off entry; force sets `constant` on
// one not disabled. Activation captures and overrides have nothing to act on here and are noted. One that fails or
// answers something else is skipped with a note; the turn goes on. The messages' text goes only to a handler whose
// extension may read the chat (chat_mutation), as in events.
import type { ChatMessage, ChatSession, WorldInfoEntry } from '../../../../shared/types/chat';
import { CHAT_TEXT_PERMISSION } from '../../../../shared/spindle/event-access';
import type { ExtensionPipeline } from '../../extensions/pipeline/pipeline-bridge';
import { worldInfoEntryDto } from '../../extensions/spindle-host/lumiverse-dto';
import { handlerTimeout } from './extension-stages';
import type { TurnTrace } from './turn-trace';

/** A world book a session reads, with its entries (lore/book-library.ts's sources). */
export interface LoreBook {
  bookId: string;
  bookName?: string;
  source: string;
  entries: WorldInfoEntry[];
}
/** The book each entry of the turn's world books came from, by entry id. */
export type LoreBooks = ReadonlyMap<string, { bookId: string; bookName?: string; source: string }>;

/** The newest messages a handler is shown (Lumiverse scans a window of the chat, not all of it). */
const MESSAGES_SHOWN = 100;

type Answer = { disabled?: unknown; enabled?: unknown; forced?: unknown; mutated?: unknown; captured?: unknown; activationOverrides?: unknown };

const ids = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** The chain's votes so far, and the entries as they make them (Lumiverse's rebuildWorking). */
class Votes {
  readonly disabled = new Set<string>();
  readonly enabled = new Set<string>();
  readonly forced = new Set<string>();
  readonly rewrites = new Map<string, string>();

  /** Takes one handler's answer; what it changed, or null when it is not Lumiverse's shape. */
  take(answer: unknown): string | null {
    if (answer === null || answer === undefined) return 'no change';
    if (typeof answer !== 'object' || Array.isArray(answer)) return null;
    const a = answer as Answer;
    const [off, on, forced] = [ids(a.disabled), ids(a.enabled), ids(a.forced)];
    off.forEach((id) => this.disabled.add(id));
    on.forEach((id) => this.enabled.add(id));
    forced.forEach((id) => this.forced.add(id));
    let rewritten = 0;
    for (const m of Array.isArray(a.mutated) ? a.mutated : []) {
      const { id, content } = (m ?? {}) as { id?: unknown; content?: unknown };
      if (typeof id !== 'string' || typeof content !== 'string') continue;
      this.rewrites.set(id, content);
      rewritten++;
    }
    const said = [`${off.length} disabled`, `${on.length} enabled`, `${forced.length} forced`, `${rewritten} rewritten`].filter((part) => !part.startsWith('0 '));
    if (a.captured !== undefined || a.activationOverrides !== undefined) said.push('captures and activation overrides not applied here');
    return said.join(', ') || 'no change';
  }

  apply(entries: WorldInfoEntry[]): WorldInfoEntry[] {
    return entries.map((e) => {
      const off = this.disabled.has(e.id);
      const content = this.rewrites.get(e.id);
      const on = !off && this.enabled.has(e.id) && !e.enabled;
      const forced = !off && this.forced.has(e.id);
      if (!off && !on && !forced && content === undefined) return e;
      return { ...e, ...(off ? { enabled: false } : {}), ...(on ? { enabled: true } : {}), ...(forced ? { constant: true } : {}), ...(content !== undefined ? { content } : {}) };
    });
  }
}

export async function runWorldInfoInterceptors(
  pipeline: ExtensionPipeline | undefined,
  turn: { session: ChatSession; characterId: string; history: ChatMessage[]; books: LoreBooks },
  signal: AbortSignal,
  trace: TurnTrace,
): Promise<ChatSession> {
  const { session, history, books } = turn;
  const refs = pipeline?.handlers('world_info_interceptor') ?? [];
  if (refs.length === 0 || session.worldInfo.length === 0) return session;
  const shown = history.slice(-MESSAGES_SHOWN);
  const first = history.length - shown.length;
  const messagesFor = (withText: boolean) =>
    shown.map((m, i) => ({ id: m.id, role: m.role, content: withText ? m.content : '', is_user: m.role === 'user', is_greeting: first + i === 0 && m.role === 'assistant', swipe_id: m.swipeId ?? 0, index_in_chat: first + i }));
  const entryDto = (e: WorldInfoEntry) => {
    const book = books.get(e.id);
    return { ...worldInfoEntryDto(book?.bookId ?? session.id, e), book_source: book?.source ?? 'character' };
  };
  const votes = new Votes();
  let entries = session.worldInfo;
  for (const ref of refs) {
    if (signal.aborted) break;
    const step = trace.start('world info interceptors', ref.extensionName);
    const ctx = {
      chatId: session.id,
      characterId: turn.characterId,
      userId: 'local',
      entries: entries.map(entryDto),
      messages: messagesFor(pipeline!.allowed(ref.extensionId, CHAT_TEXT_PERMISSION)),
      chatTurn: history.filter((m) => m.role === 'user').length,
      chatMetadata: session.metadata ?? {},
      activationSettings: { globalScanDepth: null, maxRecursionPasses: 0 },
    };
    const result = await ref.call([ctx], handlerTimeout(ref), signal);
    const note = result.ok ? votes.take(result.value) : null;
    step.end(undefined, undefined, note ?? (result.ok ? 'skipped: it returned something other than { disabled, enabled, forced, mutated }.' : `skipped: ${result.error.code} — ${result.error.message}`));
    if (note) entries = votes.apply(session.worldInfo);
  }
  return entries === session.worldInfo ? session : { ...session, worldInfo: entries };
}

/** Marked vectorized: by an extension (Lumiverse's field), or in the file it came from. */
const vectorized = (e: WorldInfoEntry) => (e.lumiverse && Object.hasOwn(e.lumiverse, 'vectorized') ? e.lumiverse.vectorized === true : e.source?.entry.vectorized === true);

/**
 * What the turn says of entries an extension made vector-only (Lumiverse's `vectorized`, keywords cleared: its vector
 * retrieval finds them): the Workbench has no vector retrieval, so they never fire here; null when there are none.
 */
export function vectorOnlyNote(entries: readonly WorldInfoEntry[]): string | null {
  const count = entries.filter((e) => e.enabled && e.constant === false && e.keywords.length === 0 && e.content.trim() !== '' && vectorized(e)).length;
  if (count === 0) return null;
  return `${count} world info ${count === 1 ? 'entry is' : 'entries are'} vector-only (vectorized, no keywords): the Workbench does not retrieve by vector, so ${count === 1 ? 'it is' : 'they are'} not read.`;
}
