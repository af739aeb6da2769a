// Contract handlers for chat.*: sessions (create, edit, import, export) and turns.
import { listMacros } from './session-macros';
import type { Handlers } from '../../../shared/contract';
import fs from 'node:fs';
import { HostFailure } from '../../../shared/errors';
import type { ChatSession } from '../../../shared/types/chat';
import { CARD_LIMITS } from '../imports/character-card';
import { toCard, toCardPng } from '../imports/card-export';
import { toLorebookFile } from '../imports/world-info-export';
import { addLorebook, importSessionFile, previewImport, type ImportSummary } from '../imports/session-import';
import { toStChat } from '../imports/st-chat';
import { summaryOf } from './session-store';
import { searchSessions } from './session-search';
import { fromBase64 } from '../util/base64';
import type { LlmServices } from './llm-services';

type ChatHandlerNames = Extract<keyof Handlers, `chat.${string}`>;

export function chatHandlers(s: Pick<LlmServices, 'sessions' | 'chat' | 'messages'>, emitSessions: (sessionId: string, change: 'created' | 'updated' | 'deleted') => void): Pick<Handlers, ChatHandlerNames> {
  const { sessions, chat, messages } = s;
  const created = ({ session, summary }: { session: ChatSession; summary: ImportSummary }) => {
    emitSessions(session.id, 'created');
    return { id: session.id, ...summary };
  };
  return {
    'chat.sessions.list': () => sessions.list().map((x) => summaryOf(x, chat.isBusy(x.id))),
    'chat.sessions.get': ({ sessionId }) => sessions.get(sessionId),
    'chat.sessions.create': (init) => {
      const created = sessions.create(init);
      const session = init.title ? sessions.mutate(created.id, (x) => ({ ...x, titleSet: true })) : created;
      emitSessions(session.id, 'created');
      return session;
    },
    'chat.sessions.update': ({ sessionId, patch }) => {
      const session = sessions.mutate(sessionId, (x) => ({ ...x, ...patch, ...(patch.title ? { titleSet: true } : {}) }));
      emitSessions(sessionId, 'updated');
      return session;
    },
    'chat.sessions.rename': ({ sessionId, title }) => {
      const session = sessions.mutate(sessionId, (x) => ({ ...x, title, titleSet: true }));
      emitSessions(sessionId, 'updated');
      return summaryOf(session, chat.isBusy(sessionId));
    },
    'chat.sessions.delete': async ({ sessionId }) => {
      if (chat.stop(sessionId)) await chat.settled(sessionId);
      const deleted = sessions.delete(sessionId);
      if (deleted) emitSessions(sessionId, 'deleted');
      return { deleted };
    },
    'chat.sessions.export': ({ sessionId }) => sessions.export(sessionId),
    'chat.sessions.import': ({ json }) => {
      const session = sessions.import(json);
      emitSessions(session.id, 'created');
      return summaryOf(session, false);
    },
    'chat.sessions.importFile': ({ path: file, greeting, lorebooks }, ctx) => {
      // A path is read on the host's disk: only the command line (the same user, the same machine) may name one.
      if (ctx.origin !== 'cli' && ctx.origin !== 'test') throw new HostFailure({ code: 'PERMISSION_DENIED', message: 'Only the command line imports a card by path.', path: '/path' });
      const books = (lorebooks ?? []).map((book, i) => readImportFile(book, `/lorebooks/${i}`));
      return created(importSessionFile(sessions, readImportFile(file, '/path'), { ...(greeting !== undefined ? { greeting } : {}), lorebooks: books, now: Date.now() }));
    },
    'chat.sessions.inspectData': ({ data, lorebooks }) => previewImport(fromBase64(data, '/data'), (lorebooks ?? []).map((b, i) => fromBase64(b, `/lorebooks/${i}`))),
    'chat.sessions.importData': ({ data, greeting, lorebooks }) => {
      const books = (lorebooks ?? []).map((b, i) => fromBase64(b, `/lorebooks/${i}`));
      return created(importSessionFile(sessions, fromBase64(data, '/data'), { ...(greeting !== undefined ? { greeting } : {}), lorebooks: books, now: Date.now() }));
    },
    'chat.sessions.addLorebook': ({ sessionId, content }) => {
      const { session, added, duplicates, ignored } = addLorebook(sessions, sessionId, Buffer.from(content, 'utf8'));
      emitSessions(sessionId, 'updated');
      return { added, duplicates, worldInfoEntries: session.worldInfo.length, ignored };
    },
    'chat.sessions.avatar': ({ sessionId }) => {
      const png = sessions.avatar(sessionId);
      return { dataUrl: png ? `data:image/png;base64,${png.toString('base64')}` : null };
    },
    'chat.sessions.exportAs': ({ sessionId, format }) => {
      const session = sessions.get(sessionId);
      const base = (session.character.name || session.title).replace(/[^A-Za-z0-9 _-]+/g, '').trim().replace(/\s+/g, '-') || 'session';
      if (format === 'workbench') {
        const { fileName, json } = sessions.export(sessionId);
        return { fileName, content: json, encoding: 'utf8' as const };
      }
      if (format === 'st-chat') return { fileName: `${base}.jsonl`, content: toStChat(session), encoding: 'utf8' as const };
      if (format === 'st-lorebook') return { fileName: `${base}.lorebook.json`, content: JSON.stringify(toLorebookFile(session), null, 2), encoding: 'utf8' as const };
      const version = format.startsWith('card-v2') ? 'v2' : 'v3';
      if (format.endsWith('-png')) return { fileName: `${base}.card-${version}.png`, content: toCardPng(session, version, sessions.avatar(sessionId)).toString('base64'), encoding: 'base64' as const };
      return { fileName: `${base}.card-${version}.json`, content: JSON.stringify(toCard(session, version), null, 2), encoding: 'utf8' as const };
    },
    'chat.send': ({ sessionId, text, ...options }) => chat.send(sessionId, text, options),
    'chat.stop': ({ sessionId }) => ({ stopped: chat.stop(sessionId) }),
    'chat.regenerate': ({ sessionId, ...options }) => chat.regenerate(sessionId, options),
    'chat.continue': ({ sessionId, ...options }) => chat.continueReply(sessionId, options),
    'chat.messages.edit': ({ sessionId, messageId, content }) => messages.edit(sessionId, messageId, content),
    'chat.messages.delete': ({ sessionId, messageId }) => messages.delete(sessionId, messageId),
    'chat.messages.swipe': ({ sessionId, messageId, swipeId, direction }) => {
      if ((swipeId === undefined) === (direction === undefined)) throw new HostFailure({ code: 'INVALID_INPUT', message: 'Give either swipeId or direction.', path: swipeId === undefined ? '/direction' : '/swipeId' });
      return messages.swipe(sessionId, messageId, swipeId !== undefined ? { swipeId } : { direction: direction! });
    },
    'chat.sessions.branch': ({ sessionId, messageId }) => messages.branch(sessionId, messageId),
    'chat.sessions.search': ({ query, sessionId, limit }) => searchSessions(sessionId ? [sessions.get(sessionId)] : sessions.list(), query, limit ?? 100),
    'chat.macros': ({ sessionId }) => listMacros(chat.macroSources(sessionId)),
    'chat.sessions.open': ({ sessionId }) => chat.open(sessionId),
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
