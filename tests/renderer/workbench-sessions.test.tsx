// @vitest-environment real-core
// Workbench sessions against the real core (in memory): empty state, create, switch, rename, delete with confirm, export
// (download, copy), import (paste, file, errors naming the field), the character/persona/world-info editor, and list
// changes from events. Sessions are the core's own, kept in its data folder.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byLabel, byTestId, buttonNamed, cleanup, controlFrames, navButton, renderShell, settle, typeInto } from './harness';
import { session } from './real-chat';
import { disposeAllHosts, RealHost } from './real-host';
import type { ChatSession } from '../../shared/types/chat';

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The Workbench on a core with one connection and these sessions (imported as exported files are). */
async function openWorkbench(sessions: ChatSession[] = []) {
  controlFrames();
  const host = await RealHost.start();
  await host.arrange('connections.save', { profile: { id: 'local-lm', name: 'Local LM Studio', provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:1234/v1', defaultModel: 'qwen2.5-7b-instruct', headers: {} } });
  for (const doc of sessions) await host.arrange('chat.sessions.import', { json: JSON.stringify(doc) });
  const rendered = await renderShell(host);
  await settle(() => navButton(rendered.container, 'Workbench').click());
  await settle();
  return { ...rendered, panel: byTestId(rendered.container, 'panel-workbench') };
}

function rows(panel: HTMLElement): HTMLElement[] {
  return [...panel.querySelectorAll<HTMLElement>('[data-testid="session"]')];
}

const two = [
  session({ id: 's1', title: 'Tavern night', updatedAt: 5 }),
  session({ id: 's2', title: 'Space opera', updatedAt: 9, character: { name: 'Captain Vex', description: '', personality: '', scenario: '' }, messages: [{ id: 'u1', role: 'user', content: 'Engage', createdAt: 1 }] }),
];

describe('sessions', () => {
  it('draws a long list a page at a time, the open session always among the rows', async () => {
    const many = Array.from({ length: 70 }, (_, i) => session({ id: `c${i}`, title: `Chat ${i}`, updatedAt: 1000 - i }));
    const { panel } = await openWorkbench(many);
    expect(rows(panel)).toHaveLength(60);
    expect(rows(panel)[0]!.getAttribute('aria-current')).toBe('true');
    const more = byTestId(panel, 'more-sessions');
    expect(more.textContent).toBe('Show more sessions (10 more)');
    await settle(() => more.click());
    expect(rows(panel).map((r) => r.dataset.id)).toEqual(many.map((m) => m.id));
    expect(panel.querySelector('[data-testid="more-sessions"]')).toBeNull();
  });

  it('starts empty with New session and Import, and New session opens the new one', async () => {
    const { panel, host } = await openWorkbench();
    expect(panel.querySelector('.empty-state__title')?.textContent).toBe('No chat sessions yet');
    await settle(() => buttonNamed(panel, 'New session').click());
    expect(host.callsTo('chat.sessions.create').map((c) => c.input)).toEqual([{ title: 'New session' }]);
    expect(rows(panel)).toHaveLength(1);
    expect(byTestId(panel, 'session-title').textContent).toBe('New session');
    expect(byTestId(panel, 'chat').textContent).toContain('No messages yet.');
    expect((await host.arrange('chat.sessions.list', {})).map((x) => x.title)).toEqual(['New session']);
  });

  it('lists sessions newest first with character and message count, and switches between them', async () => {
    const { panel, host } = await openWorkbench(two);
    expect(rows(panel).map((r) => r.dataset.id)).toEqual(['s2', 's1']);
    expect(rows(panel)[0]!.textContent).toContain('Captain Vex · 1 message');
    expect(rows(panel)[0]!.getAttribute('aria-current')).toBe('true');
    await settle(() => rows(panel)[1]!.click());
    expect(host.callsTo('chat.sessions.window').at(-1)!.input).toEqual({ sessionId: 's1' });
    expect(byTestId(panel, 'session-title').textContent).toBe('Tavern night');
    expect(rows(panel)[1]!.getAttribute('aria-current')).toBe('true');
  });

  it('renames in place', async () => {
    const { panel, host } = await openWorkbench(two);
    await settle(() => buttonNamed(panel, 'Rename').click());
    const title = byLabel(panel, 'Session title');
    expect(title.value).toBe('Space opera');
    await settle(() => typeInto(title, 'Space opera, part II'));
    await settle(() => buttonNamed(panel, 'Save').click());
    expect(host.callsTo('chat.sessions.rename').map((c) => c.input)).toEqual([{ sessionId: 's2', title: 'Space opera, part II' }]);
    expect(byTestId(panel, 'session-title').textContent).toBe('Space opera, part II');
    expect(rows(panel)[0]!.textContent).toContain('Space opera, part II');
    expect((await host.arrange('chat.sessions.get', { sessionId: 's2' })).title).toBe('Space opera, part II');
  });

  it('deletes only after confirming, then opens the next one', async () => {
    const { panel, host } = await openWorkbench(two);
    await settle(() => buttonNamed(panel, 'Delete Space opera…').click());
    expect(host.callsTo('chat.sessions.delete')).toHaveLength(0);
    const confirm = byTestId(panel, 'confirm-delete');
    expect(confirm.textContent).toContain('Delete Space opera and its 1 message?');
    await settle(() => buttonNamed(confirm, 'Cancel').click());
    expect(panel.querySelector('[data-testid="confirm-delete"]')).toBeNull();
    await settle(() => buttonNamed(panel, 'Delete Space opera…').click());
    await settle(() => buttonNamed(byTestId(panel, 'confirm-delete'), 'Delete').click());
    await settle();
    expect(host.callsTo('chat.sessions.delete').map((c) => c.input)).toEqual([{ sessionId: 's2' }]);
    expect(rows(panel).map((r) => r.dataset.id)).toEqual(['s1']);
    expect(byTestId(panel, 'session-title').textContent).toBe('Tavern night');
    expect((await host.arrange('chat.sessions.list', {})).map((x) => x.id)).toEqual(['s1']);
  });

  it('exports by download or by copying the JSON, with a visible fallback when neither is allowed', async () => {
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => (blobs.push(b as Blob), 'blob:session'));
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const writes: string[] = [];
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: async (t: string) => void writes.push(t) } });
    const { panel, host } = await openWorkbench(two);
    const exported = JSON.parse((await host.arrange('chat.sessions.export', { sessionId: 's2' })).json) as ChatSession;
    expect(exported).toMatchObject({ id: 's2', title: 'Space opera', messages: [{ content: 'Engage' }] });
    await settle(() => buttonNamed(panel, 'Download JSON').click());
    expect(JSON.parse(await blobs[0]!.text())).toEqual(exported);
    expect(byTestId(panel, 'export-note').textContent).toContain('Saved as Space-opera-s2.json');
    await settle(() => buttonNamed(panel, 'Copy JSON').click());
    expect(JSON.parse(writes[0]!)).toEqual(exported);
    expect(byTestId(panel, 'export-note').textContent).toContain('Copied the session JSON');
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: async () => Promise.reject(new Error('denied')) } });
    await settle(() => buttonNamed(panel, 'Copy JSON').click());
    const manual = byLabel<HTMLTextAreaElement>(panel, 'Exported session JSON');
    expect(JSON.parse(manual.value).id).toBe('s2');
  });

  it('imports pasted JSON, and shows the host’s error naming the field when it is wrong', async () => {
    const { panel, host } = await openWorkbench(two);
    await settle(() => buttonNamed(panel, 'Import…').click());
    const form = byTestId(panel, 'import-form');
    await settle(() => typeInto(byLabel(form, "Or paste a session's JSON"), JSON.stringify({ ...session({ id: 's8' }), format: 'something-else' })));
    await settle(() => buttonNamed(form, 'Import').click());
    const error = form.querySelector<HTMLElement>('[data-code="INVALID_INPUT"]')!;
    expect(error.textContent).toContain('/format must be equal to constant');
    expect(error.textContent).toContain('At /format');
    const doc = JSON.stringify(session({ id: 's9', title: 'From a friend', updatedAt: 20 }));
    await settle(() => typeInto(byLabel(form, "Or paste a session's JSON"), doc));
    await settle(() => buttonNamed(form, 'Import').click());
    await settle();
    expect(host.callsTo('chat.sessions.import').at(-1)!.input).toEqual({ json: doc });
    expect((await host.arrange('chat.sessions.get', { sessionId: 's9' })).title).toBe('From a friend');
    expect(panel.querySelector('[data-testid="import-form"]')).toBeNull();
    expect(rows(panel).map((r) => r.dataset.id)).toEqual(['s9', 's2', 's1']);
    expect(byTestId(panel, 'session-title').textContent).toBe('From a friend');
  });

  it('imports from a chosen file', async () => {
    const { panel, host } = await openWorkbench(two);
    await settle(() => buttonNamed(panel, 'Import…').click());
    const form = byTestId(panel, 'import-form');
    const input = byLabel(form, 'Choose a file');
    const doc = JSON.stringify(session({ id: 's7', title: 'File import', updatedAt: 30 }));
    Object.defineProperty(input, 'files', { value: [new File([doc], 'session.json', { type: 'application/json' })], configurable: true });
    await settle(() => void input.dispatchEvent(new Event('change', { bubbles: true })));
    await settle();
    // The file goes to the host as base64 and comes back as a preview before anything is created.
    expect(atob((host.callsTo('chat.sessions.inspectData').at(-1)!.input as { data: string }).data)).toBe(doc);
    expect(byTestId(form, 'import-preview').textContent).toContain('Exported session');
    await settle(() => buttonNamed(form, /^Import /).click());
    await settle();
    expect(host.callsTo('chat.sessions.importData')).toHaveLength(1);
    expect(byTestId(panel, 'session-title').textContent).toBe('File import');
  });

  it('follows chat.sessions.changed events: a session made elsewhere appears, a deleted one goes', async () => {
    const { panel, host } = await openWorkbench(two);
    // The CLI (another client of the same core) imports one and deletes another.
    await settle(async () => void (await host.core.api.call('chat.sessions.import', { json: JSON.stringify(session({ id: 's3', title: 'From the CLI', updatedAt: 50 })) }, { origin: 'cli' })));
    await settle();
    expect(rows(panel).map((r) => r.dataset.id)).toEqual(['s3', 's2', 's1']);
    await settle(async () => void (await host.core.api.call('chat.sessions.delete', { sessionId: 's2' }, { origin: 'cli' })));
    await settle();
    expect(rows(panel).map((r) => r.dataset.id)).toEqual(['s3', 's1']);
  });
});

describe('character & world', () => {
  it('world books extensions made: each attached to this character or to every chat with a check box, saved at once', async () => {
    const { panel, host } = await openWorkbench(two);
    await settle(() => buttonNamed(panel, 'Character & world').click());
    const card = byTestId(panel, 'world-books');
    expect(card.textContent).toContain('None yet.');
    // As Set Points and a rules extension make them (spindle.world_books), while the tab is open.
    const lore = host.core.library.create({ name: 'Tortuga lore', description: 'Made with the card' });
    host.core.library.saveEntry(lore.id, { id: 'tortuga', keywords: ['Tortuga'], content: 'Tortuga Station is a lawless port.', enabled: true });
    const rules = host.core.library.create({ name: 'House rules' });
    await settle(() => buttonNamed(panel, 'Chat').click());
    await settle(() => buttonNamed(panel, 'Character & world').click());
    const books = () => [...byTestId(panel, 'world-books').querySelectorAll<HTMLElement>('[data-testid="world-book"]')];
    expect(books().map((b) => b.querySelector('strong')!.textContent)).toEqual(['Tortuga lore', 'House rules']);
    expect(books()[0]!.textContent).toContain('1 entry');
    await settle(() => byLabel(books()[0]!, 'This character').click());
    await settle(() => byLabel(books()[1]!, 'Every chat').click());
    expect(host.core.library.linked('s2')).toEqual([lore.id]);
    expect(host.core.library.globals()).toEqual([rules.id]);
    expect(byLabel(books()[0]!, 'This character').checked).toBe(true);
    expect(byLabel(books()[1]!, 'Every chat').checked).toBe(true);
    // Unchecked, it goes.
    await settle(() => byLabel(books()[0]!, 'This character').click());
    expect(host.core.library.linked('s2')).toEqual([]);
  });

  it('edits the character, persona and world-info entries and saves them with chat.sessions.update', async () => {
    const { panel, host } = await openWorkbench(two);
    await settle(() => buttonNamed(panel, 'Character & world').click());
    const editor = byTestId(panel, 'session-editor');
    expect(byLabel(editor, 'Character name').value).toBe('Captain Vex');
    await settle(() => typeInto(byLabel(editor, 'Description'), 'A smuggler with a heart of gold.'));
    await settle(() => typeInto(byLabel(editor, 'Personality'), 'Brash.'));
    await settle(() => typeInto(byLabel(editor, 'Scenario'), 'Docked at Tortuga Station.'));
    await settle(() => typeInto(byLabel(editor, 'Persona name'), 'Ada'));
    await settle(() => buttonNamed(editor, 'Add entry').click());
    await settle(() => typeInto(byLabel(editor, 'Keywords'), 'Tortuga, station ,Tortuga'));
    await settle(() => typeInto(byLabel(editor, 'Content'), 'Tortuga Station is a lawless port.'));
    expect(editor.textContent).toContain('Unsaved changes.');
    await settle(() => buttonNamed(editor, 'Save character & world').click());
    const call = host.callsTo('chat.sessions.update')[0]!.input as { sessionId: string; patch: { character: object; persona: object; worldInfo: Array<{ id: string }> } };
    expect(call.sessionId).toBe('s2');
    expect(call.patch.character).toEqual({ name: 'Captain Vex', description: 'A smuggler with a heart of gold.', personality: 'Brash.', scenario: 'Docked at Tortuga Station.' });
    expect(call.patch.persona).toEqual({ name: 'Ada', description: 'A traveller.' });
    expect(call.patch.worldInfo).toEqual([{ id: call.patch.worldInfo[0]!.id, keywords: ['Tortuga', 'station'], content: 'Tortuga Station is a lawless port.', enabled: true }]);
    expect(call.patch.worldInfo[0]!.id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(editor.textContent).toContain('Saved.');
    expect(await host.arrange('chat.sessions.get', { sessionId: 's2' })).toMatchObject({ character: call.patch.character, persona: call.patch.persona, worldInfo: call.patch.worldInfo });
  });
});
