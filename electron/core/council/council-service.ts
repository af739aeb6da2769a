// The council: members and settings (in settings.council), dice, runs (cycle → block → stored run), retry, abort, profiles.
import { randomBytes, randomUUID } from 'node:crypto';
import { fail } from '../../../shared/errors';
import type { HostEvent } from '../../../shared/events';
import type {
  CouncilChat,
  CouncilMember,
  CouncilRun,
  CouncilSettings,
  CouncilToolResult,
  CouncilToolsSettings,
  CouncilView,
  InlineTool,
  MemberView,
  PlannedCall,
  ProfileSummary,
} from '../../../shared/types/council';
import type { ToolInfo } from '../../../shared/types/tools';
import type { Clock, Logger } from '../ports';
import type { PackStore } from '../packs/pack-store';
import { avatarUrlOf } from '../packs/pack-store';
import type { ToolRegistry } from '../registry/tool-registry';
import type { CycleToolRunner } from './execute-cycle';
import { readSafetySettings } from '../../../shared/types/safety';
import type { SettingsStore } from '../settings/settings-store';
import { BUILTIN_SOURCE_ID } from './builtin-tools';
import { buildCouncilContext, buildMemberContext, type ResolvedItem } from './context';
import { formatDeliberation, formatHistory, type HistoryEntry } from './deliberation';
import { randomSeed, rollMembers, type RollOutcome } from './dice';
import { runCycle, type CycleTask, type CycleTimers } from './execute-cycle';
import { MAX_IN_FLIGHT_PER_WORKER } from '../../../shared/protocol/limits';
import { KeyedLimiter } from './limiter';
import { ProfileStore } from './profiles';
import { installPromptTools, packToolQualifiedName } from './prompt-tool-source';
import { RUN_ID_PATTERN, RunStore } from './run-store';
import { unconfiguredSidecar, type SidecarPort } from './sidecar-port';
import { assertChance, assertCouncilSettings, normalizeCouncil } from './validate-council';

export const DEFAULT_SIDECAR_CONCURRENCY = 4;

export interface CouncilServiceDeps {
  dataDir: string;
  settings: SettingsStore;
  registry: ToolRegistry;
  /** The guarded invoker: every council tool call goes through approvals, path checks, dry run and cache. */
  tools: CycleToolRunner;
  packs: PackStore;
  clock: Clock;
  log: Logger;
  emit(event: HostEvent): void;
  sidecar?: SidecarPort;
  /** Concurrent sidecar LLM calls per connection (prompt tools and argument planning). */
  sidecarConcurrency?: number;
  timers?: CycleTimers;
  /** A fresh 32-bit seed when a run names none. */
  seedSource?: () => number;
  newId?: () => string;
}

export interface MemberInput {
  packId: string;
  itemId: string;
  role?: string;
  chance?: number;
  tools?: string[];
  toolHistoryRetention?: Record<string, number>;
  allowedReadPaths?: string[];
  allowedWritePaths?: string[];
}

export interface MemberPatch {
  packId?: string;
  itemId?: string;
  role?: string;
  chance?: number;
  tools?: string[];
  toolHistoryRetention?: Record<string, number>;
  allowedReadPaths?: string[];
  allowedWritePaths?: string[];
}

export interface CouncilSettingsPatch {
  councilMode?: boolean;
  atLeastOneMember?: boolean;
  toolsSettings?: Partial<CouncilToolsSettings>;
}

export interface RunInput {
  chat: CouncilChat;
  seed?: number;
  /** Chosen by the caller so it can abort before council.run returns. */
  runId?: string;
  /** A regeneration of the same message: reuse the chat's last results when retainResultsForRegens is on. */
  regen?: boolean;
  /** Simulate write tools; default settings.safety.dryRun. */
  dryRun?: boolean;
}

interface ActiveRun {
  controller: AbortController;
}

const RECENT_RUNS = 20;

export class CouncilService {
  readonly runs: RunStore;
  readonly profiles: ProfileStore;
  private sidecar: SidecarPort;
  private readonly limiter: KeyedLimiter;
  private readonly sourceLimiter = new KeyedLimiter(MAX_IN_FLIGHT_PER_WORKER);
  private readonly active = new Map<string, ActiveRun>();
  /** The chat each running council run is for. */
  private readonly chatsInRun = new Map<string, CouncilChat>();
  /** Chats of recent runs, for retry without the caller resending them. */
  private readonly recentChats = new Map<string, CouncilChat>();
  private readonly uninstallPromptTools: () => void;
  private readonly offs: Array<() => void> = [];
  private changeQueued = false;
  private disposed = false;

  constructor(private readonly deps: CouncilServiceDeps) {
    this.sidecar = deps.sidecar ?? unconfiguredSidecar;
    this.limiter = new KeyedLimiter(deps.sidecarConcurrency ?? DEFAULT_SIDECAR_CONCURRENCY);
    this.runs = new RunStore(deps.dataDir, deps.log);
    this.profiles = new ProfileStore(deps.dataDir);
    this.uninstallPromptTools = installPromptTools({
      registry: deps.registry,
      packs: deps.packs,
      sidecar: () => this.sidecar,
      limiter: this.limiter,
      settings: () => this.settings().toolsSettings,
      log: deps.log,
    });
    this.offs.push(
      deps.packs.onChange(() => {
        deps.emit({ type: 'packs.changed', packs: this.packSummaries() });
        this.queueChanged();
      }),
      deps.registry.onEvent(() => this.queueChanged()),
      deps.settings.onChange(() => this.queueChanged()),
    );
  }

  /** The other services plug the real sidecar in (connections + sidecarSettings). */
  setSidecar(port: SidecarPort): void {
    this.sidecar = port;
    this.queueChanged();
  }

  private queueChanged(): void {
    if (this.changeQueued || this.disposed) return;
    this.changeQueued = true;
    queueMicrotask(() => {
      this.changeQueued = false;
      if (!this.disposed) this.deps.emit({ type: 'council.changed', council: this.view() });
    });
  }

  // ------------------------------------------------------------------------------------------
  // Settings and members

  settings(): CouncilSettings {
    return normalizeCouncil(this.deps.settings.get().council);
  }

  /**
   * Every council change is computed inside the settings queue from the document as it is then, so
   * concurrent changes (50 adds at once, two windows) never overwrite each other; a change that throws
   * writes nothing.
   */
  private async mutate(change: (current: CouncilSettings) => CouncilSettings): Promise<CouncilView> {
    await this.deps.settings.update((doc) => ({ ...doc, council: structuredClone(assertCouncilSettings(change(normalizeCouncil(doc.council)))) }));
    return this.view();
  }

  isPromptTool(info: ToolInfo): boolean {
    if (info.source !== 'builtin') return false;
    const source = info.qualifiedName.slice(0, info.qualifiedName.indexOf(':'));
    return source === BUILTIN_SOURCE_ID || source.startsWith('pack.');
  }

  private resolveItem(member: Pick<CouncilMember, 'packId' | 'itemId'>): ResolvedItem | null {
    const found = this.deps.packs.item(member.packId, member.itemId);
    return found ? { packName: found.pack.name, item: found.item, avatarUrl: avatarUrlOf(found.pack.id, found.item) } : null;
  }

  private memberName(member: CouncilMember): string {
    return this.resolveItem(member)?.item.name ?? member.itemId;
  }

  view(): CouncilView {
    const settings = this.settings();
    const warnings: string[] = [];
    const members: MemberView[] = settings.members.map((m) => {
      const resolved = this.resolveItem(m);
      const toolViews = m.tools.map((q) => {
        const info = this.deps.registry.get(q);
        return {
          qualifiedName: q,
          displayName: info?.displayName ?? q,
          kind: !info ? ('extension' as const) : this.isPromptTool(info) ? ('prompt' as const) : info.source,
          missing: !info,
          available: info?.status === 'available',
          retention: m.toolHistoryRetention?.[q] ?? 0,
        };
      });
      const missingTools = toolViews.filter((t) => t.missing).map((t) => t.qualifiedName);
      const name = resolved?.item.name ?? m.itemId;
      if (!resolved) warnings.push(`${name}: pack item ${m.packId}/${m.itemId} is missing.`);
      for (const q of missingTools) warnings.push(`${name}: tool ${q} is not registered.`);
      return {
        id: m.id,
        packId: m.packId,
        itemId: m.itemId,
        role: m.role,
        chance: m.chance,
        tools: [...m.tools],
        toolHistoryRetention: { ...(m.toolHistoryRetention ?? {}) },
        name,
        packName: resolved?.packName ?? null,
        avatarUrl: resolved?.avatarUrl ?? null,
        missingItem: !resolved,
        missingTools,
        toolViews,
        ...(m.allowedReadPaths ? { allowedReadPaths: [...m.allowedReadPaths] } : {}),
        ...(m.allowedWritePaths ? { allowedWritePaths: [...m.allowedWritePaths] } : {}),
      };
    });
    const sidecarConfigured = this.sidecar.isConfigured();
    if (!sidecarConfigured && settings.toolsSettings.mode === 'sidecar' && settings.members.some((m) => m.tools.length > 0)) {
      warnings.push('No sidecar LLM is configured: prompt tools and tools that need planned arguments will fail.');
    }
    return { settings, members, warnings, sidecarConfigured };
  }

  async update(patch: CouncilSettingsPatch): Promise<CouncilView> {
    return this.mutate((current) => {
      const next: CouncilSettings = {
        ...current,
        ...(patch.councilMode === undefined ? {} : { councilMode: patch.councilMode }),
        ...(patch.atLeastOneMember === undefined ? {} : { atLeastOneMember: patch.atLeastOneMember }),
        toolsSettings: { ...current.toolsSettings, ...stripUndefined(patch.toolsSettings ?? {}) },
      };
      if (next.councilMode && !current.councilMode && next.members.length === 0) {
        fail('INVALID_INPUT', 'Add at least one member before turning Council Mode on.', { path: '/councilMode' });
      }
      return next;
    });
  }

  private newMemberId(): string {
    return this.deps.newId?.() ?? `m-${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  }

  private checkMember(input: MemberInput | MemberPatch, at: string): void {
    if (input.chance !== undefined) assertChance(input.chance, `${at}/chance`);
    for (const [q, n] of Object.entries(input.toolHistoryRetention ?? {})) {
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 10) {
        fail('INVALID_INPUT', `Retention for ${q} must be a whole number from 0 to 10.`, { path: `${at}/toolHistoryRetention/${q}` });
      }
    }
  }

  async addMember(input: MemberInput): Promise<{ memberId: string; council: CouncilView }> {
    this.checkMember(input, '');
    if (!this.deps.packs.item(input.packId, input.itemId)) {
      fail('NOT_FOUND', `No item "${input.itemId}" in pack "${input.packId}".`, { path: '/itemId', hint: 'List packs with packs.list.' });
    }
    const member: CouncilMember = {
      id: this.newMemberId(),
      packId: input.packId,
      itemId: input.itemId,
      role: input.role ?? '',
      chance: input.chance ?? 100,
      tools: dedupe(input.tools ?? []),
    };
    if (input.toolHistoryRetention) member.toolHistoryRetention = { ...input.toolHistoryRetention };
    if (input.allowedReadPaths) member.allowedReadPaths = [...input.allowedReadPaths];
    if (input.allowedWritePaths) member.allowedWritePaths = [...input.allowedWritePaths];
    const council = await this.mutate((current) => ({ ...current, members: [...current.members, member] }));
    return { memberId: member.id, council };
  }

  async setMember(memberId: string, patch: MemberPatch): Promise<CouncilView> {
    this.checkMember(patch, '/patch');
    return this.mutate((current) => {
      const index = current.members.findIndex((m) => m.id === memberId);
      if (index < 0) fail('NOT_FOUND', `No member "${memberId}".`, { path: '/memberId' });
      const before = current.members[index]!;
      const next: CouncilMember = { ...before, ...stripUndefined(patch) };
      if (patch.tools) next.tools = dedupe(patch.tools);
      if (patch.toolHistoryRetention) next.toolHistoryRetention = { ...(before.toolHistoryRetention ?? {}), ...patch.toolHistoryRetention };
      const members = [...current.members];
      members[index] = next;
      return { ...current, members };
    });
  }

  async removeMember(memberId: string): Promise<CouncilView> {
    return this.mutate((current) => {
      if (!current.members.some((m) => m.id === memberId)) fail('NOT_FOUND', `No member "${memberId}".`, { path: '/memberId' });
      const members = current.members.filter((m) => m.id !== memberId);
      return { ...current, members, councilMode: members.length > 0 && current.councilMode };
    });
  }

  async reorderMembers(memberIds: string[]): Promise<CouncilView> {
    return this.mutate((current) => {
      const byId = new Map(current.members.map((m) => [m.id, m]));
      if (memberIds.length !== current.members.length || new Set(memberIds).size !== memberIds.length || memberIds.some((id) => !byId.has(id))) {
        fail('INVALID_INPUT', 'memberIds must list every current member exactly once.', { path: '/memberIds' });
      }
      return { ...current, members: memberIds.map((id) => byId.get(id)!) };
    });
  }

  /** Adds every item of the pack as a member (items already on the council are skipped). */
  async quickAddPack(input: { packId: string; chance?: number; tools?: string[]; role?: string }): Promise<CouncilView> {
    if (input.chance !== undefined) assertChance(input.chance, '/chance');
    const stored = this.deps.packs.get(input.packId);
    if (!stored) fail('NOT_FOUND', `No pack "${input.packId}".`, { path: '/packId' });
    return this.mutate((current) => {
      const have = new Set(current.members.map((m) => `${m.packId}/${m.itemId}`));
      const added: CouncilMember[] = stored.pack.items
        .filter((item) => !have.has(`${stored.pack.id}/${item.id}`))
        .map((item) => ({
          id: this.newMemberId(),
          packId: stored.pack.id,
          itemId: item.id,
          role: input.role ?? roleFromItemId(item.id),
          chance: input.chance ?? 100,
          tools: dedupe(input.tools ?? []),
        }));
      return { ...current, members: [...current.members, ...added] };
    });
  }

  // ------------------------------------------------------------------------------------------
  // Profiles

  saveProfile(name: string): ProfileSummary {
    return this.profiles.save(name, this.settings(), this.deps.clock.now());
  }

  async loadProfile(name: string): Promise<CouncilView> {
    const council = this.profiles.get(name).council;
    return this.mutate(() => council);
  }

  // ------------------------------------------------------------------------------------------
  // Dice and runs

  testRoll(seed?: number): RollOutcome & { active: string[] } {
    const settings = this.settings();
    const outcome = rollMembers(settings.members, seed ?? this.newSeed(), {
      atLeastOneMember: settings.atLeastOneMember,
      nameOf: (m) => this.memberName(m),
    });
    return { ...outcome, active: outcome.rolls.filter((r) => r.active).map((r) => r.memberId) };
  }

  private newSeed(): number {
    return (this.deps.seedSource ?? (() => randomSeed(() => randomBytes(4).readUInt32BE(0) / 4294967296)))() >>> 0;
  }

  private newRunId(): string {
    return `run-${this.deps.clock.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  }

  abort(runId: string): boolean {
    const run = this.active.get(runId);
    if (!run) return false;
    run.controller.abort();
    return true;
  }

  /** Inline mode: one function per member × tool with an argument schema, for the main model (Lumiverse naming). */
  inlineTools(): InlineTool[] {
    const out: InlineTool[] = [];
    for (const m of this.settings().members) {
      const name = this.memberName(m);
      for (const q of m.tools) {
        const info = this.deps.registry.get(q);
        if (!info || this.isPromptTool(info) || info.status !== 'available') continue;
        out.push({
          name: `${m.id.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 8)}_${info.name}`.slice(0, 64),
          description: `[${name}${m.role ? ` - ${m.role}` : ''}] ${info.description}`,
          parameters: info.parameters,
          qualifiedName: q,
          memberId: m.id,
        });
      }
    }
    return out;
  }

  async run(input: RunInput): Promise<CouncilRun> {
    const settings = this.settings();
    const runId = this.claimRunId(input.runId);
    const seed = input.seed === undefined ? this.newSeed() : input.seed >>> 0;
    const controller = new AbortController();
    this.active.set(runId, { controller });
    this.chatsInRun.set(runId, input.chat);
    try {
      const ts = settings.toolsSettings;
      const chatId = input.chat.chatId ?? null;
      if (input.regen && ts.retainResultsForRegens && chatId !== null) {
        const last = this.runs.list(10, chatId).find((r) => r.status === 'completed' || r.status === 'reused');
        const previous = last ? this.runs.tryGet(last.id) : null;
        if (previous) return this.finishReused(runId, previous, input.chat);
      }
      const rolled = rollMembers(settings.members, seed, { atLeastOneMember: settings.atLeastOneMember, nameOf: (m) => this.memberName(m) });
      if (ts.mode === 'inline') {
        return this.finishEmpty(runId, seed, rolled, input.chat, 'inline', 'Inline mode: council tools are offered to the main model during generation (council.inlineTools); nothing runs before it.');
      }
      const byId = new Map(settings.members.map((m) => [m.id, m]));
      const tasks: CycleTask[] = [];
      for (const roll of rolled.rolls) {
        if (!roll.active) continue;
        tasks.push(...this.tasksFor(byId.get(roll.memberId)!));
      }
      const dryRun = input.dryRun ?? readSafetySettings(this.deps.settings.get().safety).dryRun;
      return await this.execute({ runId, seed, rolled, chat: input.chat, settings, tasks, controller, retryOf: null, previous: null, dryRun });
    } finally {
      this.active.delete(runId);
      this.chatsInRun.delete(runId);
    }
  }

  /** The chat of the latest run still going (extensions' chats.getActive answers it during a run). */
  runningChat(): CouncilChat | null {
    return [...this.chatsInRun.values()].pop() ?? null;
  }

  /** Re-runs only the failed tools of a run (no new dice roll); successes are kept. A new run records the retry. */
  async retryFailed(sourceRunId: string): Promise<CouncilRun> {
    const source = this.runs.get(sourceRunId);
    const chat = this.recentChats.get(sourceRunId) ?? source.chat;
    if (!chat) fail('NOT_FOUND', `The chat of run "${sourceRunId}" is no longer available.`, { path: '/runId' });
    const settings = this.settings();
    const runId = this.claimRunId(undefined);
    const controller = new AbortController();
    this.active.set(runId, { controller });
    try {
      const byId = new Map(settings.members.map((m) => [m.id, m]));
      const tasks: CycleTask[] = source.results
        .filter((r) => !r.success)
        .map((r) => {
          const member = byId.get(r.memberId);
          if (!member) {
            return {
              memberId: r.memberId,
              memberName: r.memberName,
              qualifiedName: r.toolName,
              displayName: r.toolDisplayName,
              member: buildMemberContext({ id: r.memberId, packId: '', itemId: r.memberName, role: '', chance: 0, tools: [] }, null),
              missing: 'This member was removed from the council.',
            };
          }
          return this.taskFor(member, r.toolName);
        });
      const rolled: RollOutcome = { seed: source.seed, rolls: source.rolls, fallbackUsed: source.fallbackUsed };
      const dryRun = source.dryRun ?? readSafetySettings(this.deps.settings.get().safety).dryRun;
      return await this.execute({ runId, seed: source.seed, rolled, chat, settings, tasks, controller, retryOf: source.id, previous: source.results, dryRun });
    } finally {
      this.active.delete(runId);
    }
  }

  private claimRunId(requested: string | undefined): string {
    const runId = requested ?? this.newRunId();
    if (!RUN_ID_PATTERN.test(runId)) fail('INVALID_INPUT', 'runId must be 1–80 letters, digits, "_" or "-".', { path: '/runId' });
    if (this.active.has(runId) || (requested !== undefined && this.runs.list(1_000).some((r) => r.id === runId))) {
      fail('CONFLICT', `Run id "${runId}" is already used.`, { path: '/runId' });
    }
    return runId;
  }

  private tasksFor(member: CouncilMember): CycleTask[] {
    return member.tools.map((q) => this.taskFor(member, q));
  }

  private taskFor(member: CouncilMember, q: string): CycleTask {
    const resolved = this.resolveItem(member);
    const info = this.deps.registry.get(q);
    const memberName = resolved?.item.name ?? member.itemId;
    const task: CycleTask = {
      memberId: member.id,
      memberName,
      qualifiedName: q,
      displayName: info?.displayName ?? q,
      member: buildMemberContext(member, resolved),
    };
    if (!resolved) task.missing = `Pack item ${member.packId}/${member.itemId} is missing, so ${memberName} cannot run its tools.`;
    else if (!info) task.missing = `Tool "${q}" is not registered (its extension may be removed or stopped).`;
    return task;
  }

  private async execute(args: {
    runId: string;
    seed: number;
    rolled: RollOutcome;
    chat: CouncilChat;
    settings: CouncilSettings;
    tasks: CycleTask[];
    controller: AbortController;
    retryOf: string | null;
    /** Retry: the earlier results; failed ones are replaced in place by this cycle's, in order. */
    previous: CouncilToolResult[] | null;
    dryRun: boolean;
  }): Promise<CouncilRun> {
    const { runId, settings, tasks, chat } = args;
    const ts = settings.toolsSettings;
    const startedAt = this.deps.clock.now();
    const planned: PlannedCall[] = tasks.map((t) => ({ memberId: t.memberId, memberName: t.memberName, toolName: t.qualifiedName, toolDisplayName: t.displayName }));
    this.deps.emit({
      type: 'council.run.started',
      runId,
      seed: args.seed,
      startedAt,
      mode: ts.mode,
      timeoutMs: ts.timeoutMs,
      rolls: args.rolled.rolls,
      planned,
      retryOf: args.retryOf,
    });
    const context = buildCouncilContext(chat, ts);
    const cycle = await runCycle(
      {
        registry: this.deps.registry,
        tools: this.deps.tools,
        sidecar: this.sidecar,
        limiter: this.limiter,
        sourceLimiter: this.sourceLimiter,
        clock: this.deps.clock,
        ...(this.deps.timers ? { timers: this.deps.timers } : {}),
        isPromptTool: (info) => this.isPromptTool(info),
      },
      {
        tasks,
        mode: ts.mode,
        timeoutMs: ts.timeoutMs,
        contextMessages: context.messages,
        context: context.flat,
        signal: args.controller.signal,
        dryRun: args.dryRun,
        planArguments: ts.planArguments !== false,
        onResult: (result) => this.deps.emit({ type: 'council.run.result', runId, result }),
      },
    );
    const fresh = cycle.results;
    let k = 0;
    const results = args.previous === null ? fresh : args.previous.map((r) => (r.success ? r : fresh[k++]!));
    const nonce = randomBytes(6).toString('hex');
    const memberOrder = settings.members.map((m) => m.id);
    const deliberationBlock = formatDeliberation({ results, memberOrder, nonce });
    const historyBlock = this.history(settings, chat.chatId ?? null, runId, nonce);
    const okCount = results.filter((r) => r.success).length;
    const run: CouncilRun = {
      id: runId,
      startedAt,
      totalDurationMs: cycle.totalDurationMs,
      status: cycle.aborted ? 'aborted' : 'completed',
      mode: ts.mode,
      seed: args.seed,
      rolls: args.rolled.rolls,
      fallbackUsed: args.rolled.fallbackUsed,
      results,
      deliberationBlock,
      historyBlock,
      note: noteFor(settings, args.rolled, results, cycle.aborted),
      chatId: chat.chatId ?? null,
      retryOf: args.retryOf,
      timeoutMs: ts.timeoutMs,
      counts: { ok: okCount, failed: results.length - okCount, total: results.length },
      ...(args.dryRun ? { dryRun: true } : {}),
    };
    return this.store(run, chat);
  }

  private store(run: CouncilRun, chat: CouncilChat): CouncilRun {
    this.recentChats.set(run.id, chat);
    while (this.recentChats.size > RECENT_RUNS) this.recentChats.delete(this.recentChats.keys().next().value!);
    void this.runs.save({ ...run, chat });
    this.deps.emit({ type: 'council.run.finished', runId: run.id, run });
    return run;
  }

  private finishEmpty(runId: string, seed: number, rolled: RollOutcome, chat: CouncilChat, status: 'inline', note: string): CouncilRun {
    const ts = this.settings().toolsSettings;
    const run: CouncilRun = {
      id: runId,
      startedAt: this.deps.clock.now(),
      totalDurationMs: 0,
      status,
      mode: ts.mode,
      seed,
      rolls: rolled.rolls,
      fallbackUsed: rolled.fallbackUsed,
      results: [],
      deliberationBlock: '',
      historyBlock: '',
      note,
      chatId: chat.chatId ?? null,
      retryOf: null,
      timeoutMs: ts.timeoutMs,
      counts: { ok: 0, failed: 0, total: 0 },
    };
    this.deps.emit({ type: 'council.run.started', runId, seed, startedAt: run.startedAt, mode: ts.mode, timeoutMs: ts.timeoutMs, rolls: rolled.rolls, planned: [], retryOf: null });
    return this.store(run, chat);
  }

  private finishReused(runId: string, previous: CouncilRun, chat: CouncilChat): CouncilRun {
    const run: CouncilRun = {
      ...previous,
      id: runId,
      startedAt: this.deps.clock.now(),
      totalDurationMs: 0,
      status: 'reused',
      retryOf: previous.id,
      note: `Regeneration: reused the results of run ${previous.id} (retain results for regens is on).`,
    };
    delete (run as { chat?: unknown }).chat;
    this.deps.emit({ type: 'council.run.started', runId, seed: run.seed, startedAt: run.startedAt, mode: run.mode, timeoutMs: run.timeoutMs, rolls: run.rolls, planned: [], retryOf: previous.id });
    return this.store(run, chat);
  }

  /** Earlier successful results for member × tool pairs with retention > 0, newest first, from this chat's previous runs. */
  private history(settings: CouncilSettings, chatId: string | null, runId: string, nonce: string): string {
    const wanted = new Map<string, number>();
    for (const m of settings.members) for (const [q, n] of Object.entries(m.toolHistoryRetention ?? {})) if (n > 0) wanted.set(`${m.id}\n${q}`, n);
    if (wanted.size === 0) return '';
    const maxN = Math.max(...wanted.values());
    const previous = this.runs
      .list(maxN * 4 + 10, chatId ?? undefined)
      .filter((r) => r.id !== runId && r.status === 'completed' && (chatId !== null || r.chatId === null))
      .slice(0, maxN);
    const entries: HistoryEntry[] = [];
    previous.forEach((summary, i) => {
      const run = this.runs.tryGet(summary.id);
      if (!run) return;
      for (const r of run.results) {
        const key = `${r.memberId}\n${r.toolName}`;
        const n = wanted.get(key);
        if (!r.success || n === undefined || i + 1 > n) continue;
        entries.push({ ago: i + 1, memberName: r.memberName, toolDisplayName: r.toolDisplayName, content: r.content });
      }
    });
    return formatHistory(entries, nonce);
  }

  packSummaries() {
    return this.deps.packs.all().map((s) => this.deps.packs.summary(s, packToolQualifiedName));
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const run of this.active.values()) run.controller.abort();
    for (const off of this.offs) off();
    this.uninstallPromptTools();
    await this.runs.flush();
  }
}

function noteFor(settings: CouncilSettings, rolled: RollOutcome, results: CouncilToolResult[], aborted: boolean): string | null {
  if (aborted) return 'The run was cancelled; tools still running were stopped.';
  if (settings.members.length === 0) return 'The council has no members.';
  if (!rolled.rolls.some((r) => r.active)) {
    const withTools = rolled.rolls.filter((r) => r.reason !== 'no-tools').length;
    return withTools === 0 ? 'No member has any tools assigned.' : `No member passed their dice roll (${withTools} rolled).`;
  }
  if (results.length === 0) return 'The active members have no tools to run.';
  const failed = results.filter((r) => !r.success);
  if (failed.length === results.length) {
    const counts = new Map<string, number>();
    for (const r of failed) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
    return `No tool succeeded: ${[...counts].map(([s, n]) => `${n} ${s}`).join(', ')}.`;
  }
  if (failed.length) return `${failed.length} of ${results.length} tools failed; their output is left out of the block.`;
  return null;
}

function dedupe(list: string[]): string[] {
  return [...new Set(list)];
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A quick-added member's role when none is given: pack items are named for the part they play ("plot-enforcer" → "Plot Enforcer"). */
function roleFromItemId(itemId: string): string {
  return itemId
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ')
    .slice(0, 200);
}
