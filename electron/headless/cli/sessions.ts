// `sessions …`: list the Workbench's sessions; import a character card (PNG or JSON) as a new session.
import path from 'node:path';
import type { ChatSessionSummary } from '../../../shared/types/chat';
import { callHost, positional, type CliCommand } from './command';

const IMPORT_USAGE = 'sessions import <card.png|card.json> [--lorebook <file>]… [--greeting N] [--json]';

export const sessionCommands: CliCommand[] = [
  {
    words: ['sessions', 'list'],
    usage: 'sessions list',
    summary: 'Every Workbench session, newest first.',
    run: ({ host }) => callHost(host, 'chat.sessions.list', {}),
    format(value) {
      const sessions = value as ChatSessionSummary[];
      if (!sessions.length) return 'No sessions yet.';
      return sessions.map((s) => `${s.id}  ${s.title} — ${s.characterName}, ${s.messageCount} message${s.messageCount === 1 ? '' : 's'}`).join('\n');
    },
  },
  {
    words: ['sessions', 'import'],
    usage: IMPORT_USAGE,
    summary: 'A new session from a character card: V1/V2/V3 JSON, or a PNG with the card in its chara/ccv3 chunk; --greeting picks the first message (0 = first_mes, 1… = alternates).',
    flags: { greeting: { type: 'string' }, lorebook: { type: 'string', multiple: true } },
    run(ctx) {
      const file = path.resolve(positional(ctx, 0, 'file', IMPORT_USAGE));
      const greeting = ctx.flags.greeting === undefined ? undefined : Number(ctx.flags.greeting);
      const lorebooks = ((ctx.flags.lorebook as string[] | undefined) ?? []).map((book) => path.resolve(book));
      return callHost(ctx.host, 'chat.sessions.importCard', { path: file, ...(greeting !== undefined ? { greeting } : {}), ...(lorebooks.length ? { lorebooks } : {}) });
    },
    format(value) {
      const v = value as { id: string; characterName: string; greetings: number; worldInfoEntries: number; messages: number; ignored: string[] };
      const ignored = v.ignored.length ? `\nWorld-info fields kept but not used here: ${v.ignored.join(', ')}.` : '';
      return `Imported ${v.characterName} as session ${v.id}: ${v.greetings} greeting${v.greetings === 1 ? '' : 's'}, ${v.worldInfoEntries} world-info entr${v.worldInfoEntries === 1 ? 'y' : 'ies'}, ${v.messages} message${v.messages === 1 ? '' : 's'}.${ignored}`;
    },
  },
];
