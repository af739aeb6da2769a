// A process killed at random points while it writes the chats' database: the database opens, passes SQLite's own
// integrity checks (its full-text index too), and holds every change the writer saw committed, in order. A change
// in flight is there whole or not at all. Every wait is for the writer's own output; nothing sleeps.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { PENDING_LEASE_MS } from '../../../electron/core/chat/store/staged-write';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

const WRITER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'session-writer.ts');

afterEach(cleanupTempDirs);

/** Runs the writer and SIGKILLs it once it has begun round `killAt` (counted from its first); the last round it saw saved. */
function writeUntilKilled(dataDir: string, ids: [string, string], killAt: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dataDir, ...ids], { stdio: ['ignore', 'pipe', 'pipe'] });
    let buffered = '';
    let stderr = '';
    let begun = 0;
    let saved = -1;
    let killed = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const [word, n] = line.split(' ');
        if (word === 'saved') saved = Number(n);
        if (word === 'begin' && ++begun > killAt && !killed) {
          killed = true;
          child.kill('SIGKILL');
        }
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (killed ? resolve(saved) : reject(new Error(`the writer exited (${code}) before it was killed: ${stderr}`))));
  });
}

describe('a kill while the chats database is written', () => {
  it('leaves a database that opens whole with every committed change, at random kill points', async () => {
    const dataDir = tempDir();
    const setup = new SessionStore({ dataDir });
    const ids: [string, string] = [setup.create({ title: 'Long' }).id, setup.create({ title: 'Whole' }).id];
    setup.close();
    const points = Array.from({ length: 6 }, () => 1 + Math.floor(Math.random() * 12));
    let saved = -1;
    for (const point of points) {
      saved = Math.max(saved, await writeUntilKilled(dataDir, ids, point));
      const store = new SessionStore({ dataDir });
      try {
        const why = `kill points ${points.join(', ')}`;
        expect(store.db.prepare('PRAGMA integrity_check').raw(true).all(), why).toEqual([['ok']]);
        // Throws SQLITE_CORRUPT_VTAB when the index and the messages disagree.
        store.db.exec("INSERT INTO messages_text (messages_text, rank) VALUES ('integrity-check', 1)");
        const long = store.get(ids[0]).messages;
        // Every round seen saved is there; at most the one in flight beyond it.
        expect(long.length, why).toBeGreaterThanOrEqual(saved + 1);
        expect(long.length, why).toBeLessThanOrEqual(saved + 2);
        long.forEach((m, i) => expect(m.id).toBe(`m${i}`));
        long.slice(0, -1).forEach((m, i) => expect(m.content.startsWith(`${i} edited `)).toBe(true));
        const whole = store.get(ids[1]);
        // A chat written whole is one round's, all of it, or still the empty one it was made as.
        expect(whole.messages.length === 0 || (whole.messages.length === 2000 && whole.messages.every((m) => m.content.startsWith(`round ${whole.title.slice(6)} `)))).toBe(true);
        // A chat imported in steps is listed whole or not at all, and nothing pending outlives the next start.
        for (const imported of store.summaries().filter((x) => x.title.startsWith('Imported'))) {
          const messages = store.get(imported.id).messages;
          expect(messages.length, why).toBe(600);
          expect(messages.every((m, i) => m.content === `imported ${imported.title.slice(9)} message ${i}`), why).toBe(true);
        }
        // A write the kill cut short is pending: nobody sees it, and a start after its lease drops it.
        expect(store.summaries().some((x) => x.title.startsWith('Imported') && store.get(x.id).messages.length !== 600), why).toBe(false);
        const later = new SessionStore({ dataDir, clock: { now: () => Date.now() + PENDING_LEASE_MS + 1000 } });
        try {
          expect(later.db.prepare('SELECT count(*) FROM sessions WHERE pending > 0').raw(true).get(), why).toEqual([0]);
        } finally {
          later.close();
        }
      } finally {
        store.close();
      }
    }
  }, 120_000);
});
