// A case's council: its members as items of a small Lumia pack made for the case, each with the tools it names,
// Council Mode on in the mode asked for, and the sidecar (when the case gives its replies) on a replay server of
// its own. What the council did is read back from its stored run: the seed, every roll and the block.
import type { ExtensionTestCase } from '../../../shared/types/extension-test';
import type { MethodInput, MethodName, MethodOutput } from '../../../shared/contract';
import type { ReplayServer } from './replay-server';

type Call = <M extends MethodName>(method: M, input: MethodInput<M>) => Promise<MethodOutput<M>>;

export const DEFAULT_SEED = 1;
const PACK_ID = 'extension-test-council';

/** What the council did in the turn, for the snapshot. */
export interface CouncilSnapshot {
  seed: number;
  rolls: Array<{ member: string; chance: number; roll: number; active: boolean }>;
  block: string;
  note: string | null;
}

/** A tool named without its source is the extension's own. */
const qualified = (tool: string, extensionId: string) => (tool.includes(':') ? tool : `${extensionId}:${tool}`);

export async function setUpCouncil(call: Call, council: NonNullable<ExtensionTestCase['council']>, extensionId: string, sidecar: ReplayServer | null): Promise<void> {
  const items = council.members.map((m, i) => ({ id: `member-${i + 1}`, name: m.name, definition: '', personality: '', behavior: '', genderIdentity: 0 as const }));
  await call('packs.import', { content: JSON.stringify({ id: PACK_ID, name: 'Test case council', version: '1.0.0', items }) });
  for (const [i, member] of council.members.entries()) {
    await call('council.addMember', { packId: PACK_ID, itemId: items[i]!.id, role: member.role ?? '', chance: member.chance ?? 100, tools: member.tools.map((t) => qualified(t, extensionId)) });
  }
  await call('council.update', { patch: { councilMode: true, toolsSettings: { mode: council.mode ?? 'sidecar' } } });
  if (sidecar) {
    await call('connections.save', { profile: { id: 'replay-sidecar', name: 'Replay sidecar', provider: 'openai-compatible', baseUrl: sidecar.baseUrl, defaultModel: 'replay' } });
    await call('sidecar.update', { patch: { connectionProfileId: 'replay-sidecar', model: 'replay' } });
  }
}

export async function councilOf(call: Call, runId: string | null): Promise<CouncilSnapshot | null> {
  if (!runId) return null;
  const run = await call('runs.get', { runId });
  return {
    seed: run.seed,
    rolls: run.rolls.map((r) => ({ member: r.memberName, chance: r.chance, roll: r.roll, active: r.active })),
    block: run.deliberationBlock,
    note: run.note,
  };
}
