// The stored record of one council run, as each way a run can end writes it (tools ran, inline mode ran nothing, a
// regeneration reused the last results), with its note for people and the history block from earlier runs.
import type { CouncilChat, CouncilRun, CouncilSettings, CouncilToolResult, PlannedCall } from '../../../shared/types/council';
import type { HostEvent } from '../../../shared/contract/events';
import { formatDeliberation, formatHistory, type HistoryEntry } from './deliberation';
import type { RollOutcome } from './dice';
import type { RunStore } from './run-store';

type RunStarted = Extract<HostEvent, { type: 'council.run.started' }>;

export interface FinishedCycle {
  runId: string;
  seed: number;
  rolled: RollOutcome;
  settings: CouncilSettings;
  startedAt: number;
  totalDurationMs: number;
  aborted: boolean;
  results: CouncilToolResult[];
  chatId: string | null;
  retryOf: string | null;
  dryRun: boolean;
  /** Fences the blocks; fresh per run so tool output cannot close them. */
  nonce: string;
  historyBlock: string;
}

export function completedRun(c: FinishedCycle): CouncilRun {
  const ts = c.settings.toolsSettings;
  const okCount = c.results.filter((r) => r.success).length;
  return {
    id: c.runId,
    startedAt: c.startedAt,
    totalDurationMs: c.totalDurationMs,
    status: c.aborted ? 'aborted' : 'completed',
    mode: ts.mode,
    seed: c.seed,
    rolls: c.rolled.rolls,
    fallbackUsed: c.rolled.fallbackUsed,
    results: c.results,
    deliberationBlock: formatDeliberation({ results: c.results, memberOrder: c.settings.members.map((m) => m.id), nonce: c.nonce }),
    historyBlock: c.historyBlock,
    note: noteFor(c.settings, c.rolled, c.results, c.aborted),
    chatId: c.chatId,
    retryOf: c.retryOf,
    timeoutMs: ts.timeoutMs,
    counts: { ok: okCount, failed: c.results.length - okCount, total: c.results.length },
    ...(c.dryRun ? { dryRun: true } : {}),
  };
}

/** Inline mode: the dice are rolled and stored, nothing runs before the main model. */
export function inlineRun(args: { runId: string; seed: number; rolled: RollOutcome; settings: CouncilSettings; startedAt: number; chatId: string | null; note: string }): CouncilRun {
  const ts = args.settings.toolsSettings;
  return {
    id: args.runId,
    startedAt: args.startedAt,
    totalDurationMs: 0,
    status: 'inline',
    mode: ts.mode,
    seed: args.seed,
    rolls: args.rolled.rolls,
    fallbackUsed: args.rolled.fallbackUsed,
    results: [],
    deliberationBlock: '',
    historyBlock: '',
    note: args.note,
    chatId: args.chatId,
    retryOf: null,
    timeoutMs: ts.timeoutMs,
    counts: { ok: 0, failed: 0, total: 0 },
  };
}

export function reusedRun(runId: string, previous: CouncilRun, startedAt: number): CouncilRun {
  const run: CouncilRun = {
    ...previous,
    id: runId,
    startedAt,
    totalDurationMs: 0,
    status: 'reused',
    retryOf: previous.id,
    note: `Regeneration: reused the results of run ${previous.id} (retain results for regens is on).`,
  };
  delete (run as { chat?: unknown }).chat;
  return run;
}

/** A regeneration reuses a run only if that run answered the same last message: a new message gets a fresh council. */
export function forSameMessage(previous: CouncilRun, chat: CouncilChat): boolean {
  const before = previous.chat?.messages;
  return before !== undefined && before.length === chat.messages.length && before.at(-1)?.content === chat.messages.at(-1)?.content;
}

/** The event a run starts with: its dice and the calls it plans (none for inline and reused runs). */
export function runStarted(run: Pick<CouncilRun, 'id' | 'seed' | 'startedAt' | 'mode' | 'timeoutMs' | 'rolls' | 'retryOf'>, planned: PlannedCall[] = []): RunStarted {
  return { type: 'council.run.started', runId: run.id, seed: run.seed, startedAt: run.startedAt, mode: run.mode, timeoutMs: run.timeoutMs, rolls: run.rolls, planned, retryOf: run.retryOf };
}

/** Earlier successful results for member × tool pairs with retention > 0, newest first, from this chat's previous runs. */
export function historyBlock(runs: RunStore, settings: CouncilSettings, chatId: string | null, runId: string, nonce: string): string {
  const wanted = new Map<string, number>();
  for (const m of settings.members) for (const [q, n] of Object.entries(m.toolHistoryRetention ?? {})) if (n > 0) wanted.set(`${m.id}\n${q}`, n);
  if (wanted.size === 0) return '';
  const maxN = Math.max(...wanted.values());
  const previous = runs
    .list(maxN * 4 + 10, chatId ?? undefined)
    .filter((r) => r.id !== runId && r.status === 'completed' && (chatId !== null || r.chatId === null))
    .slice(0, maxN);
  const entries: HistoryEntry[] = [];
  previous.forEach((summary, i) => {
    const run = runs.tryGet(summary.id);
    if (!run) return;
    for (const r of run.results) {
      const n = wanted.get(`${r.memberId}\n${r.toolName}`);
      if (!r.success || n === undefined || i + 1 > n) continue;
      entries.push({ ago: i + 1, memberName: r.memberName, toolDisplayName: r.toolDisplayName, content: r.content });
    }
  });
  return formatHistory(entries, nonce);
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
