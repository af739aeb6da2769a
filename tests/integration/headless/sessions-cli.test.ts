// `sessions import` from the command line: a PNG card of several MB (the avatar is the image), a greeting picked by
// number, the embedded book as world info; a bad file imports nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/headless/cli/run-cli';
import { withPngTextChunks } from '../../../electron/core/imports/png-text';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

async function cli(dataDir: string, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli([...args, '--data-dir', dataDir], { out: (t) => out.push(t), err: (t) => err.push(t) }, { bundledExtensionsDir: null });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A PNG with a 6 MB private chunk standing in for a large avatar, and the card in chara. */
function bigCardPng(file: string, card: unknown): void {
  const padding = Buffer.alloc(6 * 1024 * 1024, 7);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(padding.length, 0);
  head.write('prVt', 4, 'latin1');
  const withPadding = Buffer.concat([PIXEL.subarray(0, PIXEL.length - 12), head, padding, Buffer.alloc(4), PIXEL.subarray(PIXEL.length - 12)]);
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
    const session = JSON.parse(fs.readFileSync(path.join(dataDir, 'sessions', `${value.id}.json`), 'utf8')) as { messages: Array<{ content: string }>; card: { spec: string } };
    expect(session.messages[0]!.content).toBe('Late again.');
    expect(session.card.spec).toBe('chara_card_v2');
    expect((await cli(dataDir, ['sessions', 'list'])).out).toContain('Mara — Mara, 1 message');
  }, 60_000);

  it('a greeting out of range, or a file that is no card, imports nothing', async () => {
    const dataDir = tempDir();
    const json = path.join(tempDir(), 'card.json');
    fs.writeFileSync(json, JSON.stringify({ spec: 'chara_card_v2', data: { name: 'Mara', first_mes: 'Hi.' } }));
    expect(JSON.parse((await cli(dataDir, ['sessions', 'import', json, '--greeting', '3', '--json'])).out)).toMatchObject({ error: { code: 'INVALID_INPUT', path: '/greeting' } });
    const chat = path.join(tempDir(), 'chat.jsonl');
    fs.writeFileSync(chat, '{"user_name":"You"}\n{"mes":"hi"}\n');
    expect(JSON.parse((await cli(dataDir, ['sessions', 'import', chat, '--json'])).out)).toMatchObject({ error: { code: 'INVALID_INPUT', path: '/file' } });
    expect((await cli(dataDir, ['sessions', 'list'])).out).toBe('No sessions yet.');
  }, 60_000);

  it('adds lorebooks to the imported session and lists the fields it keeps but does not use; a bad lorebook imports nothing', async () => {
    const dataDir = tempDir();
    const card = path.join(tempDir(), 'card.json');
    fs.writeFileSync(card, JSON.stringify({ name: 'Old', description: 'A V1 card.', first_mes: 'Hi.' }));
    const book = path.join(tempDir(), 'coast.json');
    fs.writeFileSync(book, JSON.stringify({ entries: { '0': { key: ['harbor'], content: 'Chains.', position: 2, probability: 50 } } }));
    const imported = await cli(dataDir, ['sessions', 'import', card, '--lorebook', book, '--lorebook', book, '--json']);
    expect(JSON.parse(imported.out)).toMatchObject({ characterName: 'Old', worldInfoEntries: 2, ignored: ['position', 'probability'] });
    const bad = path.join(tempDir(), 'bad.json');
    fs.writeFileSync(bad, '{"entries": 5}');
    expect(JSON.parse((await cli(dataDir, ['sessions', 'import', card, '--lorebook', book, '--lorebook', bad, '--json'])).out)).toMatchObject({ error: { code: 'INVALID_INPUT', path: '/lorebooks/1/entries' } });
    expect((await cli(dataDir, ['sessions', 'list'])).out.split('\n')).toHaveLength(1);
  }, 60_000);
});
