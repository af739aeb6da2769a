// spindle.personas as Story Engine calls it: a persona of its own made (kept in the chats' database, listed beside the
// chats' own), switched to (it becomes the open chat's persona, told as PERSONA_CHANGED), a chat's own edited in place,
// and each refusal with its field: no name, a persona that is none, no open chat to switch, metadata past its cap.
import { afterEach, describe, expect, it } from 'vitest';
import { testChatReads } from '../../helpers/chat-reads';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { chatDataHandlers } from '../../../electron/core/extensions/spindle-host/chat-data';
import { PersonaLibrary, PERSONA_LIMITS } from '../../../electron/core/personas/persona-library';
import { anyCaller, callSpindle } from '../../helpers/spindle-call';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

function setup(open = true) {
  const sessions = new SessionStore({ dataDir: tempDir() });
  const session = sessions.create({ persona: { name: 'Kai', description: 'A traveller.' } });
  const told: Array<[string, unknown]> = [];
  const reads = testChatReads(sessions, { activeSessionId: open ? session.id : null, broadcast: (event: string, payload: unknown) => void told.push([event, payload]) });
  const call = (method: string, ...args: unknown[]) => callSpindle(chatDataHandlers(() => reads), anyCaller('story_engine'), method, { args });
  return { sessions, session, told, call };
}

const failure = (promise: Promise<unknown>) => promise.then(() => null, (err: { error?: unknown }) => err.error);

describe('spindle.personas', () => {
  it("makes a persona of its own, lists it beside the chats' own, and switching to it makes it the open chat's persona", async () => {
    const { sessions, session, told, call } = setup();
    const made = (await call('personas.create', { name: 'Captain Mara', title: 'Player', description: 'A smuggler with debts.', metadata: { sheet: { str: 3 } } })) as { id: string };
    expect(made).toMatchObject({ name: 'Captain Mara', title: 'Player', description: 'A smuggler with debts.', is_default: false, metadata: { sheet: { str: 3 } }, image_id: null });
    const listed = (await call('personas.list')) as { data: Array<{ id: string; name: string }>; total: number };
    expect(listed.data.map((p) => p.name)).toEqual(['Kai', 'Captain Mara']);
    expect(await call('personas.get', made.id)).toMatchObject({ id: made.id, name: 'Captain Mara' });
    // Kept in the chats' database: a library opened on it again has it.
    expect(new PersonaLibrary(sessions.db, { now: () => 0 }).get(made.id)).toMatchObject({ name: 'Captain Mara' });

    expect(await call('personas.switchActive', made.id)).toBeNull();
    expect(sessions.get(session.id).persona).toEqual({ name: 'Captain Mara', description: 'A smuggler with debts.' });
    expect(told.at(-1)).toEqual(['PERSONA_CHANGED', { id: `persona-${session.id}`, persona: expect.objectContaining({ name: 'Captain Mara' }) }]);
    expect(await call('personas.getActive')).toMatchObject({ id: `persona-${session.id}`, name: 'Captain Mara', is_default: true });
    // null: Lumiverse clears its active persona; a chat here keeps its own.
    expect(await call('personas.switchActive', null)).toBeNull();
    expect(sessions.get(session.id).persona.name).toBe('Captain Mara');
  });

  it("edits a chat's own persona in place and one of its own in full; deletes only its own", async () => {
    const { sessions, session, call } = setup();
    expect(await call('personas.update', `persona-${session.id}`, { description: 'A traveller, level 2.' })).toMatchObject({ name: 'Kai', description: 'A traveller, level 2.' });
    expect(sessions.get(session.id).persona.description).toBe('A traveller, level 2.');
    const made = (await call('personas.create', { name: 'Mara' })) as { id: string };
    expect(await call('personas.update', made.id, { folder: 'Story', metadata: { level: 2 } })).toMatchObject({ name: 'Mara', folder: 'Story', metadata: { level: 2 } });
    expect(await call('personas.delete', `persona-${session.id}`)).toBe(false);
    expect(await call('personas.delete', made.id)).toBe(true);
    expect(await call('personas.get', made.id)).toBeNull();
  });

  it('refuses with the field: no name, a persona that is none, no open chat to switch, metadata past its cap; nothing changes', async () => {
    const { sessions, session, call } = setup(false);
    expect(await failure(call('personas.create', { name: '  ' }))).toMatchObject({ code: 'INVALID_INPUT', path: '/input/name' });
    expect(await failure(call('personas.create', { title: 'no name' }))).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await failure(call('personas.create', { name: 'Big', metadata: { blob: 'x'.repeat(PERSONA_LIMITS.maxMetadataChars) } }))).toMatchObject({ code: 'INPUT_TOO_LARGE', path: '/input/metadata' });
    expect(await failure(call('personas.update', 'nobody', { name: 'X' }))).toMatchObject({ code: 'NOT_FOUND', path: '/personaId' });
    const made = (await call('personas.create', { name: 'Mara' })) as { id: string };
    expect(await failure(call('personas.switchActive', made.id))).toMatchObject({ code: 'NOT_FOUND', path: '/personaId' });
    expect(sessions.get(session.id).persona.name).toBe('Kai');
    expect(((await call('personas.list')) as { total: number }).total).toBe(2);
  });
});
