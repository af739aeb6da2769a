// A local model is a connection like any other: added to the library, named by a connection of type local, it
// answers a chat turn through the host (streamed, saved, Stop), lists as the connection's model, and its failures are
// the chat's errors with their codes. The model is the tiny random-weight GGUF the test writes.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatSession } from '../../../shared/types/chat';
import type { LocalModelInfo } from '../../../shared/types/local-models';
import { writeTinyGguf } from '../../fixtures/local-model/tiny-gguf';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { chatEvents, chatRig, finished, newSession, send, type ChatRig } from '../chat/helpers';

let rig: ChatRig;
let gguf: string;

beforeEach(async () => {
  rig = await chatRig();
  gguf = writeTinyGguf(path.join(tempDir('cw-gguf-'), 'tiny-random-llama.gguf'));
});
afterEach(async () => {
  await rig.close();
  cleanupTempDirs();
});

async function addLocal(): Promise<LocalModelInfo> {
  const added = await rig.call('models.add', { path: gguf });
  if (!added.ok) throw new Error(JSON.stringify(added.error));
  const model = added.value as LocalModelInfo;
  const saved = await rig.call('connections.save', { profile: { id: 'mine', name: 'Mine', provider: 'local', baseUrl: 'local:models', defaultModel: model.id } });
  if (!saved.ok) throw new Error(JSON.stringify(saved.error));
  await rig.host.settings.update({ chat: { mainConnectionId: 'mine', model: '', inlineMaxRounds: 3, dryRun: false } });
  return model;
}

// Generations on the CPU from the tiny GGUF: each test's bound is for a loaded 2-core machine (the suite beside other
// work took over 20 s for five plans), not a figure.
describe('a local model as a connection', { timeout: 120_000 }, () => {
  it('the library adds a GGUF with what its header says; the connection lists it as its model', async () => {
    const model = await addLocal();
    expect(model).toMatchObject({ id: 'tiny-random-llama', name: 'tiny-random-llama', architecture: 'llama', contextLength: 2048, sizeBytes: fs.statSync(gguf).size, source: { kind: 'file' } });
    expect((await rig.call('models.add', { path: gguf })).value).toEqual(model);
    expect(await rig.call('connections.models', { id: 'mine' })).toMatchObject({ ok: true, value: { models: ['tiny-random-llama'] } });
    expect(await rig.call('connections.test', { id: 'mine' })).toMatchObject({ ok: true, value: { ok: true, models: ['tiny-random-llama'] } });
  });

  it('answers a chat turn: streamed, saved, with its usage', async () => {
    await addLocal();
    const sessionId = await newSession(rig);
    await rig.call('chat.sessions.update', { sessionId, patch: { sampling: { maxTokens: 12 } } });
    const { text, done } = await send(rig, sessionId, 'Hello, model.');
    expect(done).toMatchObject({ finishReason: 'length' });
    expect(done.usage?.outputTokens).toBe(12);
    expect(text.length).toBeGreaterThan(0);
    const session = (await rig.call('chat.sessions.get', { sessionId })).value as ChatSession;
    expect(session.messages.at(-1)).toMatchObject({ role: 'assistant', content: text });
  });

  it('Stop ends a local reply; the next one runs', async () => {
    await addLocal();
    const sessionId = await newSession(rig);
    await rig.call('chat.sessions.update', { sessionId, patch: { sampling: { maxTokens: 4000 } } });
    const started = await rig.call('chat.send', { sessionId, text: 'Tell me everything.' });
    const turnId = (started.value as { turnId: string }).turnId;
    for (let i = 0; i < 2000 && !chatEvents(rig, turnId).some((e) => e.type === 'chat.delta'); i++) await new Promise((r) => setTimeout(r, 10));
    await rig.call('chat.stop', { sessionId });
    expect(await finished(rig, turnId)).toMatchObject({ finishReason: 'stopped' });
    await rig.call('chat.sessions.update', { sessionId, patch: { sampling: { maxTokens: 3 } } });
    expect((await send(rig, sessionId, 'Short, please.')).done).toMatchObject({ finishReason: 'length' });
  });

  it('a model gone from disk, or not in the library, fails the turn with LLM_MODEL_LOAD_FAILED and says which', async () => {
    await addLocal();
    const sessionId = await newSession(rig);
    fs.rmSync(gguf);
    expect((await rig.call('models.list', {})).value).toMatchObject([{ id: 'tiny-random-llama', missing: true }]);
    const gone = await send(rig, sessionId, 'Anyone?');
    expect(gone.done.error).toMatchObject({ code: 'LLM_MODEL_LOAD_FAILED', message: expect.stringContaining('is gone') });
    await rig.call('connections.save', { profile: { id: 'mine', name: 'Mine', provider: 'local', baseUrl: 'local:models', defaultModel: 'no-such-model' } });
    const unknown = await send(rig, sessionId, 'Anyone?');
    expect(unknown.done.error).toMatchObject({ code: 'LLM_MODEL_LOAD_FAILED', message: expect.stringContaining('no-such-model') });
  });

  it('bad input: a file that is not a GGUF, a folder, a missing path; a local connection with an address', async () => {
    const text = path.join(tempDir('cw-notgguf-'), 'notes.gguf');
    fs.writeFileSync(text, 'just text');
    expect(await rig.call('models.add', { path: text })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/path' } });
    expect(await rig.call('models.add', { path: path.dirname(text) })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: '/path' } });
    expect(await rig.call('models.add', { path: path.join(path.dirname(text), 'absent.gguf') })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await rig.call('models.remove', { id: 'absent' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await rig.call('connections.save', { profile: { name: 'x', provider: 'local', baseUrl: 'http://127.0.0.1:1/v1', defaultModel: 'm' } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/baseUrl' } });
    expect((await rig.call('models.list', {})).value).toEqual([]);
  });

  it('remove forgets a model picked on disk and leaves its file', async () => {
    const model = await addLocal();
    expect(await rig.call('models.remove', { id: model.id })).toMatchObject({ ok: true, value: { deletedFile: false } });
    expect(fs.existsSync(gguf)).toBe(true);
    expect((await rig.call('models.list', {})).value).toEqual([]);
  });
});
