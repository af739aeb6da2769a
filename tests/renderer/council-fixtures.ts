// An in-memory council for the fake host: council.*, runs.* and packs.* answered like the real core (enough for the panel).
import type { MethodInput } from '../../shared/contract';
import type { Result } from '../../shared/errors';
import {
  COUNCIL_TOOLS_DEFAULTS,
  type CouncilMember,
  type CouncilRoll,
  type CouncilRun,
  type CouncilSettings,
  type CouncilToolResult,
  type CouncilView,
  type MemberView,
  type PackSummary,
  type ProfileSummary,
  type RunSummary,
} from '../../shared/types/council';
import type { FakeHost } from './harness';
import { tool } from './harness';

export const SVG_AVATAR = 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=';

export function pack(partial: Partial<PackSummary> = {}): PackSummary {
  return {
    id: 'story-council',
    name: 'Story Council',
    version: '1.0.0',
    author: 'Council Workbench',
    description: 'Three structural editors.',
    source: 'bundled',
    items: [
      { id: 'plot-enforcer', name: 'Marshal Vane', definition: 'd', personality: 'p', behavior: 'b', genderIdentity: 1, avatarUrl: '/packs/story-council/items/plot-enforcer/avatar' },
      { id: 'continuity-keeper', name: 'Archivist Wren', definition: 'd', personality: 'p', behavior: 'b', genderIdentity: 0, avatarUrl: null },
      { id: 'pacing-critic', name: 'Tempo', definition: 'd', personality: 'p', behavior: 'b', genderIdentity: 2, avatarUrl: null },
    ],
    tools: [{ name: 'stakes_check', displayName: 'Stakes Check', description: 'States what each character stands to gain or lose.', qualifiedName: 'pack.story-council:stakes_check' }],
    ...partial,
  };
}

export const TOOLS = [
  tool(),
  tool({
    name: 'roll_dice',
    displayName: 'Roll Dice',
    extensionId: 'dice-and-stats',
    description: 'Rolls dice in standard notation.',
  }),
  tool({ name: 'read_notes', displayName: 'Read Scratchpad', extensionId: 'scratchpad', description: 'Returns the most recent notes.', parameters: { type: 'object', properties: {} } }),
  tool({ name: 'append_note', displayName: 'Append to Scratchpad', extensionId: 'scratchpad', description: 'Appends a note.', councilEligible: false, mode: 'write' }),
  tool({ name: 'continuity_check', displayName: 'Continuity Check', extensionId: null, source: 'builtin', description: 'Finds contradictions.' }),
  tool({ name: 'stakes_check', displayName: 'Stakes Check', extensionId: null, source: 'builtin', description: 'States the stakes.' }),
].map((t) => {
  // The real core names prompt tools council:<name> and pack.<id>:<name>.
  if (t.name === 'continuity_check') return { ...t, qualifiedName: 'council:continuity_check' };
  if (t.name === 'stakes_check') return { ...t, qualifiedName: 'pack.story-council:stakes_check' };
  return t;
});

export function member(partial: Partial<CouncilMember> = {}): CouncilMember {
  return { id: 'm-vane', packId: 'story-council', itemId: 'plot-enforcer', role: 'Plot', chance: 75, tools: ['knowledge-base:search_knowledge_base'], ...partial };
}

export interface FakeCouncil {
  settings: CouncilSettings;
  packs: PackSummary[];
  profiles: Map<string, { savedAt: number; council: CouncilSettings }>;
  runs: CouncilRun[];
  sidecarConfigured: boolean;
  /** The next testRoll / run draws, per member id (default 50). */
  rolls: Record<string, number>;
  view(): CouncilView;
  /** When set, council.run waits for this instead of answering at once. */
  runGate: Promise<void> | null;
}

function rollAll(c: FakeCouncil, seed: number): { rolls: CouncilRoll[]; fallbackUsed: boolean } {
  const names = new Map(c.view().members.map((m) => [m.id, m.name]));
  const rolls = c.settings.members.map<CouncilRoll>((m) => {
    const roll = c.rolls[m.id] ?? 50;
    const name = names.get(m.id) ?? m.itemId;
    if (m.tools.length === 0) return { memberId: m.id, memberName: name, chance: m.chance, roll, active: false, reason: 'no-tools' };
    if (m.chance >= 100) return { memberId: m.id, memberName: name, chance: m.chance, roll, active: true, reason: 'always' };
    if (m.chance <= 0) return { memberId: m.id, memberName: name, chance: m.chance, roll, active: false, reason: 'never' };
    return { memberId: m.id, memberName: name, chance: m.chance, roll, active: roll < m.chance, reason: 'rolled' };
  });
  void seed;
  return { rolls, fallbackUsed: false };
}

export function summaryOf(run: CouncilRun): RunSummary {
  return {
    id: run.id,
    startedAt: run.startedAt,
    totalDurationMs: run.totalDurationMs,
    status: run.status,
    seed: run.seed,
    chatId: run.chatId,
    retryOf: run.retryOf,
    activeMembers: run.rolls.filter((r) => r.active).length,
    counts: run.counts,
  };
}

export function result(partial: Partial<CouncilToolResult> = {}): CouncilToolResult {
  return {
    memberId: 'm-vane',
    memberName: 'Marshal Vane',
    toolName: 'knowledge-base:search_knowledge_base',
    toolDisplayName: 'Search Knowledge Base',
    success: true,
    content: 'Found 2 entries.',
    durationMs: 120,
    startedAt: 0,
    status: 'ok',
    ...partial,
  };
}

export function storedRun(partial: Partial<CouncilRun> = {}): CouncilRun {
  const results = partial.results ?? [result()];
  const ok = results.filter((r) => r.success).length;
  return {
    id: 'run-1',
    startedAt: Date.UTC(2026, 0, 2, 9, 0),
    totalDurationMs: 400,
    status: 'completed',
    mode: 'sidecar',
    seed: 42,
    rolls: [{ memberId: 'm-vane', memberName: 'Marshal Vane', chance: 75, roll: 12.5, active: true, reason: 'rolled' }],
    fallbackUsed: false,
    results,
    deliberationBlock: '## Council Deliberation\n\n### Feedback perspective: **Marshal Vane**',
    historyBlock: '',
    note: null,
    chatId: 'council-panel-sample',
    retryOf: null,
    timeoutMs: 1000,
    counts: { ok, failed: results.length - ok, total: results.length },
    ...partial,
  };
}

/** Installs the council methods on `host`; returns the state for tests to arrange and inspect. */
export function installCouncil(host: FakeHost, init: Partial<Pick<FakeCouncil, 'settings' | 'packs' | 'runs' | 'sidecarConfigured'>> = {}): FakeCouncil {
  if (host.tools.length === 0) host.tools = TOOLS.map((t) => ({ ...t }));
  const c: FakeCouncil = {
    settings: init.settings ?? { councilMode: false, members: [member()], toolsSettings: { ...COUNCIL_TOOLS_DEFAULTS }, atLeastOneMember: false },
    packs: init.packs ?? [pack()],
    profiles: new Map(),
    runs: init.runs ?? [],
    sidecarConfigured: init.sidecarConfigured ?? false,
    rolls: {},
    runGate: null,
    view(): CouncilView {
      const warnings: string[] = [];
      const members = c.settings.members.map<MemberView>((m) => {
        const p = c.packs.find((x) => x.id === m.packId);
        const item = p?.items.find((i) => i.id === m.itemId);
        const toolViews = m.tools.map((q) => {
          const info = host.tools.find((t) => t.qualifiedName === q);
          return { qualifiedName: q, displayName: info?.displayName ?? q, kind: 'extension' as const, missing: !info, available: info?.status === 'available', retention: 0 };
        });
        const missingTools = toolViews.filter((t) => t.missing).map((t) => t.qualifiedName);
        const name = item?.name ?? m.itemId;
        if (!item) warnings.push(`${name}: pack item ${m.packId}/${m.itemId} is missing.`);
        for (const q of missingTools) warnings.push(`${name}: tool ${q} is not registered.`);
        return {
          ...m,
          toolHistoryRetention: {},
          name,
          packName: p?.name ?? null,
          avatarUrl: item?.avatarUrl ?? null,
          missingItem: !item,
          missingTools,
          toolViews,
        };
      });
      return { settings: structuredClone(c.settings), members, warnings, sidecarConfigured: c.sidecarConfigured };
    },
  };
  const ok = <T>(value: T): Result<T> => ({ ok: true, value });
  const notFound = (message: string): Result<never> => ({ ok: false, error: { code: 'NOT_FOUND', message } });
  let nextId = 1;
  let nextRun = 1;
  const h = host.handlers;

  h['council.get'] = () => ok(c.view());
  h['council.update'] = ({ patch }) => {
    if (patch.councilMode && c.settings.members.length === 0) return { ok: false, error: { code: 'INVALID_INPUT', message: 'Add at least one member before turning Council Mode on.', path: '/councilMode' } };
    c.settings = {
      ...c.settings,
      ...(patch.councilMode === undefined ? {} : { councilMode: patch.councilMode }),
      ...(patch.atLeastOneMember === undefined ? {} : { atLeastOneMember: patch.atLeastOneMember }),
      toolsSettings: { ...c.settings.toolsSettings, ...(patch.toolsSettings ?? {}) },
    };
    return ok(c.view());
  };
  h['council.addMember'] = (input) => {
    const m: CouncilMember = { id: `m-new-${nextId++}`, packId: input.packId, itemId: input.itemId, role: input.role ?? '', chance: input.chance ?? 100, tools: input.tools ?? [] };
    c.settings.members.push(m);
    return ok({ memberId: m.id, council: c.view() });
  };
  h['council.setMember'] = ({ memberId, patch }) => {
    const m = c.settings.members.find((x) => x.id === memberId);
    if (!m) return notFound(`No member "${memberId}".`);
    Object.assign(m, patch);
    return ok(c.view());
  };
  h['council.removeMember'] = ({ memberId }) => {
    c.settings.members = c.settings.members.filter((m) => m.id !== memberId);
    return ok(c.view());
  };
  h['council.reorderMembers'] = ({ memberIds }) => {
    c.settings.members = memberIds.map((id) => c.settings.members.find((m) => m.id === id)!);
    return ok(c.view());
  };
  h['council.quickAddPack'] = ({ packId, chance }) => {
    const p = c.packs.find((x) => x.id === packId);
    if (!p) return notFound(`No pack "${packId}".`);
    for (const item of p.items) {
      if (c.settings.members.some((m) => m.packId === packId && m.itemId === item.id)) continue;
      c.settings.members.push({ id: `m-new-${nextId++}`, packId, itemId: item.id, role: '', chance: chance ?? 100, tools: [] });
    }
    return ok(c.view());
  };
  h['council.testRoll'] = ({ seed }) => {
    const s = seed ?? 3735928559;
    const { rolls, fallbackUsed } = rollAll(c, s);
    return ok({ seed: s, rolls, fallbackUsed, active: rolls.filter((r) => r.active).map((r) => r.memberId) });
  };
  h['council.run'] = async (input: MethodInput<'council.run'>) => {
    const id = input.runId ?? `run-${nextRun++}`;
    const seed = input.seed ?? 7;
    const { rolls } = rollAll(c, seed);
    const startedAt = Date.now();
    const planned = rolls
      .filter((r) => r.active)
      .flatMap((r) => c.settings.members.find((m) => m.id === r.memberId)!.tools.map((q) => ({ memberId: r.memberId, memberName: r.memberName, toolName: q, toolDisplayName: host.tools.find((t) => t.qualifiedName === q)?.displayName ?? q })));
    host.emit({ type: 'council.run.started', runId: id, seed, startedAt, mode: c.settings.toolsSettings.mode, timeoutMs: c.settings.toolsSettings.timeoutMs, rolls, planned, retryOf: null });
    if (c.runGate) await c.runGate;
    const results = planned.map((p) => result({ memberId: p.memberId, memberName: p.memberName, toolName: p.toolName, toolDisplayName: p.toolDisplayName }));
    for (const r of results) host.emit({ type: 'council.run.result', runId: id, result: r });
    const run = storedRun({ id, seed, startedAt, rolls, results, timeoutMs: c.settings.toolsSettings.timeoutMs });
    c.runs.unshift(run);
    host.emit({ type: 'council.run.finished', runId: id, run });
    return ok(run);
  };
  h['council.retryFailed'] = ({ runId }) => {
    const source = c.runs.find((r) => r.id === runId);
    if (!source) return notFound(`No run "${runId}".`);
    const id = `run-retry-${nextRun++}`;
    const fresh = source.results.filter((r) => !r.success).map((r) => ({ ...r, success: true, status: 'ok' as const, content: 'Retried fine.', error: undefined, errorCode: undefined }));
    host.emit({ type: 'council.run.started', runId: id, seed: source.seed, startedAt: Date.now(), mode: source.mode, timeoutMs: source.timeoutMs, rolls: source.rolls, planned: fresh, retryOf: runId });
    for (const r of fresh) host.emit({ type: 'council.run.result', runId: id, result: r });
    const run = storedRun({ ...source, id, retryOf: runId, results: [...source.results.filter((r) => r.success), ...fresh] });
    c.runs.unshift(run);
    host.emit({ type: 'council.run.finished', runId: id, run });
    return ok(run);
  };
  h['council.abort'] = () => ok({ aborted: true });
  h['council.profiles.list'] = () => ok([...c.profiles].map<ProfileSummary>(([name, p]) => ({ name, savedAt: p.savedAt, members: p.council.members.length })));
  h['council.profiles.save'] = ({ name }) => {
    c.profiles.set(name, { savedAt: Date.UTC(2026, 0, 2), council: structuredClone(c.settings) });
    return ok({ name, savedAt: Date.UTC(2026, 0, 2), members: c.settings.members.length });
  };
  h['council.profiles.load'] = ({ name }) => {
    const p = c.profiles.get(name);
    if (!p) return notFound(`No profile "${name}".`);
    c.settings = structuredClone(p.council);
    return ok(c.view());
  };
  h['council.profiles.remove'] = ({ name }) => ok({ removed: c.profiles.delete(name) });
  h['council.profiles.export'] = ({ name }) => {
    const p = c.profiles.get(name);
    if (!p) return notFound(`No profile "${name}".`);
    return ok({ fileName: `${name}.council.json`, content: JSON.stringify({ name, ...p }, null, 2) });
  };
  h['council.profiles.import'] = ({ content, name }) => {
    let parsed: { name?: string; council?: CouncilSettings };
    try {
      parsed = JSON.parse(content) as typeof parsed;
    } catch {
      return { ok: false, error: { code: 'INVALID_INPUT', message: 'Not JSON.', path: '/content' } };
    }
    if (!parsed.council) return { ok: false, error: { code: 'INVALID_INPUT', message: 'council is required.', path: '/council' } };
    const n = name ?? parsed.name ?? 'Imported';
    c.profiles.set(n, { savedAt: 1, council: parsed.council });
    return ok({ name: n, savedAt: 1, members: parsed.council.members.length });
  };
  h['runs.list'] = () => ok(c.runs.map(summaryOf));
  h['runs.get'] = ({ runId }) => {
    const run = c.runs.find((r) => r.id === runId);
    return run ? ok(structuredClone(run)) : notFound(`No run "${runId}".`);
  };
  h['runs.exportTrace'] = ({ runId }) => {
    const run = c.runs.find((r) => r.id === runId);
    if (!run) return notFound(`No run "${runId}".`);
    return ok({ fileName: `${runId}.trace.jsonl`, content: run.results.map((r) => JSON.stringify({ type: 'tool_result', runId, ...r })).join('\n') });
  };
  h['packs.list'] = () => ok(structuredClone(c.packs));
  h['packs.avatar'] = ({ packId, itemId }) => {
    const item = c.packs.find((p) => p.id === packId)?.items.find((i) => i.id === itemId);
    if (!item) return notFound('no item');
    return ok({ dataUrl: item.avatarUrl ? SVG_AVATAR : null });
  };
  h['chat.sessions.list'] = () => ok([]);
  return c;
}
