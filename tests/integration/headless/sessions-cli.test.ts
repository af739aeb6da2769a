// `sessions import` from the command line: a PNG card of several MB (the avatar is the image), a greeting picked by
// number, the embedded book as world info; a bad file imports nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { savedSession } from '../../helpers/saved-session';
import { runCli } from '../../../electron/headless/cli/run-cli';
import { withPngTextChunks } from '../../../electron/core/imports/png-text';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { PIXEL, withChunkBeforeEnd } from '../../helpers/png';

afterEach(cleanupTempDirs);


async function cli(dataDir: string, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli([...args, '--data-dir', dataDir], { out: (t) => out.push(t), err: (t) => err.push(t) }, { bundledExtensionsDir: null });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A PNG with a 6 MB private chunk standing in for a large avatar, and the card in chara. */
function bigCardPng(file: string, card: unknown): void {
  const withPadding = withChunkBeforeEnd(PIXEL, 'prVt', Buffer.alloc(6 * 1024 * 1024, 7));
  fs.writeFileSync(file, withPngTextChunks(withPadding, { chara: Buffer.from(JSON.stringify(card)).toString('base64') }));
}

describe('sessions import', () => {
  it('imports a 6 MB PNG card as a session with the chosen greeting and its book as world info', async () => {
    const dataDir = tempDir();
    const file = path.join(tempDir(), 'mara.png');
    bigCardPng(file, {
      spec: 'chara_card_v2',
      data: { name: 'Mara', description: 'Keeper.', first_mes: 'You made it.', alternate_greetings: ['Late again.'], character_book: { entries: [{ keys: ['lamp'], content: 'Oil.' }, { keys: ['cliff'], content: 'Steep.' }] } },
    });
    expect(fs.statSync(file).size).toBeGreaterThan(6 * 1024 * 1024);
    const imported = await cli(dataDir, ['sessions', 'import', file, '--greeting', '1', '--json']);
    expect(imported.code, imported.out).toBe(0);
    const value = JSON.parse(imported.out) as { id: string };
    expect(value).toMatchObject({ characterName: 'Mara', greetings: 2, worldInfoEntries: 2, messages: 1 });
    const session = savedSession(dataDir, value.id);
    expect(session.messages[0]!.content).toBe('Late again.');
    expect(session.card?.spec).toBe('chara_card_v2');
    expect((await cli(dataDir, ['sessions', 'list'])).out).toContain('Mara — Mara, 1 message');
  }, 60_000);

  it('exports a PNG card with the imported picture to --out, and imports it again (a PNG needs --out)', async () => {
    const dataDir = tempDir();
    const dir = tempDir();
    const file = path.join(dir, 'mara.png');
    bigCardPng(file, { spec: 'chara_card_v2', data: { name: 'Mara', first_mes: 'You made it.', character_book: { entries: [{ keys: ['lamp'], content: 'Oil.' }] } } });
    const first = JSON.parse((await cli(dataDir, ['sessions', 'import', file, '--json'])).out) as { id: string; avatar: boolean };
    expect(first.avatar).toBe(true);
    expect(JSON.parse((await cli(dataDir, ['sessions', 'export', first.id, '--format', 'card-v3-png', '--json'])).out)).toMatchObject({ error: { code: 'INVALID_INPUT', path: 'out' } });
    const out = path.join(dir, 'back.png');
    expect((await cli(dataDir, ['sessions', 'export', first.id, '--format', 'card-v3-png', '--out', out])).code).toBe(0);
    expect(fs.statSync(out).size).toBeGreaterThan(6 * 1024 * 1024);
    const again = JSON.parse((await cli(dataDir, ['sessions', 'import', out, '--json'])).out) as Record<string, unknown>;
    expect(again).toMatchObject({ kind: 'card', characterName: 'Mara', greetings: 1, worldInfoEntries: 1, avatar: true });
  }, 60_000);

  it('a greeting out of range, a file that is no card, or a broken chat line imports nothing', async () => {
    const dataDir = tempDir();
    const json = path.join(tempDir(), 'card.json');
    fs.writeFileSync(json, JSON.stringify({ spec: 'chara_card_v2', data: { name: 'Mara', first_mes: 'Hi.' } }));
    expect(JSON.parse((await cli(dataDir, ['sessions', 'import', json, '--greeting', '3', '--json'])).out)).toMatchObject({ error: { code: 'INVALID_INPUT', path: '/greeting' } });
    const notes = path.join(tempDir(), 'notes.txt');
    fs.writeFileSync(notes, 'Just some notes, not a card.\n');
    expect(JSON.parse((await cli(dataDir, ['sessions', 'import', notes, '--json'])).out)).toMatchObject({ error: { code: 'INVALID_INPUT', path: '/file' } });
    // A chat line without its text: nothing is imported.
    const chat = path.join(tempDir(), 'chat.jsonl');
    fs.writeFileSync(chat, '{"user_name":"You"}\n{"name":"You","is_user":true}\n');
    expect(JSON.parse((await cli(dataDir, ['sessions', 'import', chat, '--json'])).out)).toMatchObject({ error: { code: 'INVALID_INPUT', path: '/lines/1/mes' } });
    expect((await cli(dataDir, ['sessions', 'list'])).out).toBe('No sessions yet.');
  }, 60_000);

  it('adds lorebooks to the imported session and lists the fields it keeps but does not use; a bad lorebook imports nothing', async () => {
    const dataDir = tempDir();
    const card = path.join(tempDir(), 'card.json');
    fs.writeFileSync(card, JSON.stringify({ name: 'Old', description: 'A V1 card.', first_mes: 'Hi.' }));
    const book = path.join(tempDir(), 'coast.json');
    fs.writeFileSync(book, JSON.stringify({ entries: { '0': { key: ['harbor'], content: 'Chains.', position: 2, probability: 50 } } }));
    const imported = await cli(dataDir, ['sessions', 'import', card, '--lorebook', book, '--lorebook', book, '--json']);
    expect(JSON.parse(imported.out)).toMatchObject({ characterName: 'Old', worldInfoEntries: 1, duplicateEntries: 1, ignored: ['position', 'probability'] }); // the same book twice: kept once
    const bad = path.join(tempDir(), 'bad.json');
    fs.writeFileSync(bad, '{"entries": 5}');
    expect(JSON.parse((await cli(dataDir, ['sessions', 'import', card, '--lorebook', book, '--lorebook', bad, '--json'])).out)).toMatchObject({ error: { code: 'INVALID_INPUT', path: '/lorebooks/1/entries' } });
    expect((await cli(dataDir, ['sessions', 'list'])).out.split('\n')).toHaveLength(1);
  }, 60_000);

  it('round trips: card → session → V2 and V3 card → session keeps the card; a SillyTavern chat → session → chat keeps the messages', async () => {
    const dataDir = tempDir();
    const dir = tempDir();
    const card = {
      spec: 'chara_card_v2',
      spec_version: '2.0',
      data: {
        name: 'Mara',
        description: 'Keeper.',
        personality: 'Dry',
        scenario: 'Storm',
        first_mes: 'You made it.',
        alternate_greetings: ['Late again.'],
        mes_example: '<START>',
        system_prompt: 'Be {{char}}.',
        tags: ['coast'],
        extensions: { 'someone/tool': { keep: true } },
        character_book: { entries: [{ keys: ['lamp'], secondary_keys: ['oil'], selective: true, content: 'Oil.', enabled: true, insertion_order: 3, position: 'after_char' }] },
      },
    };
    fs.writeFileSync(path.join(dir, 'in.json'), JSON.stringify(card));
    const first = JSON.parse((await cli(dataDir, ['sessions', 'import', path.join(dir, 'in.json'), '--json'])).out) as { id: string };
    for (const format of ['card-v2', 'card-v3'] as const) {
      const out = path.join(dir, `${format}.json`);
      expect((await cli(dataDir, ['sessions', 'export', first.id, '--format', format, '--out', out])).code).toBe(0);
      const exported = JSON.parse(fs.readFileSync(out, 'utf8')) as { spec: string; data: Record<string, unknown> };
      expect(exported.spec).toBe(format === 'card-v2' ? 'chara_card_v2' : 'chara_card_v3');
      expect(exported.data).toMatchObject({ name: 'Mara', first_mes: 'You made it.', alternate_greetings: ['Late again.'], system_prompt: 'Be {{char}}.', tags: ['coast'], extensions: { 'someone/tool': { keep: true } } });
      const again = JSON.parse((await cli(dataDir, ['sessions', 'import', out, '--json'])).out) as { id: string };
      const a = savedSession(dataDir, first.id);
      const b = savedSession(dataDir, again.id);
      expect(b.character).toEqual(a.character);
      expect(b.messages.map((m) => m.content)).toEqual(a.messages.map((m) => m.content));
      // The same entries as the Workbench acts on them (each keeps its own original from its own file in `source`).
      const strip = (entries: Array<Record<string, unknown>>) => entries.map(({ id: _id, extra: _extra, source: _source, ...rest }) => rest);
      expect(strip(b.worldInfo)).toEqual(strip(a.worldInfo));
    }

    const chat = path.join(dir, 'chat.jsonl');
    fs.writeFileSync(chat, ['{"user_name":"Tom","character_name":"Mara","create_date":1}', '{"name":"Mara","is_user":false,"send_date":2,"mes":"Hello."}', '{"name":"Tom","is_user":true,"send_date":3,"mes":"Hi there."}'].join('\n'));
    const imported = JSON.parse((await cli(dataDir, ['sessions', 'import', chat, '--json'])).out) as { id: string; messages: number };
    expect(imported.messages).toBe(2);
    const back = path.join(dir, 'back.jsonl');
    await cli(dataDir, ['sessions', 'export', imported.id, '--format', 'st-chat', '--out', back]);
    const lines = fs.readFileSync(back, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ user_name: 'Tom', character_name: 'Mara' });
    expect(lines.slice(1).map((l) => [l.name, l.is_user, l.mes, l.send_date])).toEqual([
      ['Mara', false, 'Hello.', 2],
      ['Tom', true, 'Hi there.', 3],
    ]);
    // What a session could not hold is said in the summary (here, a reply whose text is none of its swipes).
    fs.writeFileSync(chat, ['{"user_name":"Tom","character_name":"Mara"}', '{"name":"Mara","is_user":false,"mes":"Third.","swipes":["One.","Two."]}'].join('\n'));
    expect((await cli(dataDir, ['sessions', 'import', chat])).out).toContain('1 message shows a text that is none of its swipes: it was kept as one more swipe, the one shown.');
  }, 60_000);
});
