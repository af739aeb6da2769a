// `sessions …`: list the Workbench's sessions; import a character card (PNG or JSON) or a SillyTavern chat as a new
// session; export one as Workbench JSON, a V2/V3 card or a SillyTavern chat.
import fs from 'node:fs';
import path from 'node:path';
import { HostFailure } from '../../../shared/errors';
import type { ChatSessionSummary } from '../../../shared/types/chat';
import { SESSION_EXPORT_FORMATS, type SessionExportFormat } from '../../../shared/export-formats';
import { callHost, positional, type CliCommand } from './command';

const IMPORT_USAGE = 'sessions import <card.png|card.json|chat.jsonl|session.json> [--lorebook <file>]… [--greeting N] [--json]';
const SEARCH_USAGE = 'sessions search <text> [--session <id>] [--limit N] [--json]';
const EXPORT_USAGE = 'sessions export <id> --format <format> [--out <file>]';

export const sessionCommands: CliCommand[] = [
  {
    words: ['sessions', 'list'],
    usage: 'sessions list',
    dataOnly: true,
    summary: 'Every Workbench session, newest first.',
    run: ({ host }) => callHost(host, 'chat.sessions.list', {}),
    format(value) {
      const sessions = value as ChatSessionSummary[];
      if (!sessions.length) return 'No sessions yet.';
      return sessions.map((s) => `${s.id}  ${s.title} — ${s.characterName}, ${s.messageCount} message${s.messageCount === 1 ? '' : 's'}`).join('\n');
    },
  },
  {
    words: ['sessions', 'search'],
    usage: SEARCH_USAGE,
    dataOnly: true,
    summary: 'Find text in every session (or one, with --session): titles, character names and messages, any case and accents.',
    flags: { session: { type: 'string' }, limit: { type: 'string' } },
    run(ctx) {
      const query = ctx.positionals.join(' ').trim();
      if (!query) throw new HostFailure({ code: 'INVALID_INPUT', message: `Missing <text>. Usage: ${SEARCH_USAGE}`, path: 'text' });
      const limit = ctx.flags.limit === undefined ? undefined : Number(ctx.flags.limit);
      return callHost(ctx.host, 'chat.sessions.search', { query, ...(typeof ctx.flags.session === 'string' ? { sessionId: ctx.flags.session } : {}), ...(limit !== undefined ? { limit } : {}) });
    },
    format(value) {
      const { hits, more } = value as { hits: Array<{ sessionId: string; title: string; index: number | null; role: string | null; before: string; match: string; after: string }>; more: boolean };
      if (!hits.length) return 'Nothing found.';
      const lines = hits.map((h) => `${h.sessionId}  ${h.title}${h.index === null ? ' (title or character)' : ` #${h.index + 1} ${h.role}`}: ${h.before}[${h.match}]${h.after}`);
      if (more) lines.push('More found than shown: narrow the search or raise --limit (at most 500).');
      return lines.join('\n');
    },
  },
  {
    words: ['sessions', 'import'],
    usage: IMPORT_USAGE,
    dataOnly: true,
    summary: 'A new session from a character card: V1/V2/V3 JSON, or a PNG with the card in its chara/ccv3 chunk; --greeting picks the first message (0 = first_mes, 1… = alternates).',
    flags: { greeting: { type: 'string' }, lorebook: { type: 'string', multiple: true } },
    run(ctx) {
      const file = path.resolve(positional(ctx, 0, 'file', IMPORT_USAGE));
      const greeting = ctx.flags.greeting === undefined ? undefined : Number(ctx.flags.greeting);
      const lorebooks = ((ctx.flags.lorebook as string[] | undefined) ?? []).map((book) => path.resolve(book));
      return callHost(ctx.host, 'chat.sessions.importFile', { path: file, ...(greeting !== undefined ? { greeting } : {}), ...(lorebooks.length ? { lorebooks } : {}) });
    },
    format(value) {
      const v = value as { id: string; characterName: string; greetings: number; worldInfoEntries: number; messages: number; ignored: string[]; avatar: boolean; duplicateEntries: number; regexScripts: number; regexSkipped: string[]; notes: string[] };
      const picture = v.avatar ? ' The card\'s picture is kept.' : '';
      const repeated = v.duplicateEntries ? ` ${v.duplicateEntries} lorebook entr${v.duplicateEntries === 1 ? 'y repeats' : 'ies repeat'} what was already there: kept once.` : '';
      const ignored = v.ignored.length ? `\nWorld-info fields kept but not used here: ${v.ignored.join(', ')}.` : '';
      const regex = v.regexScripts ? ` Its ${v.regexScripts} regex script${v.regexScripts === 1 ? ' is a rule' : 's are rules'} of this session.` : '';
      const regexSkipped = v.regexSkipped.length ? `\nRegex scripts left out (the card keeps them):\n${v.regexSkipped.map((r) => `  ${r}`).join('\n')}` : '';
      const notes = v.notes.length ? `\n${v.notes.join('\n')}` : '';
      return `Imported ${v.characterName} as session ${v.id}: ${v.greetings} greeting${v.greetings === 1 ? '' : 's'}, ${v.worldInfoEntries} world-info entr${v.worldInfoEntries === 1 ? 'y' : 'ies'}, ${v.messages} message${v.messages === 1 ? '' : 's'}.${picture}${regex}${repeated}${ignored}${regexSkipped}${notes}`;
    },
  },
  {
    words: ['sessions', 'export'],
    usage: EXPORT_USAGE,
    dataOnly: true,
    summary: `Write a session as Workbench JSON, a V2/V3 character card (JSON, or PNG with the picture: needs --out), a SillyTavern chat (.jsonl) or its world info as a SillyTavern lorebook; to --out, else to standard output. Formats: ${SESSION_EXPORT_FORMATS.join(', ')}.`,
    flags: { format: { type: 'string' }, out: { type: 'string' } },
    async run(ctx) {
      const sessionId = positional(ctx, 0, 'id', EXPORT_USAGE);
      const format = ctx.flags.format;
      if (typeof format !== 'string' || !(SESSION_EXPORT_FORMATS as readonly string[]).includes(format)) {
        throw new HostFailure({ code: 'INVALID_INPUT', message: `--format must be one of: ${SESSION_EXPORT_FORMATS.join(', ')}. Usage: ${EXPORT_USAGE}`, path: 'format' });
      }
      if (format.endsWith('-png') && typeof ctx.flags.out !== 'string') {
        throw new HostFailure({ code: 'INVALID_INPUT', message: `A PNG card is written to a file: add --out <file>. Usage: ${EXPORT_USAGE}`, path: 'out' });
      }
      const file = await callHost(ctx.host, 'chat.sessions.exportAs', { sessionId, format: format as SessionExportFormat });
      if (typeof ctx.flags.out !== 'string') return { ...file, written: null };
      fs.writeFileSync(path.resolve(ctx.flags.out), Buffer.from(file.content, file.encoding));
      return { fileName: file.fileName, written: path.resolve(ctx.flags.out) };
    },
    format(value) {
      const v = value as { content?: string; written: string | null };
      return v.written ? `Wrote ${v.written}.` : (v.content ?? '');
    },
  },
];
