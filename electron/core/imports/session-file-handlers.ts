// Contract handlers for a session's files in other apps' formats: character cards, lorebooks and SillyTavern chats
// imported into sessions (by path from the command line, or as bytes from the window), and sessions exported as them.
import fs from 'node:fs';
import type { Handlers } from '../../../shared/contract';
import type { SessionFileMethod } from '../../../shared/contract/chat';
import { HostFailure } from '../../../shared/errors';
import type { ChatSession } from '../../../shared/types/chat';
import type { SessionStore } from '../chat/session-store';
import type { RegexStore } from '../regex/regex-store';
import { fromBase64 } from '../util/base64';
import { toCard, toCardPng } from './card-export';
import { CARD_LIMITS } from './character-card';
import { addLorebook, importSessionFile, previewImport, type ImportSummary } from './session-import';
import { toStChat } from './st-chat';
import { toLorebookFile } from './world-info-export';

export function sessionFileHandlers(sessions: SessionStore, regex: Pick<RegexStore, 'create' | 'forgetScope'>, emitSessions: (sessionId: string, change: 'created' | 'updated') => void): Pick<Handlers, SessionFileMethod> {
  const created = ({ session, summary }: { session: ChatSession; summary: ImportSummary }) => {
    emitSessions(session.id, 'created');
    return { id: session.id, ...summary };
  };
  return {
    'chat.sessions.importFile': async ({ path: file, greeting, lorebooks }, ctx) => {
      // A path is read on the host's disk: only the command line (the same user, the same machine) may name one.
      if (ctx.origin !== 'cli' && ctx.origin !== 'test') throw new HostFailure({ code: 'PERMISSION_DENIED', message: 'Only the command line imports a card by path.', path: '/path' });
      const books = (lorebooks ?? []).map((book, i) => readImportFile(book, `/lorebooks/${i}`));
      return created(await importSessionFile(sessions, readImportFile(file, '/path'), { ...(greeting !== undefined ? { greeting } : {}), lorebooks: books, now: Date.now(), regex }));
    },
    'chat.sessions.inspectData': ({ data, lorebooks }) => previewImport(fromBase64(data, '/data'), (lorebooks ?? []).map((b, i) => fromBase64(b, `/lorebooks/${i}`))),
    'chat.sessions.importData': async ({ data, greeting, lorebooks }) => {
      const books = (lorebooks ?? []).map((b, i) => fromBase64(b, `/lorebooks/${i}`));
      return created(await importSessionFile(sessions, fromBase64(data, '/data'), { ...(greeting !== undefined ? { greeting } : {}), lorebooks: books, now: Date.now(), regex }));
    },
    // Both work on the whole session: a long one is read in the background first (the host's thread stays free).
    'chat.sessions.addLorebook': async ({ sessionId, content }) => {
      await sessions.preload(sessionId);
      const { session, added, duplicates, ignored } = addLorebook(sessions, sessionId, Buffer.from(content, 'utf8'));
      emitSessions(sessionId, 'updated');
      return { added, duplicates, worldInfoEntries: session.worldInfo.length, ignored };
    },
    'chat.sessions.exportAs': async ({ sessionId, format }) => {
      await sessions.preload(sessionId);
      const session = sessions.get(sessionId);
      const base = (session.character.name || session.title).replace(/[^A-Za-z0-9 _-]+/g, '').trim().replace(/\s+/g, '-') || 'session';
      if (format === 'workbench') {
        const { fileName, json } = sessions.export(sessionId);
        return { fileName, content: json, encoding: 'utf8' as const };
      }
      if (format === 'st-chat') return { fileName: `${base}.jsonl`, content: toStChat(session), encoding: 'utf8' as const };
      if (format === 'st-lorebook') return { fileName: `${base}.lorebook.json`, content: JSON.stringify(toLorebookFile(session), null, 2), encoding: 'utf8' as const };
      const version = format.startsWith('card-v2') ? 'v2' : 'v3';
      if (format.endsWith('-png')) return { fileName: `${base}.card-${version}.png`, content: toCardPng(session, version, await sessions.avatar(sessionId)).toString('base64'), encoding: 'base64' as const };
      return { fileName: `${base}.card-${version}.json`, content: JSON.stringify(toCard(session, version), null, 2), encoding: 'utf8' as const };
    },
  };
}

/** An import file's bytes, refused before reading when it is larger than a card or lorebook can be. */
function readImportFile(file: string, where: string): Buffer {
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch (err) {
    throw new HostFailure({ code: 'NOT_FOUND', message: `Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}.`, path: where });
  }
  if (size > CARD_LIMITS.maxFileBytes) throw new HostFailure({ code: 'INPUT_TOO_LARGE', message: `The file is ${size} bytes; imports are read up to ${CARD_LIMITS.maxFileBytes}.`, path: where });
  return fs.readFileSync(file);
}
