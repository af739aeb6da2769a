// Council runs: the dice rolled, the active members' tools run as one cycle, the deliberation block and the stored
// run; a regeneration's reuse of the last results, a retry of only the failed tools, and aborting a run going on.
import { randomBytes } from 'node:crypto';
import { fail } from '../../../shared/errors';
import type { CouncilChat, CouncilMember, CouncilRun, CouncilSettings, CouncilToolResult, PlannedCall } from '../../../shared/types/council';
import { readSafetySettings } from '../../../shared/types/safety';
import { MAX_IN_FLIGHT_PER_WORKER } from '../../../shared/protocol/limits';
import { buildCouncilContext } from './context';
import type { MemberLookup } from './council-view';
import { rollMembers, type RollOutcome } from './dice';
import { retryTasks, tasksOfRoll } from './council-tasks';
import { runCycle, type CycleTask } from './execute-cycle';
import { KeyedLimiter } from './limiter';
import { RUN_ID_PATTERN, type RunStore } from './run-store';
import type { SidecarPort } from './sidecar-port';
import { completedRun, forSameMessage, historyBlock, inlineRun, reusedRun, runStarted } from './run-record';
import type { HostEvent } from '../../../shared/contract/events';
import type { Clock } from '../ports';
import type { ToolRegistry } from '../registry/tool-registry';
import type { SettingsStore } from '../settings/settings-store';
import type { CycleTimers, CycleToolRunner } from './execute-cycle';

const RECENT_RUNS = 20;

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

export interface CouncilRunsDeps {
  registry: ToolRegistry;
  /** The guarded invoker: every council tool call goes through approvals, path checks, dry run and cache. */
  tools: CycleToolRunner;
  clock: Clock;
  emit(event: HostEvent): void;
  timers?: CycleTimers;
  /** For the safety settings' dry run, read when a run starts. */
  settings: SettingsStore;
  runs: RunStore;
  sidecar(): SidecarPort;
  /** Sidecar calls per connection, shared with the prompt tools. */
  limiter: KeyedLimiter;
  lookup: MemberLookup;
  memberName(member: CouncilMember): string;
  newSeed(): number;
}

export class CouncilRuns {
  private readonly sourceLimiter = new KeyedLimiter(MAX_IN_FLIGHT_PER_WORKER);
  /** The abort controller of each run going on. */
  private readonly active = new Map<string, AbortController>();
  /** The chat each running council run is for. */
  private readonly chatsInRun = new Map<string, CouncilChat>();
  /** Chats of recent runs, for retry without the caller resending them. */
  private readonly recentChats = new Map<string, CouncilChat>();

  constructor(private readonly deps: CouncilRunsDeps) {}

  abort(runId: string): boolean {
    const controller = this.active.get(runId);
    controller?.abort();
    return controller !== undefined;
  }

  async run(input: RunInput, settings: CouncilSettings): Promise<CouncilRun> {
    const runId = this.claimRunId(input.runId);
    const seed = input.seed === undefined ? this.deps.newSeed() : input.seed >>> 0;
    const controller = new AbortController();
    this.active.set(runId, controller);
    this.chatsInRun.set(runId, input.chat);
    try {
      const ts = settings.toolsSettings;
      const chatId = input.chat.chatId ?? null;
      if (input.regen && ts.retainResultsForRegens && chatId !== null) {
        const last = this.deps.runs.list(10, chatId).find((r) => r.status === 'completed' || r.status === 'reused');
        const previous = last ? this.deps.runs.tryGet(last.id) : null;
        if (previous && forSameMessage(previous, input.chat)) return this.finishWithoutCalls(reusedRun(runId, previous, this.deps.clock.now()), input.chat);
      }
      const rolled = rollMembers(settings.members, seed, { atLeastOneMember: settings.atLeastOneMember, nameOf: (m) => this.deps.memberName(m) });
      if (ts.mode === 'inline') {
        const note = 'Inline mode: council tools are offered to the main model during generation (council.inlineTools); nothing runs before it.';
        return this.finishWithoutCalls(inlineRun({ runId, seed, rolled, settings, startedAt: this.deps.clock.now(), chatId, note }), input.chat);
      }
      const tasks = tasksOfRoll(settings, rolled, this.deps.lookup);
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
  async retryFailed(sourceRunId: string, settings: CouncilSettings): Promise<CouncilRun> {
    const source = this.deps.runs.get(sourceRunId);
    const chat = this.recentChats.get(sourceRunId) ?? source.chat;
    if (!chat) fail('NOT_FOUND', `The chat of run "${sourceRunId}" is no longer available.`, { path: '/runId' });
    const runId = this.claimRunId(undefined);
    const controller = new AbortController();
    this.active.set(runId, controller);
    try {
      const tasks = retryTasks(source, settings, this.deps.lookup);
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
    if (this.active.has(runId) || (requested !== undefined && this.deps.runs.list(1_000).some((r) => r.id === runId))) {
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
        sidecar: this.deps.sidecar(),
        limiter: this.deps.limiter,
        sourceLimiter: this.sourceLimiter,
        clock: this.deps.clock,
        ...(this.deps.timers ? { timers: this.deps.timers } : {}),
        isPromptTool: (info) => this.deps.lookup.isPromptTool(info),
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
      historyBlock: historyBlock(this.deps.runs, settings, chatId, runId, nonce),
    });
    return this.store(run, chat);
  }

  private store(run: CouncilRun, chat: CouncilChat): CouncilRun {
    this.recentChats.set(run.id, chat);
    while (this.recentChats.size > RECENT_RUNS) this.recentChats.delete(this.recentChats.keys().next().value!);
    void this.deps.runs.save({ ...run, chat });
    this.deps.emit({ type: 'council.run.finished', runId: run.id, run });
    return run;
  }

  /** A run that called nothing (inline, reused) still starts, is stored and finishes like any other. */
  private finishWithoutCalls(run: CouncilRun, chat: CouncilChat): CouncilRun {
    this.deps.emit(runStarted(run));
    return this.store(run, chat);
  }

  private newRunId(): string {
    return `run-${this.deps.clock.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  }

  /** Aborts every run going on (the host is shutting down). */
  abortAll(): void {
    for (const controller of this.active.values()) controller.abort();
  }
}
