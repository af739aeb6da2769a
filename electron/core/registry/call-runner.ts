// One tool call from its turn to its outcome: it waits for its turn (admission.ts), goes to its executor (or its
// simulate handler), is held to its deadline by a backstop timer, ends early when its caller aborts or the host
// shuts down, and a result that comes after its end is dropped.
import { HostFailure, type HostError } from '../../../shared/errors';
import type { ToolOutcome } from '../../../shared/types/tools';
import type { Clock, Logger, Timers } from '../ports';
import type { ExecuteResult } from '../registry-port';
import { Admission } from './admission';
import { executeRequest } from './call-arguments';
import { resultContent, thrownToHostError } from './call-outcome';
import { Invocation } from './invocation';
import type { RegistryLimits } from './limits';
import { SIMULATION_PLACEHOLDER_TEXT, type InvokeOptions } from './registry-types';
import { executeOn, type ToolRecord } from './tool-record';

export class CallRunner {
  private readonly inflight = new Set<Invocation>();
  /** Executors still working, answered or not: a built-in tool writing a note finishes before the host is gone. */
  private readonly executing = new Set<Promise<unknown>>();
  private readonly admission: Admission;

  constructor(
    private readonly deps: { clock: Clock; timers: Timers; log: Logger; limits: RegistryLimits; newRequestId: () => string },
  ) {
    this.admission = new Admission(deps.limits);
  }

  failedSince(start: number, error: HostError): ToolOutcome {
    return { ok: false, error, durationMs: this.deps.clock.now() - start };
  }

  /**
   * Resolves when every executor that started has ended, or after `maxMs` of real time (an executor that never
   * ends — a hung worker is killed by its own host — cannot hold the shutdown, fake clocks or not).
   */
  async executorsSettled(maxMs: number): Promise<void> {
    if (this.executing.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.allSettled([...this.executing]), new Promise<void>((resolve) => (timer = setTimeout(resolve, maxMs).unref()))]);
    clearTimeout(timer);
  }

  /** Ends every call in flight with `error` (the host shuts down): waiting ones first, so none takes a freed slot. */
  abortAll(error: HostError): void {
    const calls = [...this.inflight].sort((a, b) => Number(a.started) - Number(b.started));
    for (const call of calls) this.abortWith(call, error);
  }

  run(record: ToolRecord, args: Record<string, unknown>, opts: InvokeOptions, start: number): Promise<ToolOutcome> {
    const requestId = opts.requestId ?? this.deps.newRequestId();
    return new Promise<ToolOutcome>((resolve) => {
      const call = new Invocation(record.info.qualifiedName, start, opts, resolve, this.abortWith);
      this.inflight.add(call);
      opts.signal?.addEventListener('abort', call, { once: true });
      call.withdraw = this.admission.enter(call.q, () => this.start(call, record, args, opts, requestId));
      // One timer per call: the registry's backstop guards a call still waiting for its turn, and one whose
      // executor does not end calls at their deadline itself (see ToolExecutor.ownsDeadline).
      if (!call.settled && (!call.started || record.executor.ownsDeadline !== true)) this.armBackstop(call);
    });
  }

  /**
   * If the call has not settled shortly after its deadline, stop waiting, abort its signal and drop whatever
   * its executor sends later.
   */
  private armBackstop(call: Invocation): void {
    const backstopAt = call.start + call.timeoutMs + this.deps.limits.timeoutGraceMs;
    call.timer = this.deps.timers.setTimeout(
      () =>
        this.abortWith(call, { code: 'TOOL_TIMEOUT', message: `Tool "${call.q}" did not answer within ${call.timeoutMs} ms`, hint: 'The tool may be slow or stuck; continue without it or try again later.' }),
      Math.max(1, backstopAt - this.deps.clock.now()),
    );
  }

  /** The call's turn: hand it to its executor. */
  private start(call: Invocation, record: ToolRecord, args: Record<string, unknown>, opts: InvokeOptions, requestId: string): void {
    call.started = true;
    // It waited for its turn under the registry's timer; from here its executor keeps the deadline.
    if (call.timer !== null && record.executor.ownsDeadline === true) {
      this.deps.timers.clearTimeout(call.timer);
      call.timer = null;
    }
    // Its caller gave up while it waited (a council deadline aborts many at once): it never reaches the tool.
    if (opts.signal?.aborted) return call.handleEvent();
    const request = executeRequest(record, args, opts, call.start, requestId, call.controller.signal);
    const simulate = opts.simulate === true;
    const pending = executeOn(record, request, simulate);
    const running = pending.then(
      () => undefined,
      () => undefined,
    );
    this.executing.add(running);
    void running.then(() => this.executing.delete(running));
    pending.then(
      (result) => {
        if (call.settled) {
          this.deps.log.info('late tool result dropped', { tool: call.q, requestId: request.requestId });
          return;
        }
        const outcome = this.outcomeOf(record, result, call.start);
        if (simulate && outcome.ok) {
          outcome.simulated = true;
          if (outcome.content === SIMULATION_PLACEHOLDER_TEXT) outcome.unvalidated = true;
        }
        this.settle(call, outcome);
      },
      (error: unknown) => {
        if (call.settled) return;
        this.deps.log.error('tool executor threw', { tool: call.q, error });
        this.settle(call, this.failedSince(call.start, thrownToHostError(call.q, error, this.deps.limits.maxErrorTextChars)));
      },
    );
  }

  private settle(call: Invocation, outcome: ToolOutcome): void {
    if (call.settled) return;
    call.settled = true;
    call.callerSignal?.removeEventListener('abort', call);
    this.inflight.delete(call);
    this.deps.timers.clearTimeout(call.timer);
    if (call.started) this.admission.leave(call.q);
    else call.withdraw();
    call.resolve(outcome);
  }

  /** The caller's signal, the backstop or shutdown: abort the executor's side, answer at once. */
  private readonly abortWith = (call: Invocation, error: HostError): void => {
    if (call.settled) return;
    call.controller.abort(new HostFailure(error));
    this.settle(call, this.failedSince(call.start, error));
  };

  private outcomeOf(record: ToolRecord, result: ExecuteResult, start: number): ToolOutcome {
    const content = resultContent(record.info.qualifiedName, result, record.outputSchema, this.deps.limits);
    return content.ok ? { ok: true, content: content.value, durationMs: this.deps.clock.now() - start } : this.failedSince(start, content.error);
  }
}
