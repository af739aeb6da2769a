// The tool registry: which source registered which tool, how callers find it, and the one guarded path to invoke it.
//
// Everything a tool receives passes through invoke(): lookup, availability, argument sanitizing and schema validation
// (the executor never sees invalid args), host-supplied fields; then the call runs (call-runner.ts: its turn, a
// deadline backstop, result normalization). Executors (worker host, builtins, MCP client) sit behind the ToolExecutor seam, trusted to answer — not even that.
import type { HostError, Result } from '../../../shared/errors';
import { Emitter } from '../util/emitter';
import type { ToolRegistrationDTO } from '../../../shared/types/spindle';
import type { ToolInfo, ToolOutcome, ToolSource, ToolStatus } from '../../../shared/types/tools';
import { silentLogger, systemClock, type Clock, type Logger } from '../ports';
import type { ToolExecutor } from '../registry-port';
import { checkArguments } from './call-arguments';
import { SchemaCompiler } from './compile-schema';
import { requestIdCounter } from './invocation';
import { CallRunner } from './call-runner';
import { DEFAULT_REGISTRY_LIMITS, type RegistryLimits } from './limits';
import { AliasTable, SOURCE_ID, deriveAlias, qualifiedName } from './names';
import type { RegistryEvent, RegistryEventListener } from './registry-events';
import type { CallGuard, CheckedCall, InvokeOptions, RunCall, ToolFilter, ToolRegistryDeps, ToolSourceRef } from './registry-types';
import { err, ok } from './result';
import { systemTimers, type Timers } from '../ports';
import { infoOf, toolRecord, type ToolRecord } from './tool-record';
import { validateRegistration } from './validate-registration';

export { SIMULATION_PLACEHOLDER_TEXT, type CallGuard, type CheckedCall, type GuardStep, type InvokeOptions, type RunCall, type ToolFilter, type ToolRegistryDeps, type ToolSourceRef } from './registry-types';

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
  private readonly tools = new Map<string, ToolRecord>();
  private readonly sources = new Map<string, SourceState>();
  private readonly statuses = new Map<string, ToolStatus>();
  private readonly aliases = new AliasTable();
  private readonly listeners = new Emitter<RegistryEvent>((error) => this.log.error('registry event listener failed', error));
  private readonly calls: CallRunner;

  constructor(deps: ToolRegistryDeps = {}) {
    this.clock = deps.clock ?? systemClock;
    this.timers = deps.timers ?? systemTimers;
    this.log = deps.log ?? silentLogger;
    this.limits = { ...DEFAULT_REGISTRY_LIMITS, ...deps.limits };
    this.calls = new CallRunner({ clock: this.clock, timers: this.timers, log: this.log, limits: this.limits, newRequestId: deps.newRequestId ?? requestIdCounter() });
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

    const compiler = existingSource?.compiler ?? new SchemaCompiler(this.limits, { deferCompile: source.kind === 'builtin' });
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
      this.listeners.emit({ type: 'tool.replaced', tool: info, previousHash, definitionChanged: previousHash !== info.definitionHash });
    } else {
      this.listeners.emit({ type: 'tool.registered', tool: info });
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
    if (current !== status) this.listeners.emit({ type: 'source.status', sourceId, status });
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

  /**
   * The one call path: lookup, checks, run. Never rejects: every failure is a ToolOutcome with a stable
   * code. `guard` is the caller's safety pipeline: it may rewrite the arguments before the one schema
   * check, then its steps decide whether and how the checked call runs.
   */
  invoke(nameOrAlias: string, rawArgs: unknown, opts: InvokeOptions, guard?: CallGuard): Promise<ToolOutcome> {
    const start = this.clock.now();
    try {
      const checked = this.check(nameOrAlias, rawArgs, opts, guard);
      if (!checked.ok) return Promise.resolve(this.calls.failedSince(start, checked.error));
      const { record, args, call, runOptions } = checked.value;
      if (!guard || !call || guard.steps.length === 0) return this.calls.run(record, args, runOptions, start);
      const run: RunCall = (options) => this.runChecked(record, args, options?.simulate ? { ...runOptions, simulate: true } : runOptions);
      const stepAt = (i: number): Promise<ToolOutcome> => {
        const step = guard.steps[i];
        return step ? step(call, () => stepAt(i + 1), run) : run();
      };
      return stepAt(0).catch((error: unknown) => {
        this.log.error('tool call guard failed', error);
        return this.calls.failedSince(start, { code: 'INTERNAL', message: 'The host failed to run the tool call safely.' });
      });
    } catch (error) {
      this.log.error('tool invocation failed before reaching the executor', error);
      return Promise.resolve(this.calls.failedSince(start, { code: 'INTERNAL', message: 'The host failed to prepare the tool call' }));
    }
  }

  /**
   * Why these arguments would be refused by the tool's schema, or null when they would pass: a planner checks a plan
   * before it is used (and asks again once, showing this error).
   */
  checkPlannedArguments(qualified: string, args: Record<string, unknown>): HostError | null {
    const record = this.lookup(qualified);
    if (!record) return { code: 'UNKNOWN_TOOL', message: `Unknown tool ${qualified}.` };
    const checked = checkArguments(record, args, false, this.limits, this.log);
    return checked.ok ? null : checked.error;
  }

  /** Resolves once every executor that started has ended (at most `maxMs`): their writes land before the host is gone. */
  executorsSettled(maxMs = 5000): Promise<void> {
    return this.calls.executorsSettled(maxMs);
  }

  /** Settles every in-flight invocation with HOST_SHUTDOWN and forgets all tools. */
  dispose(): void {
    // Waiting calls first, so a running call's end does not hand its slot to one about to be ended.
    this.calls.abortAll({ code: 'HOST_SHUTDOWN', message: 'The host is shutting down' });
    for (const sourceId of [...this.sources.keys()]) this.unregisterAll(sourceId);
    this.listeners.clear();
  }

  private check(nameOrAlias: string, rawArgs: unknown, opts: InvokeOptions, guard?: CallGuard): Result<{ record: ToolRecord; args: Record<string, unknown>; call: CheckedCall | null; runOptions: InvokeOptions }> {
    const record = typeof nameOrAlias === 'string' ? this.lookup(nameOrAlias) : undefined;
    if (!record) {
      const shown = typeof nameOrAlias === 'string' ? JSON.stringify(nameOrAlias.slice(0, 128)) : 'that is not a string';
      return err('UNKNOWN_TOOL', `Unknown tool ${shown}`, {
        hint: 'Call one of the tools listed in this request; names are case-sensitive.',
      });
    }
    const refused = this.refusal(record, opts);
    if (refused) return { ok: false, error: refused };
    // Only a guard needs the call's ToolInfo: an unguarded call builds none.
    const info = guard ? infoOf(record, this.statuses) : null;
    const normalize = info && guard?.normalize && ((args: Record<string, unknown>) => guard.normalize!({ info, definition: record.registration, args }));
    const checked = checkArguments(record, rawArgs, opts.unplanned === true, this.limits, this.log, normalize || undefined);
    if (!checked.ok) return checked;
    const { args, mayWrite } = checked.value;
    return ok({ record, args, call: info && { info, definition: record.registration, args }, runOptions: mayWrite ? { ...opts, mayWrite } : opts });
  }

  /** Why a call to this tool cannot start now, if it cannot. */
  private refusal(record: ToolRecord, opts: InvokeOptions): HostError | null {
    const q = record.info.qualifiedName;
    if ((this.statuses.get(record.sourceId) ?? 'available') !== 'available') {
      return {
        code: 'TOOL_UNAVAILABLE',
        message: `Tool "${q}" is unavailable right now`,
        hint: 'Its extension is stopped or restarting; continue without it or try again later.',
      };
    }
    if (typeof opts?.timeoutMs !== 'number' || !Number.isFinite(opts.timeoutMs) || opts.timeoutMs <= 0) {
      return { code: 'INVALID_INPUT', message: 'timeoutMs must be a positive number', path: '/timeoutMs' };
    }
    if (opts.signal?.aborted) return { code: 'CANCELLED', message: `Call to "${q}" was cancelled before it started` };
    return null;
  }

  /**
   * The end of the guard's steps, which may have waited for a person: the deadline starts now. A tool
   * replaced or removed meanwhile is looked up and checked again in full.
   */
  private runChecked(record: ToolRecord, args: Record<string, unknown>, opts: InvokeOptions): Promise<ToolOutcome> {
    const start = this.clock.now();
    if (this.tools.get(record.info.qualifiedName) !== record) return this.invoke(record.info.qualifiedName, args, opts);
    const refused = this.refusal(record, opts);
    if (refused) return Promise.resolve(this.calls.failedSince(start, refused));
    return this.calls.run(record, args, opts, start);
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
    this.listeners.emit({
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
}
