// The one way tools run: the registry's invoke with the safety pipeline in front of it, path permissions →
// dry run → cache → approval. Council, chat and tools.invoke all call this.
//
// The registry stays the executor-facing gate (lookup, sanitizing, the one schema check, deadline, result
// limits and output_schema); these steps add the decisions that depend on who is calling and on user policy.
import type { HostError, Result } from '../../../shared/errors';
import type { Settings } from '../../../shared/settings';
import { readSafetySettings, type ApprovalOrigin, type ApprovalRequest, type SafetySettings } from '../../../shared/types/safety';
import type { ToolInfo, ToolOutcome } from '../../../shared/types/tools';
import type { Clock, Logger } from '../ports';
import type { CheckedCall, InvokeOptions, RunCall, ToolRegistry } from '../registry/tool-registry';
import type { NormalizedArgs } from '../registry/registry-types';
import type { ApprovalService } from './approvals';
import { ApprovalPreviews, type PreviewProvider } from './approval-preview';
import { argsHash, canonicalJson, sha256Hex } from './args-hash';
import { checkToolPaths, type PathScope } from './path-permissions';
import type { CachePolicy, ToolResultCache } from './tool-cache';
import type { RedefinedTools } from './redefined-tools';

export type { PreviewProvider } from './approval-preview';

export interface GuardedInvokeOptions extends InvokeOptions {
  /** Simulate write tools (seed 001). The caller resolves its default (settings.safety.dryRun for council and chat). */
  dryRun?: boolean;
  /** Who is asking: decides the path scopes and what an approval dialog says. Default 'manual'. */
  origin?: ApprovalOrigin;
  /** The member a chat inline call is made for (council calls carry councilMember instead). */
  member?: { id: string; name: string; role: string };
}

export interface GuardedInvokerDeps {
  registry: ToolRegistry;
  settings: () => Settings;
  approvals: ApprovalService;
  cache: ToolResultCache;
  notesRoot: string;
  clock: Clock;
  log: Logger;
  /**
   * Sources whose tools run without asking when they declare no mode (an extension the person trusted
   * once; Lumiverse's tools declare none). Tools that declare `mode: 'write'` or `requires_approval` still ask.
   */
  trustedSource?: (sourceId: string) => boolean;
  /** Tools redefined while registered: they ask before their next call (R7). */
  redefined?: RedefinedTools;
}

/** One guarded call: what its steps share. */
interface GuardedCall {
  readonly opts: GuardedInvokeOptions;
  readonly start: number;
  readonly settings: Settings;
  readonly safety: SafetySettings;
  /** A builtin write tool's check for files beyond its path arguments (set by the path step). */
  mayWrite?: (path: string) => boolean;
}

export class GuardedInvoker {
  private readonly previews: ApprovalPreviews;

  constructor(private readonly deps: GuardedInvokerDeps) {
    this.previews = new ApprovalPreviews(deps.notesRoot, deps.log);
  }

  get(qualifiedName: string): ToolInfo | undefined {
    return this.deps.registry.get(qualifiedName);
  }

  resolve(nameOrAlias: string): ToolInfo | undefined {
    return this.deps.registry.resolve(nameOrAlias);
  }

  setPreviewProvider(sourceId: string, provider: PreviewProvider): () => void {
    return this.previews.setProvider(sourceId, provider);
  }

  /** Never rejects: every refusal is a ToolOutcome with a stable code. */
  invoke(nameOrAlias: string, rawArgs: unknown, opts: GuardedInvokeOptions): Promise<ToolOutcome> {
    const settings = this.deps.settings();
    const call: GuardedCall = { opts, start: this.deps.clock.now(), settings, safety: readSafetySettings(settings.safety) };
    // Unknown or unavailable tools, a bad timeout, a cancelled call, invalid arguments: the registry answers with its codes.
    return this.deps.registry.invoke(nameOrAlias, rawArgs, toRegistryOptions(opts), {
      normalize: (checked) => this.checkPaths(checked, call),
      steps: [(checked, next, run) => this.dryRun(checked, next, run, call), (checked, next) => this.cached(checked, next, call), (checked, next) => this.approved(checked, next, call)],
    });
  }

  /** 1. Path permissions, before anything can ask or run: the normalized paths replace the arguments. */
  private checkPaths({ info, definition, args }: CheckedCall, call: GuardedCall): Result<NormalizedArgs> {
    const mayWriteFiles = info.source === 'builtin' && info.mode === 'write';
    // Most tools take no paths: their calls skip building the scopes.
    if (definition.read_path_param === undefined && definition.write_path_param === undefined && !mayWriteFiles) return { ok: true, value: { args } };
    const scopes = this.scopesFor(call);
    const checked = checkToolPaths(definition, args, scopes);
    if (!checked.ok) return checked;
    if (!mayWriteFiles) return { ok: true, value: { args: checked.value } };
    // Builtin write tools that touch more than their path arguments check those files with this.
    const mayWrite = (p: string) => checkToolPaths(WRITE_ONE, { path: p }, scopes).ok;
    call.mayWrite = mayWrite;
    return { ok: true, value: { args: checked.value, mayWrite } };
  }

  /** 2. Dry run: write tools are simulated at once, with nothing to cache or approve; read tools go on. */
  private dryRun({ info }: CheckedCall, next: () => Promise<ToolOutcome>, run: RunCall, call: GuardedCall): Promise<ToolOutcome> {
    return call.opts.dryRun === true && info.mode === 'write' ? run({ simulate: true }) : next();
  }

  /** 3. Cache (seed 002): successful results of read tools only, under the definition they came from. */
  private cached(checked: CheckedCall, next: () => Promise<ToolOutcome>, call: GuardedCall): Promise<ToolOutcome> {
    const policy = checked.info.mode === 'read' ? checked.definition.cache : undefined;
    // Most tools declare no cache: their calls go straight on, without a promise of this step's own.
    return policy ? this.throughCache(checked, policy, next, call) : next();
  }

  private async throughCache({ info, args }: CheckedCall, policy: CachePolicy, next: () => Promise<ToolOutcome>, call: GuardedCall): Promise<ToolOutcome> {
    const key = this.cacheKey(args, call.opts);
    const hit = this.deps.cache.get(info.qualifiedName, policy, key);
    if (hit) return { ...hit, cached: true, durationMs: this.deps.clock.now() - call.start };
    const outcome = await next();
    if (outcome.ok && this.deps.registry.get(info.qualifiedName)?.definitionHash === info.definitionHash) {
      this.deps.cache.set(info.qualifiedName, policy, key, { ok: true, content: outcome.content, durationMs: outcome.durationMs });
    }
    return outcome;
  }

  /** 4. Approval, bound to the exact arguments and the definition hash. A person's time is not the tool's. */
  private approved(checked: CheckedCall, next: () => Promise<ToolOutcome>, call: GuardedCall): Promise<ToolOutcome> {
    const { info } = checked;
    const trusted = !info.modeDeclared && info.extensionId !== null && this.deps.trustedSource?.(info.extensionId) === true;
    const reason = this.deps.redefined?.needsApproval(info)
      ? 'definition_changed'
      : info.requiresApproval
        ? 'requires_approval'
        : call.safety.approveAllWrites && info.mode === 'write' && !trusted
          ? 'write_policy'
          : null;
    return !reason || this.deps.approvals.isAlwaysAllowed(info) ? next() : this.askFirst(checked, reason, next, call);
  }

  private async askFirst({ info, definition, args }: CheckedCall, reason: ApprovalRequest['reason'], next: () => Promise<ToolOutcome>, call: GuardedCall): Promise<ToolOutcome> {
    const { opts } = call;
    const { json, hash } = argsHash(args);
    const member = memberOf(opts);
    const diff = info.mode === 'write' ? await this.previews.preview(info, definition, args, call.mayWrite) : null;
    const answer = await this.deps.approvals.request(
      {
        toolQualifiedName: info.qualifiedName,
        toolDisplayName: info.displayName,
        description: info.description,
        mode: info.mode,
        reason,
        definitionHash: info.definitionHash,
        memberName: member?.name ?? null,
        memberRole: member ? member.role || null : null,
        origin: opts.origin ?? 'manual',
        args: structuredClone(args),
        argsJson: json,
        argsHash: hash,
        ...(diff ? { diff } : {}),
        deadline: call.start + opts.timeoutMs,
      },
      opts.signal,
    );
    if (!answer.approved) {
      return { ...this.failed(call.start, answer.error), ...(answer.note ? { rejectionNote: answer.note } : {}) };
    }
    // The definition may have changed while the person looked at the old one.
    if (this.deps.registry.get(info.qualifiedName)?.definitionHash !== info.definitionHash) {
      return this.failed(call.start, { code: 'APPROVAL_MISMATCH', message: `${info.displayName} changed while waiting for approval, so it did not run.` });
    }
    this.deps.redefined?.accept(info);
    return { ...(await next()), approval: answer.how };
  }

  /**
   * Canonical arguments (sorted keys), plus what else the tool receives: the member when the call
   * carries one (council calls), and the conversation context. Different members never share a key.
   */
  private cacheKey(args: Record<string, unknown>, opts: GuardedInvokeOptions): string {
    return sha256Hex(
      canonicalJson({
        args,
        member: opts.councilMember?.memberId ?? null,
        context: opts.context ?? null,
        contextMessages: opts.contextMessages ?? null,
      }),
    );
  }

  /** Council: the member's lists. Chat inline: the member's and the Workbench's. By hand: the Workbench's. */
  private scopesFor({ opts, safety, settings }: GuardedCall): PathScope[] {
    const workbench: PathScope = { label: 'The Workbench', ...safety.workbench };
    const origin = opts.origin ?? 'manual';
    const member = memberOf(opts);
    const scopes: PathScope[] = [];
    if (member && origin !== 'manual') {
      const row = (settings.council.members as Array<{ id: string; allowedReadPaths?: string[]; allowedWritePaths?: string[] }>).find((m) => m.id === member.id);
      scopes.push({ label: `Member ${member.name}`, allowedReadPaths: row?.allowedReadPaths, allowedWritePaths: row?.allowedWritePaths });
    }
    if (origin !== 'council') scopes.push(workbench);
    return scopes;
  }

  private failed(start: number, error: HostError): ToolOutcome {
    return { ok: false, error, durationMs: this.deps.clock.now() - start };
  }
}

/** One written path, checked like a tool's write path argument. */
const WRITE_ONE = { write_path_param: 'path' } as const;

function memberOf(opts: GuardedInvokeOptions): { id: string; name: string; role: string } | null {
  if (opts.member) return opts.member;
  if (opts.councilMember) return { id: opts.councilMember.memberId, name: opts.councilMember.name, role: opts.councilMember.role };
  return null;
}

function toRegistryOptions(opts: GuardedInvokeOptions): InvokeOptions {
  const out: InvokeOptions = { timeoutMs: opts.timeoutMs };
  if (opts.councilMember) out.councilMember = opts.councilMember;
  if (opts.contextMessages) out.contextMessages = opts.contextMessages;
  if (opts.context !== undefined) out.context = opts.context;
  if (opts.signal) out.signal = opts.signal;
  if (opts.requestId) out.requestId = opts.requestId;
  if (opts.unplanned) out.unplanned = true;
  return out;
}
