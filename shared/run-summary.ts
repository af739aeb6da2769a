// A council run's line in the runs list: what the host's run index keeps and what the window adds when a run ends.
import type { CouncilRun, RunSummary } from './types/council';

export function summarizeRun(run: CouncilRun): RunSummary {
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
