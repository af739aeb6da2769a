// `sessions search` and chat.sessions.search: across sessions or within one, any case and accents, snippets around
// the match, titles and character names too, a limit with "more". Adversarial: an empty query, an unknown session,
// a limit out of range, text that looks like a pattern (matched as text).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/headless/cli/run-cli';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

async function cli(dataDir: string, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli([...args, '--data-dir', dataDir], { out: (t) => out.push(t), err: (t) => err.push(t) }, { bundledExtensionsDir: null });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function session(id: string, title: string, character: string, texts: string[], updatedAt: number) {
  return {
    format: 'council-workbench/session',
    version: 1,
    id,
    title,
    createdAt: 1,
    updatedAt,
    character: { name: character, description: '', personality: '', scenario: '' },
    persona: { name: 'Ada', description: '' },
    worldInfo: [],
    messages: texts.map((content, i) => ({ id: `${id}-${i}`, role: i % 2 ? 'assistant' : 'user', content, createdAt: i })),
  };
}

function dataWith(...sessions: ReturnType<typeof session>[]): string {
  const dataDir = tempDir();
  fs.mkdirSync(path.join(dataDir, 'sessions'), { recursive: true });
  for (const s of sessions) fs.writeFileSync(path.join(dataDir, 'sessions', `${s.id}.json`), JSON.stringify(s));
  return dataDir;
}

const search = async (dataDir: string, ...args: string[]) => JSON.parse((await cli(dataDir, ['sessions', 'search', ...args, '--json'])).out) as Record<string, unknown> & { hits: Array<Record<string, unknown>>; more: boolean };

describe('sessions search', () => {
  const dataDir = () =>
    dataWith(
      session('ferry', 'Ferry at dawn', 'Mira', ['When does the ferry leave?', `It leaves at dawn. ${'The river is wide. '.repeat(10)}Bring a CAFÉ au lait.`], 20),
      session('glade', 'The glade', 'Seraphina', ['Is the glade safe?', 'The ferryman never comes here. a.b*c'], 10),
    );

  it('finds text in every session, newest first, any case and accents, with a snippet around it', async () => {
    const dir = dataDir();
    const { hits, more } = await search(dir, 'ferry');
    expect(more).toBe(false);
    expect(hits.map((h) => [h.sessionId, h.index, h.role])).toEqual([
      ['ferry', null, null],
      ['ferry', 0, 'user'],
      ['glade', 1, 'assistant'],
    ]);
    expect(hits[1]).toMatchObject({ before: 'When does the ', match: 'ferry', after: ' leave?', messageId: 'ferry-0' });
    const cafe = (await search(dir, 'cafe au')).hits;
    expect(cafe).toEqual([expect.objectContaining({ sessionId: 'ferry', index: 1, match: 'CAFÉ au' })]);
    expect(String(cafe[0]!.before).startsWith('…')).toBe(true);
    expect((await search(dir, 'a.b*c')).hits).toEqual([expect.objectContaining({ sessionId: 'glade', match: 'a.b*c' })]);
    expect((await search(dir, 'seraphina')).hits).toEqual([expect.objectContaining({ sessionId: 'glade', messageId: null })]);
  });

  it('searches one session with --session, caps with --limit and says there is more; prints for people', async () => {
    const dir = dataDir();
    expect((await search(dir, 'the', '--session', 'glade')).hits.every((h) => h.sessionId === 'glade')).toBe(true);
    const capped = await search(dir, 'the', '--limit', '2');
    expect(capped.hits).toHaveLength(2);
    expect(capped.more).toBe(true);
    const printed = (await cli(dir, ['sessions', 'search', 'ferry', 'leave'])).out;
    expect(printed).toBe('ferry  Ferry at dawn #1 user: When does the [ferry leave]?');
    expect((await cli(dir, ['sessions', 'search', 'nothing-like-this'])).out).toBe('Nothing found.');
  });

  it('refuses an empty query, an unknown session and a limit out of range, naming the field', async () => {
    const dir = dataDir();
    expect((await search(dir)).error).toMatchObject({ code: 'INVALID_INPUT', path: 'text' });
    expect((await search(dir, 'x', '--session', 'nope')).error).toMatchObject({ code: 'NOT_FOUND', path: '/sessionId' });
    expect((await search(dir, 'x', '--limit', '0')).error).toMatchObject({ code: 'INVALID_INPUT', path: '/limit' });
    expect((await search(dir, 'x', '--limit', 'many')).error).toMatchObject({ code: 'INVALID_INPUT', path: '/limit' });
  });
});
