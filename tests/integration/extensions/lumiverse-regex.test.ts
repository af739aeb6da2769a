// spindle.regex_scripts from a worker, as published extensions keep rules (a TypeScript backend built to ESM,
// Lumiverse's manifest and calls), and the rules at work in a real turn: the prompt rule changes what the model is
// sent but not the chat, the response rule changes the reply as saved, the display rule changes what the window is
// shown but not what is stored. A rule the extension did not write is not its to change.
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage, ChatSession } from '../../../shared/types/chat';
import { PERSON } from '../../../electron/core/regex/regex-store';
import { sessionDocument } from '../../helpers/session-document';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { addMainConnection, chatRig, finished, type ChatRig } from '../chat/helpers';
import { fixture, toolJson, waitFor } from './harness';

const ID = 'lumiverse_regex';
let rig: ChatRig | null = null;

afterEach(async () => {
  await rig?.close();
  rig = null;
  cleanupTempDirs();
});

const tool = <T>(r: ChatRig, name: string, args: Record<string, unknown> = {}) => toolJson<T>(r.host.registry, `${ID}:${name}`, args);

async function installed(): Promise<ChatRig> {
  const r = (rig = await chatRig());
  await r.host.extensions.installFromFolder(fixture(ID), { grant: 'requested', trust: true }, () => undefined);
  await waitFor(() => r.host.regex.store.list().total === 3 && r.host.registry.list().some((t) => t.qualifiedName === `${ID}:tamper`), `${ID}'s rules`);
  return r;
}

describe('regex scripts from an extension', () => {
  it('keeps its rules by name, and each works at its target in a real turn', async () => {
    const r = await installed();
    // Installed again (a restart, an update): its rules are found by name and updated, not added twice.
    expect(await tool(r, 'reinstall')).toEqual({ total: 3, mine: 3 });
    expect(await tool(r, 'active', { target: 'display' })).toEqual([{ name: 'Cue Keeper • Hide voice cues', target: ['display'], can_mutate: true, folder: 'Cue Keeper' }]);

    await addMainConnection(r);
    const imported = await r.call('chat.sessions.import', {
      json: JSON.stringify(
        sessionDocument({
          id: 'harbour',
          // Its keyword is only in a note the prompt rule takes out: world info scans the history before the rules.
          worldInfo: [{ id: 'w1', keywords: ['lighthouse'], content: 'The lighthouse has been dark for a year.', enabled: true }],
          messages: [
            { id: 'a', role: 'user', content: '(OOC: keep it short, lighthouse) Is the ferry running?', createdAt: 1 },
            { id: 'b', role: 'assistant', content: '(OOC: fine) The ferryman shrugs.', createdAt: 2 },
          ],
        }),
      ),
    });
    const sessionId = (imported.value as { id: string }).id;
    r.server.enqueue({ text: 'Hello [voice: soft] there. [END]' });
    const sent = await r.call('chat.send', { sessionId, text: '(OOC: last one) And tomorrow?' });
    expect(sent, JSON.stringify(sent)).toMatchObject({ ok: true });
    await finished(r, (sent.value as { turnId: string }).turnId);

    // prompt: older messages lose their notes on the way to the model; the newest (depth 0) keeps its own. The lore
    // their keyword fired is in, and the interceptor was handed the prompt after the rules, as the model was.
    const sentMessages = (r.server.generations.at(-1)!.body as { messages: Array<{ role: string; content: string }> }).messages;
    expect(sentMessages[0]!.content).toContain('The lighthouse has been dark for a year.');
    expect((await tool<{ intercepted: unknown }>(r, 'seen')).intercepted).toEqual(sentMessages);
    expect(sentMessages.slice(1)).toEqual([
      { role: 'user', content: 'Is the ferry running?' },
      { role: 'assistant', content: 'The ferryman shrugs.' },
      { role: 'user', content: '(OOC: last one) And tomorrow?' },
    ]);
    const session = (await r.call('chat.sessions.get', { sessionId })).value as ChatSession;
    expect(session.messages[0]!.content).toBe('(OOC: keep it short, lighthouse) Is the ferry running?');
    // response: the reply is saved without its end marker; display: the voice cue is not shown, but kept.
    const reply = session.messages.at(-1) as ChatMessage;
    expect(reply.content).toBe('Hello [voice: soft] there.');
    const shown = await r.call('regex.display', { sessionId, items: [{ text: reply.content, role: 'assistant', depth: 0 }, { text: '[voice: x] Hi', role: 'user', depth: 1 }] });
    expect(shown.value).toMatchObject({ texts: ['Hello there.', '[voice: x] Hi'], skipped: [] });
    // Both passes are stages of the turn's breakdown, naming the rule and its extension.
    // The prompt's rules run in assembly (before the budget and the interceptors), the reply's after generation.
    expect(reply.trace!.map((s) => s.stage)).toEqual(['council', 'assembly', 'world info', 'regex', 'interceptors', 'generation', 'regex']);
    const regexStages = reply.trace!.filter((s) => s.stage === 'regex');
    expect(regexStages.map((s) => s.note)).toEqual(['"Cue Keeper • OOC out of older messages" (lumiverse_regex) changed 2 texts; ≈80 tokens', 'the reply as saved: "Cue Keeper • End marker" (lumiverse_regex)']);
    expect(regexStages[1]).toMatchObject({ before: 'Hello [voice: soft] there. [END]', after: 'Hello [voice: soft] there.' });

    // It says it applies this chat's prompt rules itself: the host's pass is skipped (and says so), the reply's still runs.
    expect(await tool(r, 'own', { chatIds: [sessionId] })).toEqual({ owned: [sessionId] });
    r.server.enqueue({ text: 'Again. [END]' });
    const again = await r.call('chat.send', { sessionId, text: 'Once more' });
    await finished(r, (again.value as { turnId: string }).turnId);
    const resent = (r.server.generations.at(-1)!.body as { messages: Array<{ role: string; content: string }> }).messages;
    expect(resent[1]).toEqual({ role: 'user', content: '(OOC: keep it short, lighthouse) Is the ferry running?' });
    const second = ((await r.call('chat.sessions.get', { sessionId })).value as ChatSession).messages.at(-1) as ChatMessage;
    expect(second.content).toBe('Again.');
    expect(second.trace!.filter((s) => s.stage === 'regex').map((s) => `${s.by}: ${s.note}`)).toEqual([
      'Cue Keeper: applies the prompt regex scripts of this chat itself (promptRegex.setOwnedChats): the host’s pass is skipped.',
      'host: the reply as saved: "Cue Keeper • End marker" (lumiverse_regex)',
    ]);
  }, 60_000);

  it('G2: may not change a rule it did not write, and hears the person switch it', async () => {
    const r = await installed();
    const theirs = r.host.regex.store.create({ name: 'My own rule', find_regex: 'colour', replace_string: 'color', target: 'display' }, PERSON);
    expect(await tool(r, 'active', { target: 'display' })).toContainEqual({ name: 'My own rule', target: ['display'], can_mutate: false, folder: '' });
    expect(await tool(r, 'tamper', { id: theirs.id })).toMatchObject({ changed: false, code: 'PERMISSION_DENIED' });
    expect(r.host.regex.store.get(theirs.id)!.disabled).toBe(false);

    // The person switches it off in the window: the extension hears it (and drops its cache), the script as it reads it.
    expect(await r.call('regex.setDisabled', { id: theirs.id, disabled: true })).toMatchObject({ ok: true, value: { disabled: true } });
    expect(await r.call('regex.delete', { id: theirs.id })).toMatchObject({ ok: true, value: { deleted: true } });
    const heard = await tool<Array<{ event: string; id: string; can_mutate?: boolean }>>(r, 'heard');
    expect(heard.filter((h) => h.id === theirs.id)).toEqual([
      { event: 'REGEX_SCRIPT_CHANGED', id: theirs.id, name: 'My own rule', can_mutate: false, disabled: false },
      { event: 'REGEX_SCRIPT_CHANGED', id: theirs.id, name: 'My own rule', can_mutate: false, disabled: true },
      { event: 'REGEX_SCRIPT_DELETED', id: theirs.id },
    ]);
    expect(await tool(r, 'active', { target: 'display' })).not.toContainEqual(expect.objectContaining({ name: 'My own rule' }));
    // The window heard each change: its three rules, then this one written, switched and deleted.
    expect(r.events.filter((e) => e.type === 'regex.changed').map((e) => (e as { revision: number }).revision).slice(-3)).toEqual([r.host.regex.store.revision - 2, r.host.regex.store.revision - 1, r.host.regex.store.revision]);
    expect(r.host.extensions.get(ID).inertTouched ?? []).toEqual([]);
  }, 60_000);

  it('G7: its rules never hand chat text to its macro: not in a pass, not through a reply it saves; the person’s rules may', async () => {
    const r = await installed();
    await addMainConnection(r);
    const sessionId = (await r.call('chat.sessions.create', { title: 'Quiet' })).value as { id: string };
    const its = { owner: ID, unrestricted: false };
    // Its reply rule wraps the reply in its macro; its display rule wraps what is shown.
    r.host.regex.store.create({ name: 'Wrap reply', find_regex: '^[\\s\\S]+$', replace_string: '{{cue_echo::$&}}', flags: '', target: 'response' }, its);
    r.host.regex.store.create({ name: 'Wrap shown', find_regex: 'secret', replace_string: '{{cue_echo::$&}}', substitute_macros: 'raw', target: 'display' }, its);
    r.server.enqueue({ text: 'A secret harbour.' });
    const sent = await r.call('chat.send', { sessionId: sessionId.id, text: 'Tell me.' });
    await finished(r, (sent.value as { turnId: string }).turnId);
    const reply = ((await r.call('chat.sessions.get', { sessionId: sessionId.id })).value as ChatSession).messages.at(-1) as ChatMessage;
    expect(reply.content).toBe('A secret harbour.');
    expect(reply.trace!.find((s) => s.stage === 'regex')!.note).toMatch(/"Wrap reply" was skipped: it wrote a macro into text that is kept/);
    const shown = await r.call('regex.display', { sessionId: sessionId.id, items: [{ text: reply.content, role: 'assistant', depth: 0 }] });
    expect(shown.value).toMatchObject({ texts: ['A {{cue_echo::secret}} harbour.'] });
    // A second turn assembles the kept reply: nothing in it reaches the macro either.
    r.server.enqueue({ text: 'Nothing more.' });
    const again = await r.call('chat.send', { sessionId: sessionId.id, text: 'And?' });
    await finished(r, (again.value as { turnId: string }).turnId);
    expect((await tool<{ macroArgs: unknown[] }>(r, 'seen')).macroArgs).toEqual([]);
    // The person's own rule reaches every macro, as their card does.
    r.host.regex.store.create({ name: 'Mine', find_regex: 'harbour', replace_string: '{{cue_echo::$&}}', substitute_macros: 'raw', target: 'display' }, PERSON);
    const mine = await r.call('regex.display', { sessionId: sessionId.id, items: [{ text: reply.content, role: 'assistant', depth: 0 }] });
    expect((mine.value as { texts: string[] }).texts[0]).toContain('echoed.');
    expect((await tool<{ macroArgs: unknown[] }>(r, 'seen')).macroArgs).toEqual([['harbour']]);
  }, 60_000);
});
