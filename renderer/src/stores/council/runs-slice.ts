// Runs slice: stored council runs (runs.list) and the traces of live and opened runs, filled in from council.run.* events.
import type { CouncilEvent } from '../../../../shared/types/council-events';
import type { CouncilMode, CouncilRoll, CouncilRun, CouncilToolResult, PlannedCall, RunSummary } from '../../../../shared/types/council';
import type { HostError } from '../../../../shared/errors';
import type { Slice } from '../app/slice';
import { summarizeRun } from '../../../../shared/run-summary';

/** Most traces kept in memory; the oldest finished ones that are not open go first. */
export const TRACES_CAP = 30;

/** One run as the timeline draws it: what council.run.started announced, the results so far, and the stored run once it is over. */
export interface RunTrace {
  id: string;
  /** Epoch ms; each result's startedAt is an offset from this. */
  startedAt: number;
  seed: number;
  mode: CouncilMode;
  timeoutMs: number;
  rolls: readonly CouncilRoll[];
  /** Calls announced at the start (empty for a run opened from storage). */
  planned: readonly PlannedCall[];
  retryOf: string | null;
  /** Results in arrival order; the finished run's results replace them. */
  results: readonly CouncilToolResult[];
  /** The finished run; null while it is running. */
  run: CouncilRun | null;
}

type StartedEvent = Extract<CouncilEvent, { type: 'council.run.started' }>;

export interface RunsSlice {
  runs: {
    /** Stored runs, newest first, as runs.list reported them (and finished runs since). */
    items: readonly RunSummary[];
    loaded: boolean;
    loadError: HostError | null;
    traces: Readonly<Record<string, RunTrace>>;
    /** The run the timeline shows. */
    openId: string | null;
    /** A retry was asked for: open the run that starts with this retryOf (its id is the host's to choose). */
    followRetryOf: string | null;
  };
  runsReplaced(list: readonly RunSummary[]): void;
  runsLoadFailed(error: HostError): void;
  runStarted(event: StartedEvent): void;
  runResult(runId: string, result: CouncilToolResult): void;
  /** A finished run (council.run.finished, or the answer of council.run / retryFailed / runs.get). */
  runFinished(run: CouncilRun): void;
  runOpened(runId: string | null): void;
  retryFollowed(sourceRunId: string | null): void;
}

function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

function hasOwn(record: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}

/** Adds or replaces one trace, dropping the oldest finished ones past the cap (never the open one or a running one). */
function withTrace(traces: Readonly<Record<string, RunTrace>>, trace: RunTrace, openId: string | null): Record<string, RunTrace> {
  const next: Record<string, RunTrace> = {};
  for (const [id, t] of Object.entries(traces)) if (id !== trace.id) setOwn(next, id, t);
  setOwn(next, trace.id, trace);
  const ids = Object.keys(next);
  if (ids.length > TRACES_CAP) {
    const removable = ids
      .filter((id) => id !== openId && id !== trace.id && next[id]!.run !== null)
      .sort((a, b) => next[a]!.startedAt - next[b]!.startedAt);
    for (const id of removable.slice(0, ids.length - TRACES_CAP)) delete next[id];
  }
  return next;
}

function traceOf(run: CouncilRun, previous: RunTrace | undefined): RunTrace {
  return {
    id: run.id,
    startedAt: run.startedAt,
    seed: run.seed,
    mode: run.mode,
    timeoutMs: run.timeoutMs,
    rolls: run.rolls,
    planned: previous?.planned ?? [],
    retryOf: run.retryOf,
    results: run.results,
    run,
  };
}

export const createRunsSlice: Slice<RunsSlice> = (set) => ({
  runs: { items: [], loaded: false, loadError: null, traces: {}, openId: null, followRetryOf: null },
  runsReplaced: (list) => set((s) => ({ runs: { ...s.runs, items: [...list], loaded: true, loadError: null } })),
  runsLoadFailed: (error) => set((s) => ({ runs: { ...s.runs, loadError: error } })),
  runStarted: (event) =>
    set((s) => {
      const trace: RunTrace = {
        id: event.runId,
        startedAt: event.startedAt,
        seed: event.seed,
        mode: event.mode,
        timeoutMs: event.timeoutMs,
        rolls: event.rolls,
        planned: event.planned,
        retryOf: event.retryOf,
        results: [],
        run: null,
      };
      const follow = s.runs.followRetryOf !== null && event.retryOf === s.runs.followRetryOf;
      const openId = follow ? event.runId : s.runs.openId;
      return {
        runs: { ...s.runs, traces: withTrace(s.runs.traces, trace, openId), openId, followRetryOf: follow ? null : s.runs.followRetryOf },
      };
    }),
  runResult: (runId, result) =>
    set((s) => {
      if (!hasOwn(s.runs.traces, runId)) return s;
      const trace = s.runs.traces[runId]!;
      if (trace.run) return s;
      const same = (r: CouncilToolResult) => r.memberId === result.memberId && r.toolName === result.toolName;
      const results = [...trace.results.filter((r) => !same(r)), result];
      return { runs: { ...s.runs, traces: withTrace(s.runs.traces, { ...trace, results }, s.runs.openId) } };
    }),
  runFinished: (run) =>
    set((s) => {
      const previous = hasOwn(s.runs.traces, run.id) ? s.runs.traces[run.id] : undefined;
      const summary = summarizeRun(run);
      const known = s.runs.items.some((r) => r.id === run.id);
      const items = known ? s.runs.items.map((r) => (r.id === run.id ? summary : r)) : [summary, ...s.runs.items];
      const follow = s.runs.followRetryOf !== null && run.retryOf === s.runs.followRetryOf;
      const openId = follow ? run.id : s.runs.openId;
      return {
        runs: {
          ...s.runs,
          items,
          traces: withTrace(s.runs.traces, traceOf(run, previous), openId),
          openId,
          followRetryOf: follow ? null : s.runs.followRetryOf,
        },
      };
    }),
  runOpened: (runId) => set((s) => ({ runs: { ...s.runs, openId: runId } })),
  retryFollowed: (sourceRunId) => set((s) => ({ runs: { ...s.runs, followRetryOf: sourceRunId } })),
});
