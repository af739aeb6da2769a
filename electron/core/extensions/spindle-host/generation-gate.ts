// spindle.generate on the host side: permission at the moment of the request, input caps, per-extension concurrency and rate caps, timeout, abort, redacted answers.
//
// The worker asks with a `generate.quiet` / `generate.raw` request; the answer is one `response`. The gate checks, in
// order: the `generation` permission (refused → a `permission_denied` event plus PERMISSION_DENIED;
// nothing reaches a connection), the input (validateGenerateInput, INVALID_INPUT), then at most
// `maxConcurrent` generations running and `maxPerMinute` started per extension: one past them waits for its turn
// (up to MAX_WAITING, each for at most the timeout; RATE_LIMITED beyond). A
// running generation is aborted when its time is up (LLM_TIMEOUT), the extension cancels it, its
// permission is revoked (PERMISSION_DENIED), or its worker stops or dies. Only text goes back; every
// error is reduced to { code, message, hint?, path? } and run through the host's Redactor.
import { HostFailure, isHostError, type HostError } from '../../../../shared/errors';
import {
  GENERATE_TIMEOUT_MS,
  MAX_ERROR_TEXT_CHARS,
  type GenerateKind,
  type LumiverseGenerateInput,
  type LogLevel,
  type QuietGenerateInput,
  type RawGenerateInput,
  type RawGenerateResult,
} from '../../../../shared/protocol';
import { validateGenerateInput, validateLumiverseGenerate } from '../../../../shared/spindle/generate-requests';
import type { ExtensionPermission } from '../../../../shared/types/spindle';
import type { Redactor } from '../../connections/redact';
import { quietValue, rawValue, runBatch, type Answer } from './generation-answers';
import { systemClock, systemTimers, type Clock, type Timers } from '../../ports';

/** What the host runs generations with (electron/core/generation/extension-generator.ts). Rejects with HostFailure. */
export interface ExtensionGenerator {
  quiet(input: QuietGenerateInput, signal: AbortSignal): Promise<string>;
  raw(input: RawGenerateInput, signal: AbortSignal): Promise<RawGenerateResult>;
  /** Lumiverse's raw / quiet: a GenerationResponseDTO. */
  lumiverse(input: LumiverseGenerateInput, signal: AbortSignal): Promise<unknown>;
  /** Lumiverse's rawStream / quietStream: each chunk handed to `chunk`, then the terminal `done` chunk. */
  stream(input: LumiverseGenerateInput, signal: AbortSignal, chunk: (value: unknown) => void): Promise<unknown>;
}

export interface GenerationLimits {
  /** Generations one extension may have running at once. */
  maxConcurrent: number;
  /** Generations one extension may start within a sliding minute. */
  maxPerMinute: number;
  /** One generation, request to last token. */
  timeoutMs: number;
}

export const DEFAULT_GENERATION_LIMITS: GenerationLimits = { maxConcurrent: 2, maxPerMinute: 30, timeoutMs: GENERATE_TIMEOUT_MS };

/** The worker a request came from (WorkerHost). */
export interface GenerationReplyTarget {
  respond(requestId: string, result: { ok: true; value: unknown } | { ok: false; error: HostError }): void;
  /** One piece of a streamed answer, before its final response. */
  chunk?(requestId: string, value: unknown): void;
  denyPermission(permission: ExtensionPermission, operation: string): void;
}

/** The Workbench's quiet/raw, or Lumiverse's request shape (`lumiverse`: raw/quiet/batch; `stream`: rawStream/quietStream). */
export type GenerationKind = GenerateKind | 'lumiverse' | 'stream';

/** One generation an extension asked for. */
export interface GenerationRequest {
  requestId: string;
  kind: GenerationKind;
  input: unknown;
}

export interface GenerationGateOptions {
  generator?: ExtensionGenerator;
  redactor?: Redactor;
  clock?: Clock;
  timers?: Timers;
  limits?: Partial<GenerationLimits>;
  /** Lines for the extension's own log. */
  log(extensionId: string, level: LogLevel, text: string): void;
}

/** A request checked for its kind: how to run it and shape its answer. */
type Checked = { ok: true; run(generator: ExtensionGenerator, signal: AbortSignal, chunk: (value: unknown) => void): Promise<unknown>; answer(value: unknown): Answer };

/** A generation that waits for its turn. */
interface Pending {
  requestId: string;
  target: GenerationReplyTarget;
  operation: string;
  checked: Checked;
  /** Asked again when it starts: a revoke meanwhile refuses it. */
  allowed: () => boolean;
  /** Its wait's end. */
  timer: unknown;
}

/** Generations of one extension that may wait for their turn; more are refused. */
export const MAX_WAITING = 64;

interface Running {
  target: GenerationReplyTarget;
  operation: string;
  controller: AbortController;
  timer: unknown;
  startedAt: number;
}

const MINUTE_MS = 60_000;

function clip(text: string): string {
  return text.length > MAX_ERROR_TEXT_CHARS ? `${text.slice(0, MAX_ERROR_TEXT_CHARS)}…` : text;
}

export class GenerationGate {
  private readonly limits: GenerationLimits;
  private readonly clock: Clock;
  private readonly timers: Timers;
  /** Extension id → request id → running generation. */
  private readonly running = new Map<string, Map<string, Running>>();
  /** Extension id → start times within the last minute (kept across restarts of the worker). */
  private readonly starts = new Map<string, number[]>();
  /** Extension id → generations waiting for their turn, oldest first. */
  private readonly waiting = new Map<string, Pending[]>();
  private readonly pumpTimers = new Map<string, unknown>();

  constructor(private readonly options: GenerationGateOptions) {
    this.limits = { ...DEFAULT_GENERATION_LIMITS, ...options.limits };
    this.clock = options.clock ?? systemClock;
    this.timers = options.timers ?? systemTimers;
  }

  inFlight(extensionId: string): number {
    return this.running.get(extensionId)?.size ?? 0;
  }

  /** Handles one generation request. `allowed` is asked now, so a revoke takes effect for the next request at once. */
  request(extensionId: string, target: GenerationReplyTarget, message: GenerationRequest, allowed: () => boolean): void {
    const { requestId } = message;
    // Named as the extension called it: generate.raw, generate.batch, generate.rawStream…
    const type = (message.input as { type?: unknown } | null)?.type;
    const shape = typeof type === 'string' && /^(raw|quiet|batch)$/.test(type) ? type : 'raw';
    const operation = message.kind === 'lumiverse' ? `generate.${shape}` : message.kind === 'stream' ? `generate.${shape}Stream` : `generate.${message.kind}`;
    const refuse = (error: HostError) => target.respond(requestId, { ok: false, error });
    if (!allowed()) {
      this.options.log(extensionId, 'warn', `${operation} refused: the generation permission is not granted.`);
      target.denyPermission('generation', operation);
      refuse({ code: 'PERMISSION_DENIED', message: `Extension "${extensionId}" does not have the generation permission.`, hint: 'Grant it under Extensions.' });
      return;
    }
    const generator = this.options.generator;
    if (!generator) return refuse({ code: 'GENERATION_UNAVAILABLE', message: 'This host runs no generations for extensions.' });
    const checked = this.check(message);
    if (!checked.ok) {
      this.options.log(extensionId, 'warn', `${operation} refused: ${checked.error.message}${checked.error.path ? ` (at ${checked.error.path})` : ''}`);
      return refuse(checked.error);
    }
    if (this.running.get(extensionId)?.has(requestId) || this.waiting.get(extensionId)?.some((w) => w.requestId === requestId)) {
      return refuse({ code: 'DUPLICATE_CALL_ID', message: `A generation with request id ${requestId} is already running.` });
    }
    const pending: Pending = { requestId, target, operation, checked, allowed, timer: null };
    // First come, first served: with others waiting, a new one waits behind them.
    if (!this.waiting.has(extensionId) && this.room(extensionId) === 'now') return this.start(extensionId, pending);
    // Past its share, a generation waits its turn, as Lumiverse (which sets no cap) would simply run it: a tracker
    // backfilling a long chat one turn at a time gets every turn, a little later.
    const queue = this.waiting.get(extensionId) ?? [];
    if (queue.length >= MAX_WAITING) {
      return refuse({ code: 'RATE_LIMITED', message: `Extension "${extensionId}" already has ${queue.length} generations waiting for their turn; the limit is ${MAX_WAITING}.`, hint: 'Start the next one when one has finished.' });
    }
    pending.timer = this.timers.setTimeout(() => {
      this.unqueue(extensionId, pending);
      this.options.log(extensionId, 'warn', `${operation} refused: it waited ${Math.round(this.limits.timeoutMs / 1000)} s for its turn.`);
      refuse({ code: 'RATE_LIMITED', message: `The generation waited ${Math.round(this.limits.timeoutMs / 1000)} s for its turn and did not start.`, hint: 'Start fewer generations at once.' });
    }, this.limits.timeoutMs);
    this.waiting.set(extensionId, [...queue, pending]);
    if (queue.length === 0) this.options.log(extensionId, 'info', `${operation} waits for its turn (at most ${this.limits.maxConcurrent} at once, ${this.limits.maxPerMinute} a minute).`);
    this.pumpLater(extensionId);
  }

  /** Whether another generation of the extension may start now, or when it may (its share of a minute is used). */
  private room(extensionId: string): 'now' | 'busy' | number {
    if (this.inFlight(extensionId) >= this.limits.maxConcurrent) return 'busy';
    const now = this.clock.now();
    const recent = (this.starts.get(extensionId) ?? []).filter((at) => now - at < MINUTE_MS);
    this.starts.set(extensionId, recent);
    return recent.length >= this.limits.maxPerMinute ? recent[0]! + MINUTE_MS - now : 'now';
  }

  /** Starts what waits while there is room; when only the minute's share is in the way, looks again once it frees. */
  private pump(extensionId: string): void {
    for (;;) {
      const next = this.waiting.get(extensionId)?.[0];
      if (!next) return;
      const room = this.room(extensionId);
      if (room !== 'now') return this.pumpLater(extensionId);
      this.unqueue(extensionId, next);
      if (!next.allowed()) {
        next.target.denyPermission('generation', next.operation);
        next.target.respond(next.requestId, { ok: false, error: { code: 'PERMISSION_DENIED', message: `Extension "${extensionId}" does not have the generation permission.`, hint: 'Grant it under Extensions.' } });
        continue;
      }
      this.start(extensionId, next);
    }
  }

  /** One timer per extension for when its minute's share frees (a finished generation pumps at once). */
  private pumpLater(extensionId: string): void {
    const room = this.room(extensionId);
    if (typeof room !== 'number' || this.pumpTimers.has(extensionId)) return;
    this.pumpTimers.set(extensionId, this.timers.setTimeout(() => {
      this.pumpTimers.delete(extensionId);
      this.pump(extensionId);
    }, Math.max(1, room)));
  }

  private unqueue(extensionId: string, pending: Pending): void {
    this.timers.clearTimeout(pending.timer);
    const rest = (this.waiting.get(extensionId) ?? []).filter((w) => w !== pending);
    if (rest.length) this.waiting.set(extensionId, rest);
    else this.waiting.delete(extensionId);
  }

  private start(extensionId: string, pending: Pending): void {
    const { requestId, target, operation, checked } = pending;
    const generator = this.options.generator!;
    const now = this.clock.now();
    this.starts.get(extensionId)!.push(now);
    let mine = this.running.get(extensionId);
    if (!mine) this.running.set(extensionId, (mine = new Map()));
    const controller = new AbortController();
    const timer = this.timers.setTimeout(() => {
      this.abort(extensionId, requestId, {
        code: 'LLM_TIMEOUT',
        message: `The generation did not finish within ${Math.round(this.limits.timeoutMs / 100) / 10} s.`,
        hint: 'Ask for fewer tokens, or try again.',
      });
    }, this.limits.timeoutMs);
    const entry: Running = { target, operation, controller, timer, startedAt: now };
    mine.set(requestId, entry);

    const run = new Promise<unknown>((resolve) => resolve(checked.run(generator, controller.signal, (value) => target.chunk?.(requestId, value))));
    void run.then(
      (value) => this.finish(extensionId, requestId, entry, checked.answer(value)),
      (err: unknown) => this.finish(extensionId, requestId, entry, { ok: false, error: this.clean(err) }),
    );
  }

  /** The input checked for its kind, and how to run it and shape its answer. */
  private check(message: GenerationRequest): Checked | { ok: false; error: HostError } {
    if (message.kind === 'quiet' || message.kind === 'raw') {
      const checked = validateGenerateInput(message.kind, message.input);
      if (!checked.ok) return checked;
      return checked.kind === 'quiet'
        ? { ok: true, run: (g, signal) => g.quiet(checked.input, signal), answer: quietValue }
        : { ok: true, run: (g, signal) => g.raw(checked.input, signal), answer: rawValue };
    }
    const checked = validateLumiverseGenerate(message.input);
    if (!checked.ok) return checked;
    const input = checked.input;
    if (message.kind === 'stream') {
      if (input.type === 'batch') return { ok: false, error: { code: 'INVALID_INPUT', message: 'A batch cannot be streamed.', path: '/type' } };
      return { ok: true, run: (g, signal, chunk) => g.stream(input, signal, chunk), answer: (value) => ({ ok: true, value }) };
    }
    if (input.type === 'batch') return { ok: true, run: (g, signal) => runBatch(g, input, signal), answer: (value) => ({ ok: true, value }) };
    return { ok: true, run: (g, signal) => g.lumiverse(input, signal), answer: (value) => ({ ok: true, value }) };
  }

  /** The extension abandoned a request (its AbortSignal fired): no answer is owed. */
  cancel(extensionId: string, target: GenerationReplyTarget, requestId: string): void {
    const waiting = this.waiting.get(extensionId)?.find((w) => w.requestId === requestId && w.target === target);
    if (waiting) {
      this.unqueue(extensionId, waiting);
      this.options.log(extensionId, 'info', `${waiting.operation} cancelled by the extension before its turn.`);
      return;
    }
    const entry = this.running.get(extensionId)?.get(requestId);
    if (!entry || entry.target !== target) return;
    this.end(extensionId, requestId, entry);
    entry.controller.abort();
    this.options.log(extensionId, 'info', `${entry.operation} cancelled by the extension.`);
  }

  /** Aborts every running generation of an extension and answers each with `error` (dropped if the worker is gone). */
  abortAll(extensionId: string, error: HostError): void {
    // Those waiting first, so none of them starts in a running one's place.
    for (const waiting of this.waiting.get(extensionId) ?? []) {
      this.unqueue(extensionId, waiting);
      waiting.target.respond(waiting.requestId, { ok: false, error: this.clean(error) });
    }
    this.timers.clearTimeout(this.pumpTimers.get(extensionId));
    this.pumpTimers.delete(extensionId);
    const mine = this.running.get(extensionId);
    if (!mine) return;
    for (const requestId of [...mine.keys()]) this.abort(extensionId, requestId, error);
  }

  /** Every extension's generations (host shutdown). */
  dispose(error: HostError): void {
    for (const extensionId of new Set([...this.running.keys(), ...this.waiting.keys()])) this.abortAll(extensionId, error);
  }

  private abort(extensionId: string, requestId: string, error: HostError): void {
    const entry = this.running.get(extensionId)?.get(requestId);
    if (!entry) return;
    this.end(extensionId, requestId, entry);
    entry.controller.abort();
    this.options.log(extensionId, 'warn', `${entry.operation} aborted: ${error.code}: ${error.message}`);
    entry.target.respond(requestId, { ok: false, error: this.clean(error) });
  }

  private finish(extensionId: string, requestId: string, entry: Running, result: { ok: true; value: unknown } | { ok: false; error: HostError }): void {
    // Already aborted (timeout, revoke, stop): that answer has been sent.
    if (this.running.get(extensionId)?.get(requestId) !== entry) return;
    this.end(extensionId, requestId, entry);
    const ms = this.clock.now() - entry.startedAt;
    if (result.ok) this.options.log(extensionId, 'info', `${entry.operation} finished in ${ms} ms.`);
    else this.options.log(extensionId, 'warn', `${entry.operation} failed after ${ms} ms: ${result.error.code}: ${result.error.message}`);
    entry.target.respond(requestId, result);
  }

  private end(extensionId: string, requestId: string, entry: Running): void {
    this.timers.clearTimeout(entry.timer);
    const mine = this.running.get(extensionId);
    mine?.delete(requestId);
    if (mine?.size === 0) this.running.delete(extensionId);
    // Its place goes to the next that waits (after this call's own answer is on its way).
    if (this.waiting.has(extensionId)) queueMicrotask(() => this.pump(extensionId));
  }

  /** { code, message, hint?, path? } only, redacted and clipped: provider errors never reach the worker raw. */
  private clean(err: unknown): HostError {
    const source: HostError =
      err instanceof HostFailure ? err.error : isHostError(err) ? err : { code: 'INTERNAL', message: 'The generation failed.' };
    const redact = (text: string) => clip(this.options.redactor ? this.options.redactor.redact(text) : text);
    const out: HostError = { code: typeof source.code === 'string' && /^[A-Z][A-Z0-9_]{0,63}$/.test(source.code) ? source.code : 'INTERNAL', message: redact(source.message) };
    if (typeof source.hint === 'string' && source.hint) out.hint = redact(source.hint);
    if (typeof source.path === 'string' && source.path) out.path = redact(source.path);
    return out;
  }
}
