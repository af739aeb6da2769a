// The tool registry: which source registered which tool, how callers find it, and the one guarded path to invoke it.
//
// Everything a tool receives passes through invoke(): lookup, availability, argument sanitizing and
// schema validation (the executor never sees invalid args), host-supplied fields, a deadline
// backstop, and result normalization. Executors (worker host, builtins, MCP client) sit behind the
// ToolExecutor seam and are trusted only to eventually answer — and not even that.
import { randomUUID } from 'node:crypto';
import { HostFailure, isHostError, type HostError, type Result } from '../../../shared/errors';
import type { CouncilMemberContext, LlmMessageDTO, ToolRegistrationDTO } from '../../../shared/types/spindle';
import type { ToolInfo, ToolOutcome, ToolSource, ToolStatus } from '../../../shared/types/tools';
import { describeAjvError } from '../contract/validators';
import { silentLogger, systemClock, type Clock, type Logger } from '../ports';
import type { Cancellation, ExecuteRequest, ExecuteResult, ToolExecutor } from '../registry-port';
import { SchemaCompiler, type CompiledSchema } from './compile-schema';
import { definitionHash } from './definition-hash';
import { DEFAULT_REGISTRY_LIMITS, type RegistryLimits } from './limits';
import { AliasTable, SOURCE_ID, deriveAlias, qualifiedName } from './names';
import { normalizeResult } from './normalize-result';
import type { RegistryEvent, RegistryEventListener } from './registry-events';
import { err, ok } from './result';
import { sanitizeArguments } from './sanitize-args';
import { systemTimers, type Timers } from './timers';
import { validateRegistration } from './validate-registration';

export interface ToolSourceRef {
  kind: ToolSource;
  id: string;
}

export interface ToolRegistryDeps {
  clock?: Clock;
  timers?: Timers;
  log?: Logger;
  limits?: Partial<RegistryLimits>;
  newRequestId?: () => string;
}

export interface InvokeOptions {
  /** From the council timeout setting; becomes the executor's deadline and args.__deadlineMs. */
  timeoutMs: number;
  councilMember?: CouncilMemberContext;
  contextMessages?: LlmMessageDTO[];
  /** Flattened chat context; delivered as args.context (seed 000, council invocations). */
  context?: string;
  signal?: AbortSignal;
  requestId?: string;
  /**
   * Dry run of a write tool (seed 001): the executor's simulate() when the tool declares
   * has_simulate, else the seed's placeholder; the outcome carries `simulated` (and `unvalidated`).
   */
  simulate?: boolean;
  /** Passed on to the executor (ExecuteRequest.mayWrite). */
  mayWrite?: (path: string) => boolean;
  /**
   * A council call whose arguments nobody planned (Lumiverse's own contract: only the host's
   * `context` and `__deadlineMs`): the schema is not checked, since its required arguments are absent.
   */
  unplanned?: boolean;
}

/** The seed's stand-in result for a write tool simulated without a simulate handler. */
export const SIMULATION_PLACEHOLDER_TEXT = JSON.stringify({ ok: true, simulated: true, unvalidated: true });

export interface ToolFilter {
  sourceId?: string;
  extensionId?: string;
  source?: ToolSource;
  status?: ToolStatus;
  councilEligible?: boolean;
  inlineAvailable?: boolean;
}

/**
 * Arguments checked by prepareCall() for one tool, with its info and definition: what the guard
 * decides on. invokePrepared() runs exactly these arguments without checking them a second time.
 */
export interface PreparedCall {
  readonly info: ToolInfo;
  /** The registry's own normalized registration: read it, never change it. */
  readonly definition: Readonly<ToolRegistrationDTO>;
  /** A fresh copy this call owns, sanitized and schema-checked. */
  readonly args: Record<string, unknown>;
}

interface ToolRecord {
  /** Status is not stored here; it is the source's and is filled in by infoOf(). */
  info: Omit<ToolInfo, 'status'>;
  registration: ToolRegistrationDTO;
  parameters: CompiledSchema;
  outputSchema: CompiledSchema | null;
  executor: ToolExecutor;
  sourceId: string;
}

interface SourceState {
  kind: ToolSource;
  /** One Ajv per source: `$id`s and Ajv's caches never mix between extensions. */
  compiler: SchemaCompiler;
  tools: Map<string, ToolRecord>;
}

const SOURCE_KINDS: readonly ToolSource[] = ['extension', 'builtin', 'mcp'];
const EXECUTOR_ERROR_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

export class ToolRegistry {
  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly log: Logger;
  private readonly limits: RegistryLimits;
  private readonly newRequestId: () => string;
  private readonly tools = new Map<string, ToolRecord>();
  private readonly sources = new Map<string, SourceState>();
  private readonly statuses = new Map<string, ToolStatus>();
  private readonly aliases = new AliasTable();
  private readonly listeners = new Set<RegistryEventListener>();
  private readonly inflight = new Set<Invocation>();
  /** prepareCall() handles not yet run, with the record their arguments were checked against. */
  private readonly preparedCalls = new WeakMap<PreparedCall, ToolRecord>();
  /** One backstop timer for every in-flight call, armed for the earliest (see armBackstop). */
  private backstopTimer: unknown = null;
  private backstopAt = Infinity;

  constructor(deps: ToolRegistryDeps = {}) {
    this.clock = deps.clock ?? systemClock;
    this.timers = deps.timers ?? systemTimers;
    this.log = deps.log ?? silentLogger;
    this.limits = { ...DEFAULT_REGISTRY_LIMITS, ...deps.limits };
    this.newRequestId = deps.newRequestId ?? requestIdCounter();
  }

  /** Registers or replaces `source.id:dto.name`. On any error nothing changes. */
  register(source: ToolSourceRef, dto: unknown, executor: ToolExecutor): Result<ToolInfo> {
    if (!SOURCE_KINDS.includes(source?.kind) || typeof source.id !== 'string' || !SOURCE_ID.test(source.id)) {
      return err('INVALID_INPUT', 'Tool source must be { kind: extension|builtin|mcp, id: [A-Za-z0-9._-], 1–64 chars }', {
        path: '/source',
      });
    }
    if (typeof executor?.execute !== 'function') {
      return err('INVALID_INPUT', 'Tool executor must implement execute()', { path: '/executor' });
    }
    const existingSource = this.sources.get(source.id);
    if (existingSource && existingSource.kind !== source.kind) {
      return err('CONFLICT', `Source "${source.id}" is already registered as ${existingSource.kind}`, { path: '/source' });
    }
    // A registration flood should not cost a schema compile per rejected tool.
    const peekName = typeof dto === 'object' && dto !== null ? (dto as { name?: unknown }).name : undefined;
    if (this.isFull(existingSource, peekName)) return this.tooMany(source.id);

    const compiler = existingSource?.compiler ?? new SchemaCompiler(this.limits);
    const validated = validateRegistration(dto, {
      nameRule: source.kind === 'mcp' ? 'mcp' : 'bare',
      compiler,
      limits: this.limits,
    });
    if (!validated.ok) {
      // Log the code and path only: the offending content may be huge or hostile.
      this.log.warn('tool registration rejected', { sourceId: source.id, code: validated.error.code, path: validated.error.path });
      return validated;
    }
    const { registration, parameters, outputSchema, modeDeclared } = validated.value;
    const releaseNew = () => {
      compiler.release(parameters);
      if (outputSchema) compiler.release(outputSchema);
    };

    const qualified = qualifiedName(source.id, registration.name);
    const previous = this.tools.get(qualified);
    if (!previous && this.isFull(existingSource, registration.name)) {
      releaseNew();
      return this.tooMany(source.id);
    }
    const alias = previous?.info.alias ?? deriveAlias(qualified);
    if (!previous && !this.aliases.claim(alias, qualified)) {
      // Only reachable through a 48-bit hash collision between two hashed aliases.
      releaseNew();
      return err('CONFLICT', `Provider alias for "${qualified}" collides with another tool`, { path: '/name' });
    }

    const state: SourceState = existingSource ?? { kind: source.kind, compiler, tools: new Map() };
    this.sources.set(source.id, state);
    const record: ToolRecord = {
      info: {
        qualifiedName: qualified,
        alias,
        name: registration.name,
        displayName: registration.display_name,
        description: registration.description,
        parameters: registration.parameters,
        mode: registration.mode ?? 'write',
        modeDeclared,
        councilEligible: registration.council_eligible ?? false,
        inlineAvailable: registration.inline_available ?? false,
        hasSimulate: registration.has_simulate ?? false,
        requiresApproval: registration.requires_approval ?? false,
        source: source.kind,
        extensionId: source.kind === 'extension' ? source.id : null,
        definitionHash: definitionHash(registration),
      },
      registration,
      parameters,
      outputSchema,
      executor,
      sourceId: source.id,
    };
    state.tools.set(registration.name, record);
    this.tools.set(qualified, record);
    const info = this.infoOf(record);
    if (previous) {
      this.releaseSchemas(state, previous);
      const previousHash = previous.info.definitionHash;
      this.emit({ type: 'tool.replaced', tool: info, previousHash, definitionChanged: previousHash !== info.definitionHash });
    } else {
      this.emit({ type: 'tool.registered', tool: info });
    }
    return ok(this.infoOf(record));
  }

  unregister(sourceId: string, name: string): boolean {
    const state = this.sources.get(sourceId);
    const record = state?.tools.get(name);
    if (!state || !record) return false;
    this.remove(state, record);
    if (state.tools.size === 0) this.sources.delete(sourceId);
    return true;
  }

  /** Drops every tool of the source, its Ajv instance and its status (extension stopped or unloaded). */
  unregisterAll(sourceId: string): number {
    const state = this.sources.get(sourceId);
    this.statuses.delete(sourceId);
    if (!state) return 0;
    const records = [...state.tools.values()];
    for (const record of records) this.remove(state, record);
    this.sources.delete(sourceId);
    return records.length;
  }

  /** A crashed or restarting source keeps its tools but they refuse invocations until available again. */
  setSourceStatus(sourceId: string, status: ToolStatus): void {
    const current = this.statuses.get(sourceId) ?? 'available';
    this.statuses.set(sourceId, status);
    if (current !== status) this.emit({ type: 'source.status', sourceId, status });
  }

  list(filter: ToolFilter = {}): ToolInfo[] {
    const out: ToolInfo[] = [];
    for (const record of this.tools.values()) {
      const info = this.infoOf(record);
      if (filter.sourceId !== undefined && record.sourceId !== filter.sourceId) continue;
      if (filter.extensionId !== undefined && info.extensionId !== filter.extensionId) continue;
      if (filter.source !== undefined && info.source !== filter.source) continue;
      if (filter.status !== undefined && info.status !== filter.status) continue;
      if (filter.councilEligible !== undefined && info.councilEligible !== filter.councilEligible) continue;
      if (filter.inlineAvailable !== undefined && info.inlineAvailable !== filter.inlineAvailable) continue;
      out.push(info);
    }
    return out.sort((a, b) => (a.qualifiedName < b.qualifiedName ? -1 : a.qualifiedName > b.qualifiedName ? 1 : 0));
  }

  get(qualified: string): ToolInfo | undefined {
    const record = this.tools.get(qualified);
    return record ? this.infoOf(record) : undefined;
  }

  /** The full normalized registration (output_schema, cache, path params), for approvals and caching. */
  getDefinition(qualified: string): ToolRegistrationDTO | undefined {
    const record = this.tools.get(qualified);
    return record ? { ...record.registration } : undefined;
  }

  /** Accepts a qualified name or a provider alias (what a model calls the tool). */
  resolve(nameOrAlias: string): ToolInfo | undefined {
    const record = this.lookup(nameOrAlias);
    return record ? this.infoOf(record) : undefined;
  }

  /** Alias → qualified name; the reverse of the provider-facing name. */
  resolveAlias(alias: string): string | undefined {
    return this.aliases.resolve(alias);
  }

  onEvent(listener: RegistryEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Never rejects: every failure is a ToolOutcome with a stable code. */
  invoke(nameOrAlias: string, rawArgs: unknown, opts: InvokeOptions): Promise<ToolOutcome> {
    const start = this.clock.now();
    try {
      const prepared = this.prepare(nameOrAlias, rawArgs, opts, start);
      if (!prepared.ok) return Promise.resolve(this.failedSince(start, prepared.error));
      return this.run(prepared.value.record, prepared.value.request, opts, start);
    } catch (error) {
      this.log.error('tool invocation failed before reaching the executor', error);
      return Promise.resolve(this.failedSince(start, { code: 'INTERNAL', message: 'The host failed to prepare the tool call' }));
    }
  }

  /** Settles every in-flight invocation with HOST_SHUTDOWN and forgets all tools. */
  dispose(): void {
    for (const call of [...this.inflight]) this.abortWith(call, { code: 'HOST_SHUTDOWN', message: 'The host is shutting down' });
    this.disarmBackstop();
    for (const sourceId of [...this.sources.keys()]) this.unregisterAll(sourceId);
    this.listeners.clear();
  }

  /**
   * The arguments exactly as the tool would receive them (sanitized and schema-checked, without the
   * host-supplied fields), without running anything: what an approval shows and a cache key hashes.
   */
  prepareArgs(nameOrAlias: string, rawArgs: unknown, unplanned = false): Result<{ info: ToolInfo; args: Record<string, unknown> }> {
    const record = typeof nameOrAlias === 'string' ? this.lookup(nameOrAlias) : undefined;
    if (!record) return err('UNKNOWN_TOOL', `Unknown tool ${JSON.stringify(String(nameOrAlias).slice(0, 128))}`);
    const checked = this.checkArgs(record, rawArgs, unplanned);
    return checked.ok ? ok({ info: this.infoOf(record), args: checked.value }) : checked;
  }

  /**
   * For a caller that checks and then runs in the same tick (the guard): undefined when the tool is
   * unknown or unavailable (invoke() answers those with its codes), else the checked arguments with
   * the tool's info and definition, or the reason they were refused.
   */
  prepareCall(nameOrAlias: string, rawArgs: unknown, unplanned = false): Result<PreparedCall> | undefined {
    const record = typeof nameOrAlias === 'string' ? this.lookup(nameOrAlias) : undefined;
    if (!record || (this.statuses.get(record.sourceId) ?? 'available') !== 'available') return undefined;
    const checked = this.checkArgs(record, rawArgs, unplanned);
    if (!checked.ok) return checked;
    const call: PreparedCall = { info: this.infoOf(record), definition: record.registration, args: checked.value };
    this.preparedCalls.set(call, record);
    return ok(call);
  }

  /**
   * invoke() for a prepareCall() handle: the same checks except the arguments, which were checked
   * against this very record. A handle runs once; a stale one (the tool was replaced or removed since)
   * goes through invoke() in full.
   */
  invokePrepared(call: PreparedCall, opts: InvokeOptions): Promise<ToolOutcome> {
    const record = this.preparedCalls.get(call);
    this.preparedCalls.delete(call);
    if (!record || this.tools.get(record.info.qualifiedName) !== record) return this.invoke(call.info.qualifiedName, call.args, opts);
    const start = this.clock.now();
    try {
      const prepared = this.prepare(record.info.qualifiedName, call.args, opts, start, record);
      if (!prepared.ok) return Promise.resolve(this.failedSince(start, prepared.error));
      return this.run(prepared.value.record, prepared.value.request, opts, start);
    } catch (error) {
      this.log.error('tool invocation failed before reaching the executor', error);
      return Promise.resolve(this.failedSince(start, { code: 'INTERNAL', message: 'The host failed to prepare the tool call' }));
    }
  }

  private checkArgs(record: ToolRecord, rawArgs: unknown, unplanned: boolean): Result<Record<string, unknown>> {
    const sanitized = sanitizeArguments(rawArgs, this.limits);
    if (!sanitized.ok) return sanitized;
    if (sanitized.value.stripped.length > 0) {
      this.log.warn('reserved argument keys stripped', { tool: record.info.qualifiedName, paths: sanitized.value.stripped });
    }
    const validate = record.parameters.validate;
    if (!unplanned && !validate(sanitized.value.args)) {
      const { message, path } = describeAjvError(validate.errors?.[0], 'arguments are invalid');
      return err('INVALID_ARGUMENTS', `Invalid arguments for ${record.info.alias}: ${message}`, {
        path,
        hint: 'Fix that argument to match the tool parameters and call the tool again.',
      });
    }
    return ok(sanitized.value.args);
  }

  private prepare(
    nameOrAlias: string,
    rawArgs: unknown,
    opts: InvokeOptions,
    start: number,
    /** Set by invokePrepared(): rawArgs were already checked against this record. */
    checkedFor?: ToolRecord,
  ): Result<{ record: ToolRecord; request: Omit<ExecuteRequest, 'signal' | 'cancellation'> }> {
    const record = checkedFor ?? (typeof nameOrAlias === 'string' ? this.lookup(nameOrAlias) : undefined);
    if (!record) {
      const shown = typeof nameOrAlias === 'string' ? JSON.stringify(nameOrAlias.slice(0, 128)) : 'that is not a string';
      return err('UNKNOWN_TOOL', `Unknown tool ${shown}`, {
        hint: 'Call one of the tools listed in this request; names are case-sensitive.',
      });
    }
    const q = record.info.qualifiedName;
    if ((this.statuses.get(record.sourceId) ?? 'available') !== 'available') {
      return err('TOOL_UNAVAILABLE', `Tool "${q}" is unavailable right now`, {
        hint: 'Its extension is stopped or restarting; continue without it or try again later.',
      });
    }
    if (typeof opts?.timeoutMs !== 'number' || !Number.isFinite(opts.timeoutMs) || opts.timeoutMs <= 0) {
      return err('INVALID_INPUT', 'timeoutMs must be a positive number', { path: '/timeoutMs' });
    }
    if (opts.signal?.aborted) return err('CANCELLED', `Call to "${q}" was cancelled before it started`);

    const sanitized = checkedFor ? ok(rawArgs as Record<string, unknown>) : this.checkArgs(record, rawArgs, opts.unplanned === true);
    if (!sanitized.ok) return sanitized;

    // Added after validation so a schema with additionalProperties:false still accepts them, and
    // after stripping so a caller-supplied context/__deadlineMs can never survive.
    // sanitized.value.args is a fresh copy this call owns: extend it in place.
    const deadline = start + opts.timeoutMs;
    const args = sanitized.value;
    if (typeof opts.context === 'string') args.context = opts.context;
    args.__deadlineMs = deadline;

    const request: Omit<ExecuteRequest, 'signal' | 'cancellation'> = {
      toolName: record.info.name,
      args,
      requestId: opts.requestId ?? this.newRequestId(),
      deadline,
    };
    if (opts.councilMember) request.councilMember = opts.councilMember;
    if (opts.contextMessages) request.contextMessages = opts.contextMessages;
    if (opts.mayWrite) request.mayWrite = opts.mayWrite;
    return ok({ record, request });
  }

  private run(
    record: ToolRecord,
    baseRequest: Omit<ExecuteRequest, 'signal' | 'cancellation'>,
    opts: InvokeOptions,
    start: number,
  ): Promise<ToolOutcome> {
    return new Promise<ToolOutcome>((resolve) => {
      const call = new Invocation(record.info.qualifiedName, start, opts, this.limits.timeoutGraceMs, resolve, this.abortWith);
      const request = new CallRequest(baseRequest, call);
      const simulate = opts.simulate === true;
      let pending: Promise<ExecuteResult>;
      try {
        pending = Promise.resolve(simulate ? this.simulateOn(record, request) : record.executor.execute(request));
      } catch (error) {
        pending = Promise.reject(error);
      }
      // The bookkeeping comes after the executor has started, so a worker is already at work while it
      // runs: nothing can settle or abort the call before this synchronous block ends.
      // Backstop: the executor owns the deadline, but if it has not settled shortly after it, stop
      // waiting, abort its signal and drop whatever it sends later.
      this.inflight.add(call);
      if (call.backstopAt < this.backstopAt) this.armBackstop(call.backstopAt);
      else if (this.inflight.size === 1 && this.backstopTimer !== null) this.timers.setRef?.(this.backstopTimer, true);
      opts.signal?.addEventListener('abort', call, { once: true });
      pending.then(
        (result) => {
          if (call.settled) {
            this.log.info('late tool result dropped', { tool: call.q, requestId: request.requestId });
            return;
          }
          const outcome = this.outcomeOf(record, result, start);
          if (simulate && outcome.ok) {
            outcome.simulated = true;
            if (outcome.content === SIMULATION_PLACEHOLDER_TEXT) outcome.unvalidated = true;
          }
          this.settle(call, outcome);
        },
        (error: unknown) => {
          if (call.settled) return;
          this.log.error('tool executor threw', { tool: call.q, error });
          this.settle(call, this.failedSince(call.start, thrownToHostError(call.q, error, this.limits.maxErrorTextChars)));
        },
      );
    });
  }

  /** A tool without a simulate handler is not run at all in a dry run: the seed's placeholder answers. */
  private simulateOn(record: ToolRecord, request: ExecuteRequest): Promise<ExecuteResult> | ExecuteResult {
    if (record.registration.has_simulate && typeof record.executor.simulate === 'function') return record.executor.simulate(request);
    return { ok: true, value: SIMULATION_PLACEHOLDER_TEXT };
  }

  private failedSince(start: number, error: HostError): ToolOutcome {
    return { ok: false, error, durationMs: this.clock.now() - start };
  }

  private settle(call: Invocation, outcome: ToolOutcome): void {
    if (call.settled) return;
    call.settled = true;
    call.callerSignal?.removeEventListener('abort', call);
    this.inflight.delete(call);
    // Once nothing is in flight the timer stays armed but no longer keeps the process alive: the
    // next call, whose backstop is later, needs no new timer (a setTimeout/clearTimeout pair per
    // call cost about 0.5 KB of allocation and a timer-list insert). When it fires it finds nothing due.
    if (this.inflight.size === 0) this.idleBackstop();
    call.resolve(outcome);
  }

  /** The caller's signal, the backstop or shutdown: abort the executor's side, answer at once. */
  private readonly abortWith = (call: Invocation, error: HostError): void => {
    if (call.settled) return;
    call.abort(new HostFailure(error));
    this.settle(call, this.failedSince(call.start, error));
  };

  private armBackstop(at: number): void {
    if (this.backstopTimer !== null) this.timers.clearTimeout(this.backstopTimer);
    this.backstopAt = at;
    this.backstopTimer = this.timers.setTimeout(() => this.expireDue(at), Math.max(1, at - this.clock.now()));
  }

  private idleBackstop(): void {
    if (this.backstopTimer === null) return;
    if (this.timers.setRef) this.timers.setRef(this.backstopTimer, false);
    else this.disarmBackstop();
  }

  private disarmBackstop(): void {
    if (this.backstopTimer !== null) this.timers.clearTimeout(this.backstopTimer);
    this.backstopTimer = null;
    this.backstopAt = Infinity;
  }

  /** The timer armed for `armedFor` fired: that time has come even if the clock lags behind. */
  private expireDue(armedFor: number): void {
    this.backstopTimer = null;
    this.backstopAt = Infinity;
    const now = Math.max(armedFor, this.clock.now());
    let next = Infinity;
    for (const call of [...this.inflight]) {
      if (call.backstopAt <= now) {
        this.abortWith(call, {
          code: 'TOOL_TIMEOUT',
          message: `Tool "${call.q}" did not answer within ${call.timeoutMs} ms`,
          hint: 'The tool may be slow or stuck; continue without it or try again later.',
        });
      } else if (call.backstopAt < next) next = call.backstopAt;
    }
    if (next < this.backstopAt && this.inflight.size > 0) this.armBackstop(next);
  }

  private outcomeOf(record: ToolRecord, result: ExecuteResult, start: number): ToolOutcome {
    const q = record.info.qualifiedName;
    if (typeof result !== 'object' || result === null || typeof result.ok !== 'boolean') {
      return this.failedSince(start, { code: 'INVALID_RESULT', message: `Tool "${q}" returned a malformed result` });
    }
    if (!result.ok) return this.failedSince(start, passThroughError(q, result.error, this.limits.maxErrorTextChars));
    const content = normalizeResult(result.value, this.limits);
    if (!content.ok) return this.failedSince(start, content.error);
    if (record.outputSchema) {
      const invalid = checkOutput(q, record.outputSchema, content.value);
      if (invalid) return this.failedSince(start, invalid);
    }
    return { ok: true, content: content.value, durationMs: this.clock.now() - start };
  }

  private lookup(nameOrAlias: string): ToolRecord | undefined {
    const direct = this.tools.get(nameOrAlias);
    if (direct) return direct;
    const qualified = this.aliases.resolve(nameOrAlias);
    return qualified === undefined ? undefined : this.tools.get(qualified);
  }

  private isFull(state: SourceState | undefined, name: unknown): boolean {
    if (!state || state.tools.size < this.limits.maxToolsPerSource) return false;
    return typeof name !== 'string' || !state.tools.has(name);
  }

  private tooMany(sourceId: string): Result<ToolInfo> {
    this.log.warn('tool registration rejected', { sourceId, code: 'TOO_MANY_TOOLS' });
    return err('TOO_MANY_TOOLS', `Source "${sourceId}" already has ${this.limits.maxToolsPerSource} tools`, {
      hint: 'Unregister tools you no longer need, or combine related tools into one with a parameter.',
    });
  }

  private remove(state: SourceState, record: ToolRecord): void {
    state.tools.delete(record.info.name);
    this.tools.delete(record.info.qualifiedName);
    this.aliases.release(record.info.alias);
    this.releaseSchemas(state, record);
    this.emit({
      type: 'tool.unregistered',
      qualifiedName: record.info.qualifiedName,
      alias: record.info.alias,
      sourceId: record.sourceId,
    });
  }

  private releaseSchemas(state: SourceState, record: ToolRecord): void {
    state.compiler.release(record.parameters);
    if (record.outputSchema) state.compiler.release(record.outputSchema);
  }

  /** A fresh copy per caller. Spelled out: an object spread here cost more than the rest of the lookup. */
  private infoOf(record: ToolRecord): ToolInfo {
    const i = record.info;
    return {
      qualifiedName: i.qualifiedName,
      alias: i.alias,
      name: i.name,
      displayName: i.displayName,
      description: i.description,
      parameters: i.parameters,
      mode: i.mode,
      modeDeclared: i.modeDeclared,
      councilEligible: i.councilEligible,
      inlineAvailable: i.inlineAvailable,
      hasSimulate: i.hasSimulate,
      requiresApproval: i.requiresApproval,
      source: i.source,
      extensionId: i.extensionId,
      status: this.statuses.get(record.sourceId) ?? 'available',
      definitionHash: i.definitionHash,
    } satisfies Record<keyof ToolInfo, unknown>;
  }

  private emit(event: RegistryEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.log.error('registry event listener failed', error);
      }
    }
  }
}

/**
 * One invocation in flight. It is the executor's Cancellation (the AbortSignal is made only if the
 * executor reads `request.signal`) and the listener on the caller's signal.
 */
class Invocation implements Cancellation {
  settled = false;
  aborted = false;
  readonly backstopAt: number;
  readonly timeoutMs: number;
  /** The caller's signal, listened to with this object (handleEvent). */
  readonly callerSignal: AbortSignal | undefined;
  private controller: AbortController | null = null;
  private reason: HostFailure | null = null;
  private listener: (() => void) | null = null;

  constructor(
    readonly q: string,
    readonly start: number,
    opts: InvokeOptions,
    graceMs: number,
    readonly resolve: (outcome: ToolOutcome) => void,
    private readonly abortWith: (call: Invocation, error: HostError) => void,
  ) {
    this.timeoutMs = opts.timeoutMs;
    this.backstopAt = start + opts.timeoutMs + graceMs;
    this.callerSignal = opts.signal;
  }

  /** The executor's AbortSignal, made on first read; already aborted if the call was. */
  executorSignal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.reason) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  onAbort(listener: (() => void) | null): void {
    this.listener = listener;
  }

  abort(reason: HostFailure): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
    const listener = this.listener;
    this.listener = null;
    listener?.();
  }

  /** The caller aborted. */
  handleEvent(): void {
    this.abortWith(this, { code: 'CANCELLED', message: `Call to "${this.q}" was cancelled` });
  }
}

/** What the executor receives. `signal` is an accessor: the AbortSignal is made on first read. */
class CallRequest implements ExecuteRequest {
  readonly toolName: string;
  readonly args: Record<string, unknown>;
  readonly requestId: string;
  readonly deadline: number;
  declare readonly councilMember?: CouncilMemberContext;
  declare readonly contextMessages?: LlmMessageDTO[];
  declare readonly mayWrite?: (path: string) => boolean;

  constructor(
    base: Omit<ExecuteRequest, 'signal' | 'cancellation'>,
    readonly cancellation: Invocation,
  ) {
    this.toolName = base.toolName;
    this.args = base.args;
    this.requestId = base.requestId;
    this.deadline = base.deadline;
    if (base.councilMember) this.councilMember = base.councilMember;
    if (base.contextMessages) this.contextMessages = base.contextMessages;
    if (base.mayWrite) this.mayWrite = base.mayWrite;
  }

  get signal(): AbortSignal {
    return this.cancellation.executorSignal();
  }
}

/**
 * Request ids unique within this host: a random UUID once, then a counter in its last 12 hex
 * digits. A UUID per call costs more than a trivial tool call.
 */
function requestIdCounter(): () => string {
  const prefix = randomUUID().slice(0, 24);
  let seq = 0;
  return () => prefix + (seq++).toString(16).padStart(12, '0');
}

/**
 * Seed 002 output validation, on what the model would read: the parsed JSON of the normalized result.
 * A string that is not JSON is checked as the string itself, so it passes `{type:'string'}` and fails
 * any other schema; a JSON-looking string also passes a string schema as itself.
 */
function checkOutput(q: string, schema: CompiledSchema, content: string): HostError | null {
  const validate = schema.validate;
  let parsed: { value: unknown } | null = null;
  try {
    parsed = { value: JSON.parse(content) as unknown };
  } catch {
    parsed = null;
  }
  if (parsed && validate(parsed.value)) return null;
  const parsedErrors = parsed ? validate.errors : null;
  if (validate(content)) return null;
  const { message, path } = describeAjvError((parsedErrors ?? validate.errors)?.[0], 'the result is invalid');
  return {
    code: 'INVALID_RESULT',
    message: `Tool "${q}" returned a result that does not match its output_schema: ${message}`,
    path,
  };
}

/** Executors already speak HostError; cap its text and keep only the known fields. */
function passThroughError(q: string, error: unknown, maxChars: number): HostError {
  if (!isHostError(error)) return { code: 'INVALID_RESULT', message: `Tool "${q}" returned a malformed error` };
  const out: HostError = {
    code: EXECUTOR_ERROR_CODE.test(error.code) ? error.code : 'TOOL_ERROR',
    message: cap(error.message, maxChars),
  };
  if (typeof error.hint === 'string') out.hint = cap(error.hint, maxChars);
  if (typeof error.path === 'string') out.path = cap(error.path, 256);
  return out;
}

function thrownToHostError(q: string, error: unknown, maxChars: number): HostError {
  if (error instanceof HostFailure) return passThroughError(q, error.error, maxChars);
  const detail = error instanceof Error ? error.message : String(error);
  return { code: 'TOOL_ERROR', message: cap(`Tool "${q}" failed: ${detail}`, maxChars) };
}

function cap(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}
