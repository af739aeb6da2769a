// The one way tools run: path permissions → dry run → cache → approval → registry.invoke → cache store. Council, chat and tools.invoke all call this.
//
// ToolRegistry.invoke stays the executor-facing gate (sanitizing, schema, deadline, result limits and
// output_schema); this layer adds the decisions that depend on who is calling and on user policy.
import fs from 'node:fs';
import path from 'node:path';
import type { HostError } from '../../../shared/errors';
import type { Settings } from '../../../shared/settings';
import { readSafetySettings, type ApprovalDiff, type ApprovalOrigin, type SafetySettings } from '../../../shared/types/safety';
import type { ToolRegistrationDTO } from '../../../shared/types/spindle';
import type { ToolInfo, ToolOutcome } from '../../../shared/types/tools';
import type { Clock, Logger } from '../ports';
import type { InvokeOptions, ToolRegistry } from '../registry/tool-registry';
import type { ApprovalService } from './approvals';
import { argsHash, canonicalJson, sha256Hex } from './args-hash';
import { unifiedDiff } from '../../../shared/text/line-diff';
import { checkToolPaths, type PathScope } from './path-permissions';
import type { ToolResultCache } from './tool-cache';
import type { RedefinedTools } from './redefined-tools';

export interface GuardedInvokeOptions extends InvokeOptions {
  /** Simulate write tools (seed 001). The caller resolves its default (settings.safety.dryRun for council and chat). */
  dryRun?: boolean;
  /** Who is asking: decides the path scopes and what an approval dialog says. Default 'manual'. */
  origin?: ApprovalOrigin;
  /** The member a chat inline call is made for (council calls carry councilMember instead). */
  member?: { id: string; name: string; role: string };
}

/**
 * Computes a before/after preview for a write tool of one source (the note tools). `mayWrite` is the
 * caller's write check, for writes beyond the path arguments (see ExecuteRequest.mayWrite).
 */
export type PreviewProvider = (toolName: string, args: Record<string, unknown>, mayWrite?: (path: string) => boolean) => Promise<ApprovalDiff | null>;

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

const MAX_PREVIEW_BYTES = 1024 * 1024;

export class GuardedInvoker {
  private readonly previews = new Map<string, PreviewProvider>();

  constructor(private readonly deps: GuardedInvokerDeps) {}

  get(qualifiedName: string): ToolInfo | undefined {
    return this.deps.registry.get(qualifiedName);
  }

  resolve(nameOrAlias: string): ToolInfo | undefined {
    return this.deps.registry.resolve(nameOrAlias);
  }

  setPreviewProvider(sourceId: string, provider: PreviewProvider): () => void {
    this.previews.set(sourceId, provider);
    return () => {
      if (this.previews.get(sourceId) === provider) this.previews.delete(sourceId);
    };
  }

  /** Never rejects: every refusal is a ToolOutcome with a stable code. */
  async invoke(nameOrAlias: string, rawArgs: unknown, opts: GuardedInvokeOptions): Promise<ToolOutcome> {
    const start = this.deps.clock.now();
    try {
      return await this.guarded(nameOrAlias, rawArgs, opts, start);
    } catch (error) {
      this.deps.log.error('guarded tool invocation failed', error);
      return this.failed(start, { code: 'INTERNAL', message: 'The host failed to run the tool call safely.' });
    }
  }

  private async guarded(nameOrAlias: string, rawArgs: unknown, opts: GuardedInvokeOptions, start: number): Promise<ToolOutcome> {
    const { registry } = this.deps;
    // Unknown or unavailable tools, a bad timeout, a cancelled call: the registry answers with its codes.
    let prepared = registry.prepareCall(nameOrAlias, rawArgs, opts.unplanned === true);
    if (!prepared) return registry.invoke(nameOrAlias, rawArgs, toRegistryOptions(opts));
    if (!prepared.ok) return this.failed(start, prepared.error);
    const { info, definition } = prepared.value;
    const settings = this.deps.settings();
    const safety = readSafetySettings(settings.safety);

    // 1. Path permissions, before anything can ask or run; the normalized paths replace the arguments.
    // Most tools take no paths: their calls skip building the scopes.
    const mayWriteFiles = info.source === 'builtin' && info.mode === 'write';
    const takesPaths = definition.read_path_param !== undefined || definition.write_path_param !== undefined || mayWriteFiles;
    const scopes = takesPaths ? this.scopesFor(opts, safety, settings) : [];
    const pathsChecked = checkToolPaths(definition, prepared.value.args, scopes);
    if (!pathsChecked.ok) return this.failed(start, pathsChecked.error);
    // Builtin write tools that touch more than their path arguments check those files with this.
    const mayWrite = mayWriteFiles ? (p: string) => checkToolPaths(WRITE_ONE, { path: p }, scopes).ok : undefined;
    const registryOptions = mayWrite ? { ...toRegistryOptions(opts), mayWrite } : toRegistryOptions(opts);
    if (pathsChecked.value !== prepared.value.args) {
      // Normalizing can change a value (`a/..` → ""): what is shown and run must still fit the schema.
      prepared = registry.prepareCall(info.qualifiedName, pathsChecked.value, opts.unplanned === true);
      if (!prepared) return registry.invoke(info.qualifiedName, pathsChecked.value, registryOptions);
      if (!prepared.ok) return this.failed(start, prepared.error);
    }
    const call = prepared.value;
    const args = call.args;

    // 2. Dry run: read tools run for real (below); write tools are simulated, with nothing to approve.
    // From here to the run nothing awaits unless a person is asked: the checked call runs as checked.
    if (opts.dryRun === true && info.mode === 'write') {
      return registry.invokePrepared(call, { ...registryOptions, simulate: true });
    }

    // 3. Cache (seed 002): successful results of read tools only.
    const cachePolicy = info.mode === 'read' ? definition.cache : undefined;
    const cacheKey = cachePolicy ? this.cacheKey(args, opts) : '';
    if (cachePolicy) {
      const hit = this.deps.cache.get(info.qualifiedName, cachePolicy, cacheKey);
      if (hit) return { ...hit, cached: true, durationMs: this.deps.clock.now() - start };
    }

    // 4. Approval, bound to the exact arguments and the definition hash.
    let approval: 'once' | 'always' | 'policy' | undefined;
    const trusted = !info.modeDeclared && info.extensionId !== null && this.deps.trustedSource?.(info.extensionId) === true;
    const reason = this.deps.redefined?.needsApproval(info)
      ? 'definition_changed'
      : info.requiresApproval
        ? 'requires_approval'
        : safety.approveAllWrites && info.mode === 'write' && !trusted
          ? 'write_policy'
          : null;
    if (reason && !this.deps.approvals.isAlwaysAllowed(info)) {
      const { json, hash } = argsHash(args);
      const member = memberOf(opts);
      const diff = info.mode === 'write' ? await this.preview(info, definition, args, mayWrite) : null;
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
          deadline: start + opts.timeoutMs,
        },
        opts.signal,
      );
      if (!answer.approved) {
        return { ...this.failed(start, answer.error), ...(answer.note ? { rejectionNote: answer.note } : {}) };
      }
      approval = answer.how;
      // The definition may have changed while the person looked at the old one.
      if (registry.get(info.qualifiedName)?.definitionHash !== info.definitionHash) {
        return this.failed(start, { code: 'APPROVAL_MISMATCH', message: `${info.displayName} changed while waiting for approval, so it did not run.` });
      }
      this.deps.redefined?.accept(info);
    }

    // 5. Run. A person's approval time is not the tool's: it gets its full timeout from here.
    // After a wait for a person (and a preview that saw the arguments) the registry checks them again.
    const outcome = await (approval ? registry.invoke(info.qualifiedName, args, registryOptions) : registry.invokePrepared(call, registryOptions));
    if (cachePolicy && outcome.ok && registry.get(info.qualifiedName)?.definitionHash === info.definitionHash) {
      this.deps.cache.set(info.qualifiedName, cachePolicy, cacheKey, { ok: true, content: outcome.content, durationMs: outcome.durationMs });
    }
    return approval ? { ...outcome, approval } : outcome;
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
  private scopesFor(opts: GuardedInvokeOptions, safety: SafetySettings, settings: Settings): PathScope[] {
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

  private async preview(info: ToolInfo, definition: ToolRegistrationDTO, args: Record<string, unknown>, mayWrite?: (path: string) => boolean): Promise<ApprovalDiff | null> {
    const sourceId = info.qualifiedName.slice(0, info.qualifiedName.indexOf(':'));
    const provider = this.previews.get(sourceId);
    try {
      if (provider && info.source === 'builtin') return await provider(info.name, args, mayWrite);
      return await this.inferredPreview(definition, args);
    } catch (error) {
      this.deps.log.warn('approval preview failed', { tool: info.qualifiedName, error: (error as Error).message });
      return null;
    }
  }

  /** A tool with one write path and a string `content` argument: assume it writes content as the whole file. */
  private async inferredPreview(definition: ToolRegistrationDTO, args: Record<string, unknown>): Promise<ApprovalDiff | null> {
    const params = definition.write_path_param === undefined ? [] : ([] as string[]).concat(definition.write_path_param);
    const target = params.length === 1 ? args[params[0]!] : undefined;
    if (typeof target !== 'string' || target === '' || typeof args.content !== 'string' || path.posix.isAbsolute(target)) return null;
    const root = await fs.promises.realpath(this.deps.notesRoot).catch(() => null);
    if (!root) return null;
    const file = path.join(root, ...target.split('/'));
    let before = '';
    let created = true;
    try {
      const real = await fs.promises.realpath(file);
      if (real !== root && !real.startsWith(root + path.sep)) return null;
      const stat = await fs.promises.stat(real);
      if (!stat.isFile() || stat.size > MAX_PREVIEW_BYTES) return null;
      before = await fs.promises.readFile(real, 'utf8');
      created = false;
    } catch {
      // Not there yet: the preview shows a new file.
    }
    const after = args.content;
    return { path: target, before, after, unified: unifiedDiff(target, before, after, { created }), created, inferred: true };
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
