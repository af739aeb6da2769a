// Host → renderer council events: live run progress and council/pack changes.
import type { CouncilMode, CouncilRoll, CouncilRun, CouncilToolResult, CouncilView, PackSummary, PlannedCall } from './council';

export type CouncilEvent =
  /** Members, settings, packs or tools changed: `council` is the new council.get view. */
  | { type: 'council.changed'; council: CouncilView }
  | { type: 'packs.changed'; packs: PackSummary[] }
  /** A run began: who rolled what, and the tool calls about to run (pending rows for the timeline). */
  | {
      type: 'council.run.started';
      runId: string;
      seed: number;
      /** Epoch ms; each result's startedAt is an offset from this. */
      startedAt: number;
      mode: CouncilMode;
      timeoutMs: number;
      rolls: CouncilRoll[];
      planned: PlannedCall[];
      retryOf: string | null;
    }
  /** One tool finished (ok, error, timeout, cancelled or missing), in completion order. */
  | { type: 'council.run.result'; runId: string; result: CouncilToolResult }
  /** The run is over; `run` is what runs.get returns (without the chat). */
  | { type: 'council.run.finished'; runId: string; run: CouncilRun };
