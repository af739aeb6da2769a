// The tool registry: which source registered which tool, how callers find it, and the one guarded path to invoke it.
//
// Everything a tool receives passes through invoke(): lookup, availability, argument sanitizing and schema validation
// (the executor never sees invalid args), host-supplied fields, its turn (admission.ts), a deadline backstop, and result
// normalization. Executors (worker host, builtins, MCP client) sit behind the ToolExecutor seam, trusted to answer — not even that.
import { HostFailure, type HostError, type Result } from '../../../shared/errors';
import { Emitter } from '../util/emitter';
import type { ToolRegistrationDTO } from '../../../shared/types/spindle';
import type { ToolInfo, ToolOutcome, ToolSource, ToolStatus } from '../../../shared/types/tools';
import { silentLogger, systemClock, type Clock, type Logger } from '../ports';
import type { ExecuteRequest, ExecuteResult, ToolExecutor } from '../registry-port';
import { checkArguments, executeRequest } from './call-arguments';
import { resultContent, thrownToHostError } from './call-outcome';
import { SchemaCompiler } from './compile-schema';
import { Invocation, requestIdCounter } from './invocation';
import { Admission } from './admission';
import { executeOn } from './tool-record';
import { DEFAULT_REGISTRY_LIMITS, type RegistryLimits } from './limits';
import { AliasTable, SOURCE_ID, deriveAlias, qualifiedName } from './names';
import type { RegistryEvent, RegistryEventListener } from './registry-events';
import { SIMULATION_PLACEHOLDER_TEXT, type InvokeOptions, type PreparedCall, type ToolFilter, type ToolRegistryDeps, type ToolSourceRef } from './registry-types';
import { err, ok } from './result';
import { systemTimers, type Timers } from '../ports';
import { infoOf, toolRecord, type ToolRecord } from './tool-record';
import { validateRegistration } from './validate-registration';

export { SIMULATION_PLACEHOLDER_TEXT, type InvokeOptions, type PreparedCall, type ToolFilter, type ToolRegistryDeps, type ToolSourceRef } from './registry-types';

interface SourceState {
  kind: ToolSource;
  /** One Ajv per source: `$id`s and Ajv's caches never mix between extensions. */
  compiler: SchemaCompiler;
  tools: Map<string, ToolRecord>;
}

const SOURCE_KINDS: readonly ToolSource[] = ['extension', 'builtin', 'mcp'];

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
  private readonly listeners = new Emitter<RegistryEvent>((error) => this.log.error('registry event listener failed', error));
  /** prepareCall() handles not yet run, with the record their arguments were checked against. */
  private readonly preparedCalls = new WeakMap<PreparedCall, ToolRecord>();
  private readonly inflight = new Set<Invocation>();
  private readonly admission: Admission;

  constructor(deps: ToolRegistryDeps = {}) {
    this.clock = deps.clock ?? systemClock;
    this.timers = deps.timers ?? systemTimers;
    this.log = deps.log ?? silentLogger;
    this.limits = { ...DEFAULT_REGISTRY_LIMITS, ...deps.limits };
    this.newRequestId = deps.newRequestId ?? requestIdCounter();
    this.admission = new Admission(this.limits);
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
    const { registration, parameters, outputSchema } = validated.value;
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
    const record = toolRecord(source, qualified, alias, validated.value, executor);
    state.tools.set(registration.name, record);
    this.tools.set(qualified, record);
    const info = infoOf(record, this.statuses);
    if (previous) {
      this.releaseSchemas(state, previous);
      const previousHash = previous.info.definitionHash;
      this.emit({ type: 'tool.replaced', tool: info, previousHash, definitionChanged: previousHash !== info.definitionHash });
    } else {
      this.emit({ type: 'tool.registered', tool: info });
    }
    return ok(infoOf(record, this.statuses));
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
      const info = infoOf(record, this.statuses);
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
    return record ? infoOf(record, this.statuses) : undefined;
  }

  /** The full normalized registration (output_schema, cache, path params), for approvals and caching. */
  getDefinition(qualified: string): ToolRegistrationDTO | undefined {
    const record = this.tools.get(qualified);
    return record ? { ...record.registration } : undefined;
  }

  /** Accepts a qualified name or a provider alias (what a model calls the tool). */
  resolve(nameOrAlias: string): ToolInfo | undefined {
    const record = this.lookup(nameOrAlias);
    return record ? infoOf(record, this.statuses) : undefined;
  }

  /** Alias → qualified name; the reverse of the provider-facing name. */
  resolveAlias(alias: string): string | undefined {
    return this.aliases.resolve(alias);
  }

  onEvent(listener: RegistryEventListener): () => void {
    return this.listeners.on(listener);
  }

  /** Never rejects: every failure is a ToolOutcome with a stable code. */
  invoke(nameOrAlias: string, rawArgs: unknown, opts: InvokeOptions): Promise<ToolOutcome> {
    return this.begin(nameOrAlias, rawArgs, opts);
  }

  /** Settles every in-flight invocation with HOST_SHUTDOWN and forgets all tools. */
  dispose(): void {
    // Waiting calls first, so a running call's end does not hand its slot to one about to be ended.
    const calls = [...this.inflight].sort((a, b) => Number(a.started) - Number(b.started));
    for (const call of calls) this.abortWith(call, { code: 'HOST_SHUTDOWN', message: 'The host is shutting down' });
    for (const sourceId of [...this.sources.keys()]) this.unregisterAll(sourceId);
    this.listeners.clear();
  }

  /**
   * For a caller that checks and then runs in the same tick (the guard): undefined when the tool is
   * unknown or unavailable (invoke() answers those with its codes), else the checked arguments with
   * the tool's info and definition, or the reason they were refused.
   */
  prepareCall(nameOrAlias: string, rawArgs: unknown, unplanned = false): Result<PreparedCall> | undefined {
    const record = typeof nameOrAlias === 'string' ? this.lookup(nameOrAlias) : undefined;
    if (!record || (this.statuses.get(record.sourceId) ?? 'available') !== 'available') return undefined;
    const checked = checkArguments(record, rawArgs, unplanned, this.limits, this.log);
    if (!checked.ok) return checked;
    const call: PreparedCall = { info: infoOf(record, this.statuses), definition: record.registration, args: checked.value };
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
    return this.begin(record.info.qualifiedName, call.args, opts, record);
  }

  /** The one path every call takes; `checkedFor` skips the argument check prepareCall() already made. */
  private begin(nameOrAlias: string, rawArgs: unknown, opts: InvokeOptions, checkedFor?: ToolRecord): Promise<ToolOutcome> {
    const start = this.clock.now();
    try {
      const prepared = this.prepare(nameOrAlias, rawArgs, opts, start, checkedFor);
      if (!prepared.ok) return Promise.resolve(this.failedSince(start, prepared.error));
      return this.run(prepared.value.record, prepared.value.request, opts, start);
    } catch (error) {
      this.log.error('tool invocation failed before reaching the executor', error);
      return Promise.resolve(this.failedSince(start, { code: 'INTERNAL', message: 'The host failed to prepare the tool call' }));
    }
  }

  private prepare(
    nameOrAlias: string,
    rawArgs: unknown,
    opts: InvokeOptions,
    start: number,
    /** Set by invokePrepared(): rawArgs were already checked against this record. */
    checkedFor?: ToolRecord,
  ): Result<{ record: ToolRecord; request: Omit<ExecuteRequest, 'signal'> }> {
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

    const sanitized = checkedFor ? ok(rawArgs as Record<string, unknown>) : checkArguments(record, rawArgs, opts.unplanned === true, this.limits, this.log);
    if (!sanitized.ok) return sanitized;

    const request = executeRequest(record, sanitized.value, opts, start, opts.requestId ?? this.newRequestId());
    return ok({ record, request });
  }

  private run(
    record: ToolRecord,
    baseRequest: Omit<ExecuteRequest, 'signal'>,
    opts: InvokeOptions,
    start: number,
  ): Promise<ToolOutcome> {
    return new Promise<ToolOutcome>((resolve) => {
      const call = new Invocation(record.info.qualifiedName, start, opts, resolve, this.abortWith);
      // Backstop: the executor owns the deadline, but if it has not settled shortly after it, stop
      // waiting, abort its signal and drop whatever it sends later. A call waiting for its turn times out the same way.
      this.inflight.add(call);
      const backstopAt = start + opts.timeoutMs + this.limits.timeoutGraceMs;
      call.timer = this.timers.setTimeout(
        () =>
          this.abortWith(call, { code: 'TOOL_TIMEOUT', message: `Tool "${call.q}" did not answer within ${call.timeoutMs} ms`, hint: 'The tool may be slow or stuck; continue without it or try again later.' }),
        Math.max(1, backstopAt - this.clock.now()),
      );
      opts.signal?.addEventListener('abort', call, { once: true });
      call.withdraw = this.admission.enter(call.q, () => this.start(call, record, baseRequest, opts));
    });
  }

  /** The call's turn: hand it to its executor. */
  private start(call: Invocation, record: ToolRecord, baseRequest: Omit<ExecuteRequest, 'signal'>, opts: InvokeOptions): void {
    call.started = true;
    // Its caller gave up while it waited (a council deadline aborts many at once): it never reaches the tool.
    if (opts.signal?.aborted) return call.handleEvent();
    const request: ExecuteRequest = { ...baseRequest, signal: call.controller.signal };
    const simulate = opts.simulate === true;
    const pending = executeOn(record, request, simulate);
    pending.then(
      (result) => {
        if (call.settled) {
          this.log.info('late tool result dropped', { tool: call.q, requestId: request.requestId });
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
        this.log.error('tool executor threw', { tool: call.q, error });
        this.settle(call, this.failedSince(call.start, thrownToHostError(call.q, error, this.limits.maxErrorTextChars)));
      },
    );
  }

  private failedSince(start: number, error: HostError): ToolOutcome {
    return { ok: false, error, durationMs: this.clock.now() - start };
  }

  private settle(call: Invocation, outcome: ToolOutcome): void {
    if (call.settled) return;
    call.settled = true;
    call.callerSignal?.removeEventListener('abort', call);
    this.inflight.delete(call);
    this.timers.clearTimeout(call.timer);
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
    const content = resultContent(record.info.qualifiedName, result, record.outputSchema, this.limits);
    return content.ok ? { ok: true, content: content.value, durationMs: this.clock.now() - start } : this.failedSince(start, content.error);
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

  private emit(event: RegistryEvent): void {
    this.listeners.emit(event);
  }
}
