// The council service: settings and members (changed inside the settings queue), dice, runs (cycle → block → stored run), retry, abort, profiles.
import { randomBytes, randomUUID } from 'node:crypto';
import { fail } from '../../../shared/errors';
import type { HostEvent } from '../../../shared/events';
import type { CouncilChat, CouncilMember, CouncilRun, CouncilSettings, CouncilToolResult, CouncilView, InlineTool, PlannedCall, ProfileSummary } from '../../../shared/types/council';
import type { ToolInfo } from '../../../shared/types/tools';
import type { Clock, Logger } from '../ports';
import type { PackStore } from '../packs/pack-store';
import { avatarUrlOf } from '../packs/pack-store';
import type { ToolRegistry } from '../registry/tool-registry';
import type { CycleToolRunner } from './execute-cycle';
import { readSafetySettings } from '../../../shared/types/safety';
import type { SettingsStore } from '../settings/settings-store';
import { BUILTIN_SOURCE_ID } from './builtin-tools';
import { buildCouncilContext, type ResolvedItem } from './context';
import { councilView, type MemberLookup } from './council-view';
import { inlineFunctions } from './inline-functions';
import { randomSeed, rollMembers, type RollOutcome } from './dice';
import { retryTasks, tasksOfRoll } from './council-tasks';
import { runCycle, type CycleTask, type CycleTimers } from './execute-cycle';
import { MAX_IN_FLIGHT_PER_WORKER } from '../../../shared/protocol/limits';
import { KeyedLimiter } from './limiter';
import { ProfileStore } from './profiles';
import { installPromptTools, packToolQualifiedName } from './prompt-tool-source';
import { RUN_ID_PATTERN, RunStore } from './run-store';
import { unconfiguredSidecar, type SidecarPort } from './sidecar-port';
import { assertChance, assertCouncilSettings, normalizeCouncil } from './validate-council';
import { checkMember, newMember, patchMember, patchSettings, reordered, withoutMember, withPackMembers } from './roster';
import type { CouncilSettingsPatch, MemberInput, MemberPatch, QuickAddInput } from './roster';
import { completedRun, forSameMessage, historyBlock, inlineRun, reusedRun, runStarted } from './run-record';

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

export type { MemberInput, MemberPatch, CouncilSettingsPatch } from './roster';

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

const RECENT_RUNS = 20;

export class CouncilService {
  readonly runs: RunStore;
  readonly profiles: ProfileStore;
  private sidecar: SidecarPort;
  private readonly limiter: KeyedLimiter;
  private readonly sourceLimiter = new KeyedLimiter(MAX_IN_FLIGHT_PER_WORKER);
  /** The abort controller of each run going on. */
  private readonly active = new Map<string, AbortController>();
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
    return normalizeCouncil(this.deps.settings.peek().council); // it copies what it keeps: no clone of all settings needed
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

  /** Members' pack items and tools as they are at the time of asking. */
  private readonly lookup: MemberLookup = {
    item: (member) => this.resolveItem(member),
    tool: (q) => this.deps.registry.get(q),
    isPromptTool: (info) => this.isPromptTool(info),
  };

  private memberName(member: CouncilMember): string {
    return this.resolveItem(member)?.item.name ?? member.itemId;
  }

  view(): CouncilView {
    return councilView(this.settings(), this.lookup, this.sidecar.isConfigured());
  }

  async update(patch: CouncilSettingsPatch): Promise<CouncilView> {
    return this.mutate((current) => patchSettings(current, patch));
  }

  private newMemberId(): string {
    return this.deps.newId?.() ?? `m-${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  }

  async addMember(input: MemberInput): Promise<{ memberId: string; council: CouncilView }> {
    checkMember(input, '');
    if (!this.deps.packs.item(input.packId, input.itemId)) {
      fail('NOT_FOUND', `No item "${input.itemId}" in pack "${input.packId}".`, { path: '/itemId', hint: 'List packs with packs.list.' });
    }
    const member = newMember(this.newMemberId(), input);
    const council = await this.mutate((current) => ({ ...current, members: [...current.members, member] }));
    return { memberId: member.id, council };
  }

  async setMember(memberId: string, patch: MemberPatch): Promise<CouncilView> {
    checkMember(patch, '/patch');
    return this.mutate((current) => patchMember(current, memberId, patch));
  }

  async removeMember(memberId: string): Promise<CouncilView> {
    return this.mutate((current) => withoutMember(current, memberId));
  }

  async reorderMembers(memberIds: string[]): Promise<CouncilView> {
    return this.mutate((current) => reordered(current, memberIds));
  }

  /** Adds every item of the pack as a member (items already on the council are skipped). */
  async quickAddPack(input: QuickAddInput): Promise<CouncilView> {
    if (input.chance !== undefined) assertChance(input.chance, '/chance');
    const stored = this.deps.packs.get(input.packId);
    if (!stored) fail('NOT_FOUND', `No pack "${input.packId}".`, { path: '/packId' });
    return this.mutate((current) => withPackMembers(current, stored, input, () => this.newMemberId()));
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
    const controller = this.active.get(runId);
    controller?.abort();
    return controller !== undefined;
  }

  /** Inline mode: the functions the chat offers the main model, as it names them. */
  inlineTools(): InlineTool[] {
    return inlineFunctions(this.settings(), this.lookup);
  }

  async run(input: RunInput): Promise<CouncilRun> {
    const settings = this.settings();
    const runId = this.claimRunId(input.runId);
    const seed = input.seed === undefined ? this.newSeed() : input.seed >>> 0;
    const controller = new AbortController();
    this.active.set(runId, controller);
    this.chatsInRun.set(runId, input.chat);
    try {
      const ts = settings.toolsSettings;
      const chatId = input.chat.chatId ?? null;
      if (input.regen && ts.retainResultsForRegens && chatId !== null) {
        const last = this.runs.list(10, chatId).find((r) => r.status === 'completed' || r.status === 'reused');
        const previous = last ? this.runs.tryGet(last.id) : null;
        if (previous && forSameMessage(previous, input.chat)) return this.finishWithoutCalls(reusedRun(runId, previous, this.deps.clock.now()), input.chat);
      }
      const rolled = rollMembers(settings.members, seed, { atLeastOneMember: settings.atLeastOneMember, nameOf: (m) => this.memberName(m) });
      if (ts.mode === 'inline') {
        const note = 'Inline mode: council tools are offered to the main model during generation (council.inlineTools); nothing runs before it.';
        return this.finishWithoutCalls(inlineRun({ runId, seed, rolled, settings, startedAt: this.deps.clock.now(), chatId, note }), input.chat);
      }
      const tasks = tasksOfRoll(settings, rolled, this.lookup);
      const dryRun = input.dryRun ?? readSafetySettings(this.deps.settings.peek().safety).dryRun;
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
    this.active.set(runId, controller);
    try {
      const tasks = retryTasks(source, settings, this.lookup);
      const rolled: RollOutcome = { seed: source.seed, rolls: source.rolls, fallbackUsed: source.fallbackUsed };
      const dryRun = source.dryRun ?? readSafetySettings(this.deps.settings.peek().safety).dryRun;
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
    this.deps.emit(runStarted({ id: runId, seed: args.seed, startedAt, mode: ts.mode, timeoutMs: ts.timeoutMs, rolls: args.rolled.rolls, retryOf: args.retryOf }, planned));
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
    let k = 0;
    const results = args.previous === null ? cycle.results : args.previous.map((r) => (r.success ? r : cycle.results[k++]!));
    const nonce = randomBytes(6).toString('hex');
    const chatId = chat.chatId ?? null;
    const run = completedRun({
      runId,
      seed: args.seed,
      rolled: args.rolled,
      settings,
      startedAt,
      totalDurationMs: cycle.totalDurationMs,
      aborted: cycle.aborted,
      results,
      chatId,
      retryOf: args.retryOf,
      dryRun: args.dryRun,
      nonce,
      historyBlock: historyBlock(this.runs, settings, chatId, runId, nonce),
    });
    return this.store(run, chat);
  }

  private store(run: CouncilRun, chat: CouncilChat): CouncilRun {
    this.recentChats.set(run.id, chat);
    while (this.recentChats.size > RECENT_RUNS) this.recentChats.delete(this.recentChats.keys().next().value!);
    void this.runs.save({ ...run, chat });
    this.deps.emit({ type: 'council.run.finished', runId: run.id, run });
    return run;
  }

  /** A run that called nothing (inline, reused) still starts, is stored and finishes like any other. */
  private finishWithoutCalls(run: CouncilRun, chat: CouncilChat): CouncilRun {
    this.deps.emit(runStarted(run));
    return this.store(run, chat);
  }

  packSummaries() {
    return this.deps.packs.all().map((s) => this.deps.packs.summary(s, packToolQualifiedName));
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const controller of this.active.values()) controller.abort();
    for (const off of this.offs) off();
    this.uninstallPromptTools();
    await this.runs.flush();
  }
}

