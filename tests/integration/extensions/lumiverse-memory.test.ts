// spindle.memories and spindle.presets from a worker, as published extensions use them (a TypeScript backend built
// to ESM, Lumiverse's manifest and calls): an entity and its facts kept in the open chat's cortex, recalled with the
// chat's own messages, and a preset stamped with Lumiverse's revision retry, the conflict's fields reaching the
// extension's catch.
import { afterEach, describe, expect, it } from 'vitest';
import { sessionDocument } from '../../helpers/session-document';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { chatRig, type ChatRig } from '../chat/helpers';
import { fixture, toolJson, waitFor } from './harness';

const ID = 'lumiverse_memory';
let rig: ChatRig | null = null;

afterEach(async () => {
  await rig?.close();
  rig = null;
  cleanupTempDirs();
});

const tool = <T>(r: ChatRig, name: string, args: Record<string, unknown> = {}) => toolJson<T>(r.host.registry, `${ID}:${name}`, args);

describe('the memory cortex and presets from an extension', () => {
  it('keeps an entity and its facts in the open chat, recalls its messages by their words, and stamps a preset with one retry', async () => {
    rig = await chatRig();
    const r = rig;
    await r.host.extensions.installFromFolder(fixture(ID), { grant: 'requested', trust: true }, () => undefined);
    await waitFor(() => r.host.extensions.get(ID).status === 'running' && r.host.registry.list().some((t) => t.qualifiedName === `${ID}:stamp`), `${ID} to run`);

    const imported = await r.call('chat.sessions.import', {
      json: JSON.stringify(
        sessionDocument({
          id: 'greyport',
          title: 'Greyport',
          messages: [
            { id: 'a', role: 'user', content: 'Mara says the smugglers hide their boats under the old pier.', createdAt: 1 },
            { id: 'b', role: 'assistant', content: 'The innkeeper pours two cups of bitter tea.', createdAt: 2 },
          ],
        }),
      ),
    });
    expect(imported, JSON.stringify(imported)).toMatchObject({ ok: true });
    const sessionId = (imported as { value: { id: string } }).value.id;
    expect(await r.call('chat.sessions.open', { sessionId })).toMatchObject({ ok: true });

    expect(await tool(r, 'remember', { entity: 'Mara', facts: ['Knows the smugglers.'] })).toMatchObject({ created: true, name: 'Mara', facts: ['Knows the smugglers.'] });
    expect(await tool(r, 'remember', { entity: 'mara', facts: ['knows the smugglers.', 'Keeps the lamp.'] })).toMatchObject({ created: false, name: 'Mara', facts: ['Knows the smugglers.', 'Keeps the lamp.'] });
    expect(await tool(r, 'recall', { query: 'where are the smugglers boats?' })).toEqual({
      memories: ['Mara says the smugglers hide their boats under the old pier.'],
      entities: ['Mara: Knows the smugglers. Keeps the lamp.'],
      longTerm: 0,
    });

    const stamped = await tool<{ conflict: { code: string; actualCacheRevision: number; message: string }; revision: number; metadata: Record<string, unknown>; blocks: string[] }>(r, 'stamp');
    expect(stamped.conflict).toMatchObject({ code: 'PRESET_REVISION_CONFLICT', actualCacheRevision: 1 });
    expect(stamped.conflict.message).toMatch(/changed since revision 0; current revision is 1$/);
    expect(stamped).toMatchObject({ revision: 2, metadata: { keeper: { stamped: true } }, blocks: ['Main', 'Late'] });
    // Nothing it used was inert: these namespaces reach the host.
    expect(r.host.extensions.get(ID).inertTouched ?? []).toEqual([]);
  }, 60_000);
});
