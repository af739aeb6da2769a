// Files people bring, as a new Workbench session: a character card (PNG or V1/V2/V3 JSON), a SillyTavern chat
// (.jsonl) or an exported Workbench session, with SillyTavern lorebooks joining its world info. One home for every
// door (the CLI reads a path, the window sends the bytes): everything is read and checked before anything is created.
import { HostFailure } from '../../../shared/errors';
import { SESSION_FORMAT, SESSION_LIMITS, type ChatSession, type WorldInfoEntry } from '../../../shared/types/chat';
import type { RegexScriptInput } from '../../../shared/types/regex-script';
import { mergeWorldInfo } from './world-info-merge';
import type { SessionStore } from '../chat/session-store';
import { sessionFromCard } from './card-session';
import { PERSON, type RegexStore } from '../regex/regex-store';
import { cardRegexScripts } from './card-regex';
import { CARD_LIMITS, parseCardFile, type ParsedCard } from './character-card';
import { parseLorebook, type ParsedLorebook } from './lorebook';
import { withPngTextChunks } from './png-text';
import { isChatArray, isStChat, parseChatArray, parseStChat, type ParsedStChat } from './st-chat';

/** A card's picture is kept up to this size; a larger one is left out (the import still succeeds and says so). */
export const AVATAR_MAX_BYTES = 8 * 1024 * 1024;
/** Greetings shown for choosing are cut to this many characters each. */
const PREVIEW_GREETING_CHARS = 2000;

export type ImportKind = 'card' | 'st-chat' | 'session';

export interface ImportSummary {
  kind: ImportKind;
  characterName: string;
  greetings: number;
  worldInfoEntries: number;
  messages: number;
  /** World-info fields kept but not acted on here (position, depth, probability…). */
  ignored: string[];
  /** The card's picture comes with it. */
  avatar: boolean;
  /** Lorebook entries that repeat ones already there (a card's own book imported beside it): kept once. */
  duplicateEntries: number;
  /** The card's regex scripts that became rules of the session (card-regex.ts). */
  regexScripts: number;
  /** The card's scripts left out, each with why (the card keeps them as written). */
  regexSkipped: string[];
  /** What of a chat did not come in (swipes past the cap, fields too large), each said once. */
  notes: string[];
}

type ParsedImport =
  | { kind: 'card'; card: ParsedCard; picture: Buffer | null }
  | { kind: 'st-chat'; chat: ParsedStChat }
  | { kind: 'session'; session: { character?: { name?: unknown }; worldInfo?: unknown[]; messages?: unknown[] } };

function parseImport(bytes: Buffer, now: number): ParsedImport {
  if (bytes.length > CARD_LIMITS.maxFileBytes) {
    throw new HostFailure({ code: 'INPUT_TOO_LARGE', message: `The file is ${bytes.length} bytes; imports are read up to ${CARD_LIMITS.maxFileBytes}.`, path: '/file' });
  }
  if (bytes[0] === 0x89) {
    const card = parseCardFile(bytes);
    const picture = withPngTextChunks(bytes, {}, ['chara', 'ccv3']);
    return { kind: 'card', card, picture: picture.length <= AVATAR_MAX_BYTES ? picture : null };
  }
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (isStChat(text)) return { kind: 'st-chat', chat: parseStChat(text, now) };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new HostFailure({ code: 'INVALID_INPUT', message: `The file is not a PNG card, a SillyTavern chat or JSON (${(err as Error).message}).`, path: '/file' });
  }
  if (typeof doc === 'object' && doc !== null && (doc as { format?: unknown }).format === SESSION_FORMAT) return { kind: 'session', session: doc as never };
  if (isChatArray(doc)) return { kind: 'st-chat', chat: parseChatArray(doc, now) };
  return { kind: 'card', card: parseCardFile(bytes), picture: null };
}

function parseLorebooks(books: readonly Buffer[]): ParsedLorebook[] {
  return books.map((bytes, i) => {
    let doc: unknown;
    try {
      doc = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
    } catch (err) {
      throw new HostFailure({ code: 'INVALID_INPUT', message: `The lorebook is not JSON (${(err as Error).message}).`, path: `/lorebooks/${i}` });
    }
    return parseLorebook(doc, `/lorebooks/${i}`);
  });
}

const NO_REGEX = { regexScripts: 0, regexSkipped: [] as string[], notes: [] as string[] };

const ignoredOf = (card: ParsedCard | null, books: readonly ParsedLorebook[]) => [...new Set([...(card?.book?.ignored ?? []), ...books.flatMap((b) => b.ignored)])].sort();

/** What importing the file would give, without creating anything: the window shows it to choose a greeting. */
export function previewImport(bytes: Buffer, lorebooks: readonly Buffer[] = []): ImportSummary & { greetingTexts: string[] } {
  const parsed = parseImport(bytes, Date.now());
  const books = parseLorebooks(lorebooks);
  const merged = (existing: readonly WorldInfoEntry[]) => mergeWorldInfo(existing, ...books.map((b) => b.entries));
  if (parsed.kind === 'card') {
    const { card } = parsed;
    const { entries, duplicates } = merged(card.book?.entries ?? []);
    const regex = cardRegexScripts(card.data.extensions);
    return {
      kind: 'card',
      characterName: card.name,
      greetings: card.greetings.length,
      greetingTexts: card.greetings.slice(0, 100).map((g) => g.slice(0, PREVIEW_GREETING_CHARS)),
      worldInfoEntries: entries.length,
      messages: card.greetings.length ? 1 : 0,
      ignored: ignoredOf(card, books),
      avatar: parsed.picture !== null,
      duplicateEntries: duplicates,
      regexScripts: regex.scripts.length,
      regexSkipped: regex.skipped,
      notes: [],
    };
  }
  if (parsed.kind === 'st-chat') {
    const { chat } = parsed;
    const { entries, duplicates } = merged([]);
    return { kind: 'st-chat', characterName: chat.characterName, greetings: 0, greetingTexts: [], worldInfoEntries: entries.length, messages: chat.messages.length, ignored: ignoredOf(null, books), avatar: false, duplicateEntries: duplicates, ...NO_REGEX, notes: chat.notes };
  }
  const { session } = parsed;
  const { entries, duplicates } = merged(Array.isArray(session.worldInfo) ? (session.worldInfo as WorldInfoEntry[]) : []);
  return {
    kind: 'session',
    characterName: typeof session.character?.name === 'string' ? session.character.name : '',
    greetings: 0,
    greetingTexts: [],
    worldInfoEntries: entries.length,
    messages: session.messages?.length ?? 0,
    ignored: ignoredOf(null, books),
    avatar: false,
    duplicateEntries: duplicates,
    ...NO_REGEX,
  };
}

/** Creates the session (a long chat is written in steps); a bad file, a bad lorebook or a greeting out of range creates nothing. */
export async function importSessionFile(
  sessions: SessionStore,
  bytes: Buffer,
  options: { greeting?: number; lorebooks?: readonly Buffer[]; now: number; regex: Pick<RegexStore, 'create' | 'forgetScope'> },
): Promise<{ session: ChatSession; summary: ImportSummary }> {
  const parsed = parseImport(bytes, options.now);
  const books = parseLorebooks(options.lorebooks ?? []);
  const bookSources = books.map((b) => b.entries);
  const summarize = (session: ChatSession, rest: Pick<ImportSummary, 'kind' | 'greetings' | 'ignored' | 'avatar' | 'duplicateEntries'> & Partial<ImportSummary>) => ({
    session,
    summary: { ...NO_REGEX, ...rest, characterName: session.character.name, worldInfoEntries: session.worldInfo.length, messages: session.messages.length },
  });
  if (parsed.kind === 'card') {
    const { card, picture } = parsed;
    const regex = cardRegexScripts(card.data.extensions);
    const { session, greetings, duplicates } = sessionFromCard(sessions, card, { ...(options.greeting !== undefined ? { greeting: options.greeting } : {}), now: options.now, lorebooks: books });
    const withPicture = picture ? await sessions.setAvatar(session.id, picture) : session;
    let rules: { created: number; skipped: string[] };
    try {
      rules = addCardRules(options.regex, session.id, regex.scripts);
    } catch (err) {
      // Not a refusal but a failure (the database): nothing of the import stays, as for a bad file.
      sessions.delete(session.id);
      options.regex.forgetScope(session.id);
      throw err;
    }
    return summarize(withPicture, { kind: 'card', greetings, ignored: ignoredOf(card, books), avatar: picture !== null, duplicateEntries: duplicates, regexScripts: rules.created, regexSkipped: [...regex.skipped, ...rules.skipped] });
  }
  const tooMany = (count: number) => {
    if (count > SESSION_LIMITS.worldInfoEntries) {
      throw new HostFailure({ code: 'INPUT_TOO_LARGE', message: `The lorebooks hold ${count} world-info entries; a session keeps at most ${SESSION_LIMITS.worldInfoEntries}.`, path: '/lorebooks' });
    }
  };
  if (parsed.kind === 'st-chat') {
    const { chat } = parsed;
    const { entries, duplicates } = mergeWorldInfo([], ...bookSources);
    tooMany(entries.length);
    const session = await sessions.add({
      title: chat.characterName,
      titleSet: true,
      character: { name: chat.characterName, description: '', personality: '', scenario: '' },
      persona: { name: chat.userName, description: '' },
      worldInfo: entries,
      messages: chat.messages,
      ...(chat.metadata ? { metadata: chat.metadata } : {}),
      ...(books[0] ? { worldInfoBook: books[0].top } : {}),
    });
    return summarize(session, { kind: 'st-chat', greetings: 0, ignored: ignoredOf(null, books), avatar: false, duplicateEntries: duplicates, notes: chat.notes });
  }
  tooMany((parsed.session.worldInfo?.length ?? 0) + books.reduce((n, b) => n + b.entries.length, 0));
  const imported = await sessions.importDocument(parsed.session);
  const { entries, duplicates } = mergeWorldInfo(imported.worldInfo, ...bookSources);
  const session = books.length ? sessions.mutate(imported.id, (x) => ({ ...x, worldInfo: entries, worldInfoBook: { ...books[0]!.top, ...x.worldInfoBook } })) : imported;
  return summarize(session, { kind: 'session', greetings: 0, ignored: ignoredOf(null, books), avatar: false, duplicateEntries: duplicates });
}

/** The card's checked scripts as the person's rules of the session; one the store refuses (its quota) is left out, said so. */
function addCardRules(store: Pick<RegexStore, 'create'>, sessionId: string, scripts: readonly RegexScriptInput[]): { created: number; skipped: string[] } {
  const skipped: string[] = [];
  let created = 0;
  for (const script of scripts) {
    try {
      store.create({ ...script, scope_id: sessionId }, PERSON);
      created += 1;
    } catch (err) {
      if (!(err instanceof HostFailure)) throw err;
      skipped.push(`${script.name}: ${err.message}`);
    }
  }
  return { created, skipped };
}

/** SillyTavern world info added to an existing session's. */
export function addLorebook(sessions: SessionStore, sessionId: string, bytes: Buffer): { session: ChatSession; added: number; duplicates: number; ignored: string[] } {
  const [book] = parseLorebooks([bytes]);
  const current = sessions.get(sessionId);
  const { entries, duplicates } = mergeWorldInfo(current.worldInfo, book!.entries);
  if (entries.length > SESSION_LIMITS.worldInfoEntries) {
    throw new HostFailure({ code: 'INPUT_TOO_LARGE', message: `The session would hold ${entries.length} world-info entries; it keeps at most ${SESSION_LIMITS.worldInfoEntries}.`, path: '/lorebooks/0' });
  }
  const session = sessions.mutate(sessionId, (x) => ({ ...x, worldInfo: entries, worldInfoBook: { ...book!.top, ...x.worldInfoBook } }));
  return { session, added: entries.length - current.worldInfo.length, duplicates, ignored: book!.ignored };
}
