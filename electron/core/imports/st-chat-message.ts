// One SillyTavern chat line as a session message, and back: its text, its swipes (with each one's time and
// reasoning from `swipe_info`), `is_system` as hidden, the reasoning SillyTavern keeps in `extra`, and every other
// field kept in the message's `source` so an export writes the line as it came.
import { HostFailure } from '../../../shared/errors';
import { SESSION_LIMITS, type ChatMessage, type ChatSwipe } from '../../../shared/types/chat';

type Line = Record<string, unknown>;

/** What a chat's lines lost on the way in, counted for the import's notes. */
export interface LineLosses {
  /** Swipes past SESSION_LIMITS.swipes (the shown one is always kept). */
  swipes: number;
  /** Lines or swipes whose other fields were over SESSION_LIMITS.source as JSON. */
  sources: number;
}

const isRecord = (v: unknown): v is Line => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The line's fields a message has a place for; everything else is its source. */
const MAPPED = new Set(['name', 'is_user', 'is_system', 'send_date', 'mes', 'swipes', 'swipe_id', 'swipe_info']);

/** SillyTavern writes send_date as epoch ms or as a date string ("January 24, 2023 9:38pm"). */
export function stTime(value: unknown, fallback: number): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  const parsed = typeof value === 'string' ? Date.parse(value.replace(/(\d)(am|pm)$/i, '$1 $2')) : NaN;
  return Number.isFinite(parsed) ? parsed : fallback;
}

/** A line's (or a swipe_info entry's) reasoning and other fields as a reply's own. */
function replyExtras(fields: Line, skip: ReadonlySet<string>, losses: LineLosses): Pick<ChatSwipe, 'reasoning' | 'reasoningMs' | 'source'> {
  const extra = isRecord(fields.extra) ? fields.extra : {};
  const out: Pick<ChatSwipe, 'reasoning' | 'reasoningMs' | 'source'> = {};
  if (typeof extra.reasoning === 'string' && extra.reasoning) out.reasoning = extra.reasoning.slice(0, SESSION_LIMITS.messageContent);
  if (typeof extra.reasoning_duration === 'number' && Number.isFinite(extra.reasoning_duration) && extra.reasoning_duration >= 0) out.reasoningMs = extra.reasoning_duration;
  const source: Line = {};
  for (const [key, value] of Object.entries(fields)) if (!skip.has(key)) source[key] = value;
  if (isRecord(fields.extra) && !skip.has('extra')) {
    // What became the reply's own is not kept twice; an empty or odd value stays where it was.
    const taken = new Set([...(out.reasoning !== undefined ? ['reasoning'] : []), ...(out.reasoningMs !== undefined ? ['reasoning_duration'] : [])]);
    const rest = Object.fromEntries(Object.entries(fields.extra).filter(([key]) => !taken.has(key)));
    if (Object.keys(rest).length) source.extra = rest;
    else delete source.extra;
  }
  if (Object.keys(source).length) {
    if (JSON.stringify(source).length <= SESSION_LIMITS.source) out.source = source;
    else losses.sources += 1;
  }
  return out;
}

/** The swipes of an assistant line, the shown one's text being `mes`; absent when it has one or none. */
function swipesOf(m: Line, shown: ChatSwipe, losses: LineLosses): Pick<ChatMessage, 'swipes' | 'swipeId'> {
  const texts = Array.isArray(m.swipes) ? m.swipes : [];
  if (texts.length < 2 || texts.some((t) => typeof t !== 'string')) return {};
  const shownAt = typeof m.swipe_id === 'number' && Number.isInteger(m.swipe_id) && m.swipe_id >= 0 && m.swipe_id < texts.length ? m.swipe_id : 0;
  const info = Array.isArray(m.swipe_info) ? m.swipe_info : [];
  // Past the cap, the shown swipe and those nearest the start are kept.
  const kept = texts.map((_, i) => i).filter((i) => i === shownAt || i < SESSION_LIMITS.swipes - (shownAt >= SESSION_LIMITS.swipes ? 1 : 0));
  losses.swipes += texts.length - kept.length;
  const swipes = kept.map((i): ChatSwipe => {
    if (i === shownAt) return shown;
    const entry = isRecord(info[i]) ? info[i] : {};
    const content = (texts[i] as string).slice(0, SESSION_LIMITS.messageContent);
    return { content, createdAt: stTime(entry.send_date, shown.createdAt), ...replyExtras(entry, new Set(['send_date']), losses) };
  });
  return { swipes, swipeId: kept.indexOf(shownAt) };
}

/** One line as a message; `at` names it in errors ("Line 3"), `path` is its place for the error's field. */
export function messageFromSt(m: unknown, at: string, path: string, now: number, losses: LineLosses, newId: () => string): ChatMessage {
  if (!isRecord(m)) throw new HostFailure({ code: 'INVALID_INPUT', message: `${at} is not a JSON object.`, path });
  if (typeof m.mes !== 'string') throw new HostFailure({ code: 'INVALID_INPUT', message: `${at} has no "mes" text.`, path: `${path}/mes` });
  if (m.mes.length > SESSION_LIMITS.messageContent) throw new HostFailure({ code: 'INPUT_TOO_LARGE', message: `${at} is too long.`, path: `${path}/mes` });
  const role = m.is_user === true ? 'user' : 'assistant';
  const shown: ChatSwipe = { content: m.mes, createdAt: stTime(m.send_date, now), ...replyExtras(m, MAPPED, losses) };
  // Older files keep the shown swipe's reasoning only in its swipe_info.
  const shownInfo = Array.isArray(m.swipe_info) && typeof m.swipe_id === 'number' ? m.swipe_info[m.swipe_id] : undefined;
  if (!shown.reasoning && isRecord(shownInfo)) {
    const { reasoning, reasoningMs } = replyExtras(shownInfo, new Set(Object.keys(shownInfo)), { swipes: 0, sources: 0 });
    Object.assign(shown, reasoning ? { reasoning } : {}, reasoningMs !== undefined ? { reasoningMs } : {});
  }
  return {
    id: newId(),
    role,
    ...shown,
    ...(role === 'assistant' ? swipesOf(m, shown, losses) : {}),
    ...(m.is_system === true ? { hidden: true } : {}),
  };
}

/** The reasoning back where SillyTavern keeps it, over the rest of the reply's `extra` as it came. */
function extraOf(reply: ChatSwipe): Line {
  const kept = reply.source && isRecord(reply.source.extra) ? reply.source.extra : {};
  return { ...kept, ...(reply.reasoning ? { reasoning: reply.reasoning } : {}), ...(reply.reasoningMs !== undefined ? { reasoning_duration: reply.reasoningMs } : {}) };
}

/** A message as a SillyTavern chat line. */
export function stLineOf(m: ChatMessage, names: { user: string; character: string }): Line {
  const line: Line = {
    ...(m.source ?? {}),
    name: m.role === 'user' ? names.user : names.character,
    is_user: m.role === 'user',
    is_system: m.hidden === true,
    send_date: m.createdAt,
    mes: m.content,
    extra: extraOf(m),
  };
  if (m.swipes && m.swipes.length > 1) {
    line.swipes = m.swipes.map((s) => s.content);
    line.swipe_id = m.swipeId ?? 0;
    // The shown swipe's source is the line's own: of it, its entry takes what SillyTavern writes there.
    const shownAt = m.swipeId ?? 0;
    const entrySource = (s: ChatSwipe, i: number) => (i === shownAt ? Object.fromEntries(Object.entries(s.source ?? {}).filter(([k]) => k === 'gen_started' || k === 'gen_finished')) : (s.source ?? {}));
    line.swipe_info = m.swipes.map((s, i) => ({ ...entrySource(s, i), send_date: s.createdAt, extra: extraOf(s) }));
  }
  return line;
}
