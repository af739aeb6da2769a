// The council service: its settings and members (changed inside the settings queue), the dice, profiles, and its runs (council-runs.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import { fail } from '../../../shared/errors';
import type { HostEvent } from '../../../shared/contract/events';
import type { CouncilChat, CouncilMember, CouncilRun, CouncilSettings, CouncilView, InlineTool, ProfileSummary } from '../../../shared/types/council';
import type { ToolInfo } from '../../../shared/types/tools';
import type { Clock, Logger } from '../ports';
import type { PackStore } from '../packs/pack-store';
import { avatarUrlOf } from '../packs/pack-store';
import type { ToolRegistry } from '../registry/tool-registry';
import type { CycleToolRunner } from './execute-cycle';
import type { SettingsStore } from '../settings/settings-store';
import { BUILTIN_SOURCE_ID } from './builtin-tools';
import type { ResolvedItem } from './context';
import { councilView, type MemberLookup } from './council-view';
import { inlineFunctions } from './inline-functions';
import { randomSeed, rollMembers, type RollOutcome } from './dice';
import type { CycleTimers } from './execute-cycle';
import { KeyedLimiter } from './limiter';
import { ProfileStore } from './profiles';
import { installPromptTools, packToolQualifiedName } from './prompt-tool-source';
import { RunStore } from './run-store';
import { unconfiguredSidecar, type SidecarPort } from './sidecar-port';
import { assertChance, assertCouncilSettings, normalizeCouncil } from './validate-council';
import { checkMember, newMember, patchMember, patchSettings, reordered, withoutMember, withPackMembers } from './roster';
import type { CouncilSettingsPatch, MemberInput, MemberPatch, QuickAddInput } from './roster';
import type { Db } from '../db/chat-db';
import { CouncilRuns, type RunInput } from './council-runs';

export const DEFAULT_SIDECAR_CONCURRENCY = 4;


export interface CouncilServiceDeps {
  dataDir: string;
  /** The chats' database (the session store's connection: one writer), where runs are kept. */
  db: Db;
  /** Called after each write to it (its checkpoints). */
  dbCommitted?: () => void;
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
  /** A tool's source is set up here but not started (a data-only CLI command): its tools are unknown, not missing. */
  unstartedSource?: (sourceId: string) => boolean;
  /** A fresh 32-bit seed when a run names none. */
  seedSource?: () => number;
  newId?: () => string;
}

export type { MemberInput, MemberPatch, CouncilSettingsPatch } from './roster';

export type { RunInput } from './council-runs';

export class CouncilService {
  readonly runs: RunStore;
  readonly profiles: ProfileStore;
  private sidecar: SidecarPort;
  private readonly limiter: KeyedLimiter;
  private readonly runner: CouncilRuns;
  private readonly uninstallPromptTools: () => void;
  private readonly offs: Array<() => void> = [];
  private changeQueued = false;
  private disposed = false;

  constructor(private readonly deps: CouncilServiceDeps) {
    this.sidecar = deps.sidecar ?? unconfiguredSidecar;
    this.limiter = new KeyedLimiter(deps.sidecarConcurrency ?? DEFAULT_SIDECAR_CONCURRENCY);
    this.runs = new RunStore(deps.db, deps.dataDir, deps.log, deps.dbCommitted);
    this.profiles = new ProfileStore(deps.dataDir);
    this.uninstallPromptTools = installPromptTools({
      registry: deps.registry,
      packs: deps.packs,
      sidecar: () => this.sidecar,
      limiter: this.limiter,
      settings: () => this.settings().toolsSettings,
      log: deps.log,
    });
    this.runner = new CouncilRuns({
      ...deps,
      runs: this.runs,
      sidecar: () => this.sidecar,
      limiter: this.limiter,
      lookup: this.lookup,
      memberName: (member) => this.memberName(member),
      newSeed: () => this.newSeed(),
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
    unstarted: (q) => this.deps.unstartedSource?.(q.slice(0, q.indexOf(':'))) === true,
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


  /** Inline mode: the functions the chat offers the main model, as it names them. */
  inlineTools(): InlineTool[] {
    return inlineFunctions(this.settings(), this.lookup);
  }

  abort(runId: string): boolean {
    return this.runner.abort(runId);
  }

  /** Rolls the dice and runs the active members' tools (or reuses the last results of a regeneration). */
  run(input: RunInput): Promise<CouncilRun> {
    return this.runner.run(input, this.settings());
  }

  /** The chat of the latest run still going (extensions' chats.getActive answers it during a run). */
  runningChat(): CouncilChat | null {
    return this.runner.runningChat();
  }

  /** Re-runs only the failed tools of a run (no new dice roll); successes are kept. A new run records the retry. */
  retryFailed(sourceRunId: string): Promise<CouncilRun> {
    return this.runner.retryFailed(sourceRunId, this.settings());
  }

  packSummaries() {
    return this.deps.packs.all().map((s) => this.deps.packs.summary(s, packToolQualifiedName));
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.runner.abortAll();
    for (const off of this.offs) off();
    this.uninstallPromptTools();
    await this.runs.flush();
  }
}

