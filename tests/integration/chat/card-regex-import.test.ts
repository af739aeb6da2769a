// A card that carries regex scripts, imported from the window on the real host: its scripts become the person's rules
// of the new session (listed, applied to what the window shows), the card exported again carries them as written,
// one the store's quota refuses is left out and said so, and deleting the session takes its rules with it.
import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../../electron/core/host';
import { PERSON } from '../../../electron/core/regex/regex-store';
import { REGEX_LIMITS } from '../../../electron/core/regex/regex-script';
import { testHost } from '../../helpers/node-host';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.dispose()));
  cleanupTempDirs();
});

const SCRIPTS = [
  { id: 'st-1', scriptName: 'Hide OOC', findRegex: '/\\s*\\(OOC:[^)]*\\)/gi', replaceString: '', placement: [2], markdownOnly: true, disabled: false },
  { id: 'st-2', scriptName: 'Broken', findRegex: '/(/g', placement: [2] },
];
const CARD = { spec: 'chara_card_v2', spec_version: '2.0', data: { name: 'Mara', description: 'Keeper.', first_mes: 'Hello (OOC: set the scene) traveller.', extensions: { regex_scripts: SCRIPTS } } };
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

async function host() {
  const h = await testHost(tempDir());
  hosts.push(h);
  const call = async <T = never>(method: string, input: unknown): Promise<T> => {
    const result = (await h.api.call(method, input, { origin: 'ws' })) as { ok: boolean; value?: never; error?: unknown };
    if (!result.ok) throw new Error(`${method}: ${JSON.stringify(result.error)}`);
    return result.value as T;
  };
  return { h, call };
}

describe("a card's regex scripts", () => {
  it('become rules of the session it makes: previewed, listed as the person’s, applied, exported as written, gone with the session', async () => {
    const { call } = await host();
    const preview: { regexScripts: number; regexSkipped: string[] } = await call('chat.sessions.inspectData', { data: b64(CARD) });
    expect(preview.regexScripts).toBe(1);
    expect(preview.regexSkipped).toEqual([expect.stringMatching(/^Script 2 \(Broken\): Invalid regex/)]);
    expect((await call<{ scripts: unknown[] }>('regex.list', {})).scripts).toEqual([]); // a preview creates nothing

    const imported: { id: string; regexScripts: number; regexSkipped: string[] } = await call('chat.sessions.importData', { data: b64(CARD) });
    expect(imported.regexScripts).toBe(1);
    expect(imported.regexSkipped).toEqual(preview.regexSkipped);
    const { scripts } = await call<{ scripts: Array<{ name: string; owner: string; scope: string; scope_id: string; target: string[] }> }>('regex.list', {});
    expect(scripts).toMatchObject([{ name: 'Hide OOC', owner: '', scope: 'character', scope_id: imported.id, target: ['display'] }]);

    // What the window shows of the greeting goes through it; what is stored does not.
    const shown: { texts: string[] } = await call('regex.display', { sessionId: imported.id, items: [{ text: 'Hello (OOC: set the scene) traveller.', role: 'assistant', depth: 0 }] });
    expect(shown.texts).toEqual(['Hello traveller.']);
    const session: { messages: Array<{ content: string }> } = await call('chat.sessions.get', { sessionId: imported.id });
    expect(session.messages[0]!.content).toBe('Hello (OOC: set the scene) traveller.');

    // Exported again, the card carries its scripts as they were written, the broken one too.
    const exported: { content: string } = await call('chat.sessions.exportAs', { sessionId: imported.id, format: 'card-v2' });
    expect(JSON.parse(exported.content).data.extensions.regex_scripts).toEqual(SCRIPTS);

    // Another session's rules are not this one's; deleting this one takes only its own.
    const other: { id: string } = await call('chat.sessions.importData', { data: b64(CARD) });
    expect(await call('chat.sessions.delete', { sessionId: imported.id })).toEqual({ deleted: true });
    const left = (await call<{ scripts: Array<{ scope_id: string }> }>('regex.list', {})).scripts;
    expect(left.map((s) => s.scope_id)).toEqual([other.id]);
  });

  it('are the character’s: a branch of the session (its line’s origin is the character) shows through them too, another chat does not', async () => {
    const { call } = await host();
    const imported: { id: string } = await call('chat.sessions.importData', { data: b64(CARD) });
    const { messages } = await call<{ messages: Array<{ id: string }> }>('chat.sessions.get', { sessionId: imported.id });
    const branch: { id: string } = await call('chat.sessions.branch', { sessionId: imported.id, messageId: messages[0]!.id });
    const deeper: { id: string } = await call('chat.sessions.branch', { sessionId: branch.id, messageId: messages[0]!.id });
    const other: { id: string } = await call('chat.sessions.create', { title: 'Someone else' });
    const item = { text: 'Hello (OOC: set the scene) traveller.', role: 'assistant', depth: 0 };
    const shown = async (sessionId: string) => (await call<{ texts: string[] }>('regex.display', { sessionId, items: [item] })).texts;
    expect(await shown(branch.id)).toEqual(['Hello traveller.']);
    expect(await shown(deeper.id)).toEqual(['Hello traveller.']);
    expect(await shown(other.id)).toEqual([item.text]);
  });

  it('a script the store has no room for is left out and said so; the session is still made', async () => {
    const { h, call } = await host();
    const store = h.regex.store;
    for (let i = 0; i < REGEX_LIMITS.maxScripts; i++) store.create({ name: `Filler ${i}`, find_regex: `f${i}` }, PERSON);
    const imported: { id: string; regexScripts: number; regexSkipped: string[] } = await call('chat.sessions.importData', { data: b64(CARD) });
    expect(imported.regexScripts).toBe(0);
    expect(imported.regexSkipped).toEqual([expect.stringMatching(/^Script 2 \(Broken\)/), `Hide OOC: At most ${REGEX_LIMITS.maxScripts} regex scripts are kept.`]);
    expect(((await call('chat.sessions.get', { sessionId: imported.id })) as { id: string }).id).toBe(imported.id);
  });
});
