// One SillyTavern chat line as a session message, and back. What SillyTavern keeps per swipe (`send_date`,
// `gen_started`, `gen_finished`, `extra`, from `swipe_info` for the others) goes with each swipe: its time, its
// reasoning (from `extra`) and the rest in the swipe's `source`. What it keeps per line (`force_avatar`, `title`, a
// speaker's `name` other than the chat's…) is the message's `line`, which no swipe change moves. `is_system` is a
// hidden message. An export writes the line as it came, with what the Workbench changed.
import { SESSION_LIMITS, type ChatMessage, type ChatSwipe } from '../../../shared/types/chat';
import { isRecord } from '../lore/world-info-shapes';

type Fields = Record<string, unknown>;

/** What a chat's lines lost or changed on the way in, counted for the import's notes. */
export interface LineLosses {
  /** Swipes past SESSION_LIMITS.swipes (the shown one is always kept). */
  swipes: number;
  /** Lines or swipes whose other fields were over SESSION_LIMITS.source as JSON (those fields were left out). */
  sources: number;
  /** Reasoning past SESSION_LIMITS.messageContent, cut there. */
  reasoning: number;
  /** Lines whose `mes` was none of their swipes: it was added as the shown one. */
  unmatched: number;
}

export const noLosses = (): LineLosses => ({ swipes: 0, sources: 0, reasoning: 0, unmatched: 0 });

const without = (fields: Fields, keys: readonly string[]) => Object.fromEntries(Object.entries(fields).filter(([k]) => !keys.includes(k)));

/** A line's fields SillyTavern keeps per swipe (its swipe code copies exactly these from swipe_info). */
const PER_SWIPE = ['send_date', 'gen_started', 'gen_finished', 'extra'];
/** A line's fields a message has a place of its own for. */
const MESSAGE_FIELDS = ['is_user', 'is_system', 'mes', 'swipes', 'swipe_id', 'swipe_info'];

/** SillyTavern writes send_date as epoch ms or as a date string ("January 24, 2023 9:38pm"). */
export function stTime(value: unknown, fallback: number): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  const parsed = typeof value === 'string' ? Date.parse(value.replace(/(\d)(am|pm)$/i, '$1 $2')) : NaN;
  return Number.isFinite(parsed) ? parsed : fallback;
}

/** Kept when it fits, else counted as lost. */
function fitting(fields: Fields, losses: LineLosses): Fields | undefined {
  if (Object.keys(fields).length === 0) return undefined;
  if (JSON.stringify(fields).length <= SESSION_LIMITS.source) return fields;
  losses.sources += 1;
  return undefined;
}

/** One swipe's per-swipe fields (a swipe_info entry, or the line's own for the shown one) as a reply's. */
function reply(content: string, fields: Fields, fallbackTime: number, losses: LineLosses): ChatSwipe {
  const extra = isRecord(fields.extra) ? fields.extra : undefined;
  const out: ChatSwipe = { content: content.slice(0, SESSION_LIMITS.messageContent), createdAt: stTime(fields.send_date, fallbackTime) };
  const taken: string[] = [];
  if (typeof extra?.reasoning === 'string' && extra.reasoning) {
    if (extra.reasoning.length > SESSION_LIMITS.messageContent) losses.reasoning += 1;
    out.reasoning = extra.reasoning.slice(0, SESSION_LIMITS.messageContent);
    taken.push('reasoning');
  }
  if (typeof extra?.reasoning_duration === 'number' && Number.isFinite(extra.reasoning_duration) && extra.reasoning_duration >= 0) {
    out.reasoningMs = extra.reasoning_duration;
    taken.push('reasoning_duration');
  }
  // A number is the reply's time itself; a date string is kept to be written back as it was.
  const rest = without(fields, typeof fields.send_date === 'number' ? ['send_date', 'extra'] : ['extra']);
  if (extra) rest.extra = without(extra, taken);
  const source = fitting(rest, losses);
  return source ? { ...out, source } : out;
}

/** A line's texts when they are swipes as the Workbench keeps them (text, two or more); else null. */
function swipeTexts(m: Fields): string[] | null {
  return Array.isArray(m.swipes) && m.swipes.length >= 2 && m.swipes.every((t) => typeof t === 'string') ? [...(m.swipes as string[])] : null;
}

/** The swipes of an assistant line with two or more (the shown one's fields the line's own); past the cap, the shown one and the first are kept. */
function swipesOf(m: Fields, texts: string[], lineTime: number, losses: LineLosses): Pick<ChatMessage, 'swipes' | 'swipeId'> & { shown: ChatSwipe } {
  const info = Array.isArray(m.swipe_info) ? [...(m.swipe_info as unknown[])] : [];
  const mes = m.mes as string;
  let shownAt = typeof m.swipe_id === 'number' && Number.isInteger(m.swipe_id) && m.swipe_id >= 0 && m.swipe_id < texts.length ? m.swipe_id : texts.indexOf(mes);
  if (shownAt < 0) {
    // Its text is none of its swipes: kept as one more, the one shown, rather than over another.
    losses.unmatched += 1;
    texts.push(mes);
    shownAt = texts.length - 1;
  }
  const entry = (i: number): Fields => (isRecord(info[i]) ? (info[i] as Fields) : {});
  const shownFields = { ...entry(shownAt), ...Object.fromEntries(PER_SWIPE.filter((k) => k in m).map((k) => [k, m[k]])) };
  const shown = reply(mes, shownFields, lineTime, losses);
  const kept = texts.map((_, i) => i).filter((i) => i === shownAt || i < SESSION_LIMITS.swipes - (shownAt >= SESSION_LIMITS.swipes ? 1 : 0));
  losses.swipes += texts.length - kept.length;
  return { swipes: kept.map((i) => (i === shownAt ? shown : reply(texts[i]!, entry(i), lineTime, losses))), swipeId: kept.indexOf(shownAt), shown };
}

/** One line as a message (its shape checked by the caller); `speaker` is the chat's name for its role. */
export function messageFromSt(m: Fields & { mes: string }, speaker: string, now: number, losses: LineLosses, id: string): ChatMessage {
  const role = m.is_user === true ? 'user' : 'assistant';
  const lineTime = stTime(m.send_date, now);
  const texts = role === 'assistant' ? swipeTexts(m) : null;
  const swiped = texts ? swipesOf(m, texts, lineTime, losses) : null;
  const shown = swiped?.shown ?? reply(m.mes, Object.fromEntries(PER_SWIPE.filter((k) => k in m).map((k) => [k, m[k]])), lineTime, losses);
  // The line's own fields; its swipes kept as written when the Workbench does not keep them as swipes (one, a user's,
  // or not all text); a speaker other than the chat's kept by name.
  const line: Fields = without(m, [...PER_SWIPE, 'name', ...(texts ? MESSAGE_FIELDS : ['is_user', 'is_system', 'mes'])]);
  if (typeof m.name === 'string' && m.name !== speaker) line.name = m.name;
  const kept = fitting(line, losses);
  return {
    id,
    role,
    ...shown,
    ...(swiped ? { swipes: swiped.swipes, swipeId: swiped.swipeId } : {}),
    ...(m.is_system === true ? { hidden: true } : {}),
    ...(kept ? { line: kept } : {}),
  };
}

/** A reply's `extra` as SillyTavern keeps it: its own fields, with the reasoning back in place. */
function extraOf(r: ChatSwipe): Fields {
  const kept = r.source && isRecord(r.source.extra) ? r.source.extra : {};
  return { ...kept, ...(r.reasoning ? { reasoning: r.reasoning } : {}), ...(r.reasoningMs !== undefined ? { reasoning_duration: r.reasoningMs } : {}) };
}

/** A reply's per-swipe fields as a swipe_info entry: its own, its time (as written, when it was a date string), its extra. */
function perSwipe(r: ChatSwipe): Fields {
  const source = r.source ?? {};
  return { ...without(source, ['extra']), send_date: typeof source.send_date === 'string' ? source.send_date : r.createdAt, extra: extraOf(r) };
}

/** A message as a SillyTavern chat line; `speaker` is the chat's name for its role. */
export function stLineOf(m: ChatMessage, speaker: string): Fields {
  const own = perSwipe(m);
  const line: Fields = {
    ...(m.line ?? {}),
    name: typeof m.line?.name === 'string' ? m.line.name : speaker,
    is_user: m.role === 'user',
    is_system: m.hidden === true,
    // Of the shown swipe's fields, those SillyTavern keeps on the line too.
    ...Object.fromEntries(PER_SWIPE.filter((k) => own[k] !== undefined).map((k) => [k, own[k]])),
    mes: m.content,
  };
  // What extensions' processors added to the message is its extra too, as Lumiverse keeps it.
  if (m.extra) line.extra = { ...(isRecord(line.extra) ? line.extra : {}), ...m.extra };
  if (m.swipes && m.swipes.length > 1) {
    line.swipes = m.swipes.map((s) => s.content);
    line.swipe_id = m.swipeId ?? 0;
    line.swipe_info = m.swipes.map(perSwipe);
  } else if (Array.isArray(m.line?.swipes) && m.line.swipes.length === 1 && m.role === 'assistant') {
    // A line SillyTavern wrote with its one swipe: written so again, from the message as it is now.
    line.swipes = [m.content];
    line.swipe_id = 0;
    line.swipe_info = [own];
  }
  return line;
}
