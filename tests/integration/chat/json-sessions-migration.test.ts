// The first start on a data folder from before the database: every session file moves into it with nothing lost,
// the files are kept as a backup, a file that cannot be read stays (named in the log), and no later start moves
// a session twice — not even one that died between saving the sessions and moving their files.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { JSON_BACKUP_DIR } from '../../../electron/core/db/json-files';
import type { ChatSession } from '../../../shared/types/chat';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

const session = (id: string, messages: number, extra: Partial<ChatSession> = {}): ChatSession => ({
  format: 'council-workbench/session',
  version: 1,
  id,
  title: `Chat ${id}`,
  createdAt: 1,
  updatedAt: messages,
  character: { name: 'Mara', description: 'Keeper.', personality: '', scenario: '' },
  persona: { name: 'Tom', description: '' },
  worldInfo: [{ id: 'w1', keywords: ['lamp'], content: 'Oil.', enabled: true }],
  messages: Array.from({ length: messages }, (_, i) => ({ id: `m${i}`, role: i % 2 ? 'assistant' : 'user', content: `line ${i}`, createdAt: i, ...(i === 1 ? { swipes: [{ content: 'other', createdAt: 1 }, { content: 'line 1', createdAt: 1 }], swipeId: 1 } : {}) })),
  ...extra,
});

function oldFolder(sessions: ChatSession[]): string {
  const dataDir = tempDir();
  fs.mkdirSync(path.join(dataDir, 'sessions'));
  for (const s of sessions) fs.writeFileSync(path.join(dataDir, 'sessions', `${s.id}.json`), JSON.stringify(s));
  fs.writeFileSync(path.join(dataDir, 'sessions', 'a.avatar.png'), 'png bytes');
  return dataDir;
}

function logged() {
  const lines: string[] = [];
  return { lines, log: { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(`warn: ${m}`), error: (m: string) => lines.push(`error: ${m}`) } };
}

describe('sessions from JSON files into the database', () => {
  it('moves every session with nothing lost, keeps the files as a backup, and keeps one it cannot read where it was', async () => {
    const sessions = [session('a', 3, { avatar: { type: 'image/png', bytes: 9 }, metadata: { keep: [1, 2] }, titleSet: true }), session('b', 250)];
    const dataDir = oldFolder(sessions);
    fs.writeFileSync(path.join(dataDir, 'sessions', 'broken.json'), '{"format":"council-workbench/session","messages":[');
    const { lines, log } = logged();
    const store = new SessionStore({ dataDir, log });
    try {
      for (const s of sessions) expect(JSON.stringify(store.get(s.id))).toBe(JSON.stringify(s));
      expect((await store.avatar('a'))?.toString()).toBe('png bytes');
      expect(fs.readdirSync(path.join(dataDir, JSON_BACKUP_DIR)).sort()).toEqual(['a.json', 'b.json']);
      expect(JSON.parse(fs.readFileSync(path.join(dataDir, JSON_BACKUP_DIR, 'b.json'), 'utf8'))).toEqual(sessions[1]);
      expect(fs.readdirSync(path.join(dataDir, 'sessions')).sort()).toEqual(['a.avatar.png', 'broken.json']);
      expect(lines.find((l) => l.startsWith('warn:'))).toMatch(/broken\.json was not moved into the database and stays where it is: /);
      expect(lines).toContainEqual(expect.stringMatching(/^sessions: moved 2 session file\(s\) into the database/));
    } finally {
      store.close();
    }
    // The next start finds only the broken file, tries it again and moves nothing twice.
    const again = new SessionStore({ dataDir });
    try {
      expect(again.summaries().map((s) => s.id).sort()).toEqual(['a', 'b']);
    } finally {
      again.close();
    }
  });

  it('saves no session twice when a start died after saving them but before moving their files', () => {
    const dataDir = oldFolder([session('a', 2)]);
    const first = new SessionStore({ dataDir });
    first.mutate('a', (s) => ({ ...s, title: 'Changed since' }));
    first.close();
    // As if the files had not been moved: the old file is back where it was.
    fs.copyFileSync(path.join(dataDir, JSON_BACKUP_DIR, 'a.json'), path.join(dataDir, 'sessions', 'a.json'));
    const second = new SessionStore({ dataDir });
    try {
      expect(second.summaries().map((s) => s.title)).toEqual(['Changed since']);
      expect(fs.readdirSync(path.join(dataDir, JSON_BACKUP_DIR)).sort()).toEqual([expect.stringMatching(/^a\.\d+\.json$/), 'a.json']);
    } finally {
      second.close();
    }
  });
});
