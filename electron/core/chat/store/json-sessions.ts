// The move from one JSON file per session (<dataDir>/sessions/<id>.json, before the database) into the chats'
// database, on the first start that finds such files. Each file is checked and saved in one transaction with the
// rest; then the files move, as they were, to <dataDir>/sessions-json-backup/. A file that cannot be read stays
// where it is and is named in the log, so nothing is lost and the next start tries it again.
import fs from 'node:fs';
import path from 'node:path';
import { HostFailure } from '../../../../shared/errors';
import type { ChatSession } from '../../../../shared/types/chat';
import type { Logger } from '../../ports';
import { transaction, type Db } from './chat-db';

export const JSON_BACKUP_DIR = 'sessions-json-backup';
const ID = /^[A-Za-z0-9_-]{1,64}$/;

export interface JsonMigration {
  dataDir: string;
  /** The old sessions folder (it keeps the characters' pictures). */
  dir: string;
  db: Db;
  log: Logger;
  check: (value: unknown) => ChatSession;
  save: (session: ChatSession) => void;
  has: (id: string) => boolean;
}

export interface MigrationResult {
  moved: string[];
  failed: Array<{ file: string; reason: string }>;
}

export function migrateJsonSessions(m: JsonMigration): MigrationResult {
  const files = sessionFiles(m.dir);
  const result: MigrationResult = { moved: [], failed: [] };
  if (!files.length) return result;
  const started = Date.now();
  const readable: Array<{ file: string; session: ChatSession }> = [];
  for (const file of files) {
    try {
      readable.push({ file, session: m.check(JSON.parse(fs.readFileSync(path.join(m.dir, file), 'utf8'))) });
    } catch (err) {
      const reason = err instanceof HostFailure ? `${err.error.message}${err.error.path ? ` (at ${err.error.path})` : ''}` : (err as Error).message;
      result.failed.push({ file, reason });
      m.log.warn(`sessions: ${path.join(m.dir, file)} was not moved into the database and stays where it is: ${reason}`);
    }
  }
  // One transaction: a kill in the middle leaves every file where it was and the database as before.
  transaction(m.db, () => {
    // A session already there was moved by a start that died before moving its file: it is not saved twice.
    for (const { session } of readable) if (!m.has(session.id)) m.save(session);
  });
  const backup = path.join(m.dataDir, JSON_BACKUP_DIR);
  fs.mkdirSync(backup, { recursive: true });
  for (const { file } of readable) {
    // A name the backup already holds (a file moved before, then written again by an older build) is kept too.
    const target = fs.existsSync(path.join(backup, file)) ? `${file.slice(0, -5)}.${Date.now()}.json` : file;
    fs.renameSync(path.join(m.dir, file), path.join(backup, target));
    result.moved.push(file);
  }
  m.log.info(`sessions: moved ${result.moved.length} session file(s) into the database in ${Date.now() - started} ms; the files are kept in ${backup}`);
  return result;
}

function sessionFiles(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => name.endsWith('.json') && ID.test(name.slice(0, -5))).sort();
}
