// The move from one JSON file per item (sessions/<id>.json and runs/<id>.json, before the database) into the chats'
// database, on the first start that finds such files. Each file is checked and saved in one transaction with the
// rest; then the files move, as they were, to a backup folder beside. A file that cannot be read stays where it is
// and is named in the log, so nothing is lost and the next start tries it again.
import fs from 'node:fs';
import path from 'node:path';
import { HostFailure } from '../../../shared/errors';
import type { Logger } from '../ports';
import { transaction, type Db } from './chat-db';

export const JSON_BACKUP_DIR = 'sessions-json-backup';
export const RUNS_JSON_BACKUP_DIR = 'runs-json-backup';
const ID = /^[A-Za-z0-9_-]{1,80}$/;

export interface JsonMigration<T> {
  /** The old folder of files (a folder that is not there, or not a folder, has nothing to move). */
  dir: string;
  /** The folder the moved files are kept in. */
  backup: string;
  /** What the files hold, for the log: "session", "council run". */
  what: string;
  db: Db;
  log: Logger;
  /** Checks a file's value; throws (a HostFailure names the field) when it is not one. */
  check: (value: unknown) => T;
  idOf: (item: T) => string;
  has: (id: string) => boolean;
  save: (item: T) => void;
}

export interface MigrationResult {
  moved: string[];
  failed: Array<{ file: string; reason: string }>;
}

export function migrateJsonFiles<T>(m: JsonMigration<T>): MigrationResult {
  const files = jsonFiles(m.dir);
  const result: MigrationResult = { moved: [], failed: [] };
  if (!files.length) return result;
  const started = Date.now();
  const readable: Array<{ file: string; item: T }> = [];
  for (const file of files) {
    try {
      readable.push({ file, item: m.check(JSON.parse(fs.readFileSync(path.join(m.dir, file), 'utf8'))) });
    } catch (err) {
      const reason = err instanceof HostFailure ? `${err.error.message}${err.error.path ? ` (at ${err.error.path})` : ''}` : (err as Error).message;
      result.failed.push({ file, reason });
      m.log.warn(`${m.what}s: ${path.join(m.dir, file)} was not moved into the database and stays where it is: ${reason}`);
    }
  }
  // One transaction: a kill in the middle leaves every file where it was and the database as before.
  const skipped: string[] = [];
  transaction(m.db, () => {
    // One already there was moved by a start that died before moving its file: it is not saved twice.
    for (const { file, item } of readable) {
      if (m.has(m.idOf(item))) skipped.push(file);
      else m.save(item);
    }
  });
  // The database's copy is kept; the file goes to the backup with the others, where it can still be imported.
  if (skipped.length) m.log.warn(`${m.what}s: ${skipped.join(', ')} already in the database: the database's copy is kept, the file moved to ${m.backup}`);
  fs.mkdirSync(m.backup, { recursive: true });
  for (const { file } of readable) {
    // A name the backup already holds (a file moved before, then written again by an older build) is kept too.
    const target = fs.existsSync(path.join(m.backup, file)) ? `${file.slice(0, -5)}.${Date.now()}.json` : file;
    fs.renameSync(path.join(m.dir, file), path.join(m.backup, target));
    result.moved.push(file);
  }
  m.log.info(`${m.what}s: moved ${result.moved.length} ${m.what} file(s) into the database in ${Date.now() - started} ms; the files are kept in ${m.backup}`);
  return result;
}

function jsonFiles(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => name.endsWith('.json') && ID.test(name.slice(0, -5))).sort();
}
