// Regeneration reuse has one home, the council: a chat regeneration with retainResultsForRegens reuses the last run of
// the same message (tools not called again, a 'reused' run stored); off, or for a new message, the council runs again.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../../shared/types/council';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { addMainConnection, chatEvents, chatRig, echoExecutor, finished, newSession, send, withToolsSettings, type ChatRig } from './helpers';

let rig: ChatRig;
let calls: Array<Record<string, unknown>>;

beforeEach(async () => {
  rig = await chatRig();
  await addMainConnection(rig);
  calls = [];
  const registered = rig.host.registry.register(
    { kind: 'builtin', id: 'test' },
    { name: 'survey', display_name: 'Survey', description: 'Look around.', parameters: { type: 'object', properties: {} }, council_eligible: true, mode: 'read' },
    echoExecutor(calls),
  );
  if (!registered.ok) throw new Error(JSON.stringify(registered.error));
  const added = await rig.call('council.addMember', { packId: 'story-council', itemId: 'plot-enforcer', tools: [registered.value.qualifiedName] });
  if (!added.ok) throw new Error(JSON.stringify(added.error));
});
afterEach(async () => {
  await rig.close();
  cleanupTempDirs();
});

async function regenerate(sessionId: string) {
  rig.server.enqueue({ text: 'again' });
  const started = await rig.call('chat.regenerate', { sessionId, council: true });
  if (!started.ok) throw new Error(JSON.stringify(started.error));
  const turnId = (started.value as { turnId: string }).turnId;
  await finished(rig, turnId);
  return chatEvents(rig, turnId).find((e) => e.type === 'chat.council' && (e as { phase: string }).phase === 'completed') as { runId: string; reused: boolean };
}

const statuses = async () => ((await rig.call('runs.list', {})).value as RunSummary[]).map((r) => r.status).reverse();

describe('a chat regeneration and the council', () => {
  it('reuses the last run of the same message when retainResultsForRegens is on', async () => {
    await rig.host.settings.update((s) => withToolsSettings(s, { retainResultsForRegens: true }));
    const id = await newSession(rig);
    rig.server.enqueue({ text: 'first' });
    await send(rig, id, 'We reach the gate.', { council: true });
    expect(calls).toHaveLength(1);

    const again = await regenerate(id);
    expect(again.reused).toBe(true);
    expect(calls).toHaveLength(1);
    expect(await statuses()).toEqual(['completed', 'reused']);
    const sent = rig.server.generations.at(-1)!.body as { messages: Array<{ content: string }> };
    expect(sent.messages[0]!.content).toContain('Council Deliberation');

    rig.server.enqueue({ text: 'third' });
    await send(rig, id, 'We go through.', { council: true });
    expect(calls).toHaveLength(2);
    expect(await statuses()).toEqual(['completed', 'reused', 'completed']);
  });

  it('runs the council again when retainResultsForRegens is off', async () => {
    const id = await newSession(rig);
    rig.server.enqueue({ text: 'first' });
    await send(rig, id, 'We reach the gate.', { council: true });
    const again = await regenerate(id);
    expect(again.reused).toBe(false);
    expect(calls).toHaveLength(2);
    expect(await statuses()).toEqual(['completed', 'completed']);
  });
});
