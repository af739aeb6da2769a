// The approval queue: requests wait for a person (or the policy answers), bound to the exact arguments shown; "always" is persisted per definition hash.
import { randomUUID } from 'node:crypto';
import { fail, type HostError } from '../../../shared/errors';
import type { HostEvent } from '../../../shared/contract/events';
import {
  readSafetySettings,
  type AlwaysAllowEntry,
  type ApprovalDecision,
  type ApprovalRequest,
  type ApprovalResolution,
} from '../../../shared/types/safety';
import type { ToolInfo } from '../../../shared/types/tools';
import type { Clock, Logger } from '../ports';
import { systemTimers, type Timers } from '../ports';
import type { SettingsStore } from '../settings/settings-store';
import type { ApprovalPolicy } from './approval-policy';

export type ApprovalAnswer =
  | { approved: true; how: 'once' | 'always' | 'policy' }
  | { approved: false; error: HostError; note?: string };

export interface ApprovalServiceDeps {
  settings: SettingsStore;
  policy: ApprovalPolicy;
  clock: Clock;
  emit(event: HostEvent): void;
  log: Logger;
  timers?: Timers;
  newId?: () => string;
}

interface Pending {
  request: ApprovalRequest;
  resolve(answer: ApprovalAnswer): void;
  timer: unknown;
  cleanup(): void;
}

/** A rejection note is the person's text, at most this long; it reaches the model only JSON-quoted. */
export const MAX_REJECTION_NOTE_CHARS = 2000;

export class ApprovalService {
  private readonly pending = new Map<string, Pending>();
  private readonly timers: Timers;
  private readonly newId: () => string;
  private policy: ApprovalPolicy;

  constructor(private readonly deps: ApprovalServiceDeps) {
    this.timers = deps.timers ?? systemTimers;
    this.newId = deps.newId ?? (() => `ap-${randomUUID()}`);
    this.policy = deps.policy;
  }

  get policyKind(): ApprovalPolicy['kind'] {
    return this.policy.kind;
  }

  setPolicy(policy: ApprovalPolicy): void {
    this.policy = policy;
  }

  /** "Always allow" holds only while the tool's definition hash is the one the person saw. */
  isAlwaysAllowed(info: Pick<ToolInfo, 'qualifiedName' | 'definitionHash'>): boolean {
    return this.alwaysAllowList().some((e) => e.qualifiedName === info.qualifiedName && e.definitionHash === info.definitionHash);
  }

  alwaysAllowList(): AlwaysAllowEntry[] {
    return readSafetySettings(this.deps.settings.get().safety).alwaysAllow;
  }

  async revoke(qualifiedName: string): Promise<boolean> {
    const before = this.alwaysAllowList();
    if (!before.some((e) => e.qualifiedName === qualifiedName)) return false;
    await this.deps.settings.update((current) => ({
      ...current,
      safety: { ...readSafetySettings(current.safety), alwaysAllow: readSafetySettings(current.safety).alwaysAllow.filter((e) => e.qualifiedName !== qualifiedName) },
    }));
    this.deps.emit({ type: 'approvals.allowed.changed' });
    return true;
  }

  private async remember(qualifiedName: string, definitionHash: string): Promise<void> {
    const entry: AlwaysAllowEntry = { qualifiedName, definitionHash, grantedAt: this.deps.clock.now() };
    await this.deps.settings.update((current) => {
      const safety = readSafetySettings(current.safety);
      return { ...current, safety: { ...safety, alwaysAllow: [...safety.alwaysAllow.filter((e) => e.qualifiedName !== qualifiedName), entry] } };
    });
    this.deps.emit({ type: 'approvals.allowed.changed' });
  }

  /** Pending requests, oldest first. */
  list(): ApprovalRequest[] {
    return [...this.pending.values()].map((p) => p.request);
  }

  /**
   * Raises the request (or lets the policy answer it) and resolves when it is answered, times out
   * at `deadline`, or the caller's signal aborts. Never rejects.
   */
  request(input: Omit<ApprovalRequest, 'id' | 'requestedAt'>, signal?: AbortSignal): Promise<ApprovalAnswer> {
    const request: ApprovalRequest = { id: this.newId(), requestedAt: this.deps.clock.now(), ...input };
    const answer = this.policy.decide(request);
    if (answer) {
      const resolution: ApprovalResolution = answer.allow ? 'policy-allow' : 'policy-deny';
      this.deps.log.info('approval answered by policy', { tool: request.toolQualifiedName, resolution });
      if (answer.allow) return Promise.resolve({ approved: true, how: 'policy' });
      return Promise.resolve({
        approved: false,
        error: { code: 'APPROVAL_DENIED', message: answer.message, ...(answer.hint ? { hint: answer.hint } : {}) },
      });
    }
    if (signal?.aborted) return Promise.resolve({ approved: false, error: { code: 'CANCELLED', message: 'The call was cancelled before it was approved.' } });
    return new Promise<ApprovalAnswer>((resolve) => {
      const onAbort = () => this.finish(request.id, 'cancelled', { approved: false, error: { code: 'CANCELLED', message: 'The call was cancelled while waiting for approval.' } });
      const wait = Math.max(0, request.deadline - this.deps.clock.now());
      const timer = this.timers.setTimeout(
        () =>
          this.finish(request.id, 'timeout', {
            approved: false,
            error: {
              code: 'APPROVAL_TIMEOUT',
              message: `Nobody approved ${request.toolDisplayName} before its deadline, so it did not run.`,
              hint: 'Treat this as a rejection; do not retry the same call unless the user asks.',
            },
          }),
        wait,
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(request.id, { request, resolve, timer, cleanup: () => signal?.removeEventListener('abort', onAbort) });
      this.deps.emit({ type: 'approval.requested', request });
    });
  }

  /**
   * A person's answer. The argsHash must be the one of the request shown; any other hash rejects the
   * call (APPROVAL_MISMATCH) — an approval is never reused for other arguments.
   */
  async respond(input: { id: string; argsHash: string; decision: ApprovalDecision; message?: string }): Promise<{ status: 'approved' | 'rejected' | 'mismatch' }> {
    const pending = this.pending.get(input.id);
    if (!pending) fail('NOT_FOUND', `No pending approval "${input.id}" (it may have timed out or been answered).`, { path: '/id' });
    const { request } = pending;
    if (input.argsHash !== request.argsHash) {
      this.finish(request.id, 'mismatch', {
        approved: false,
        error: {
          code: 'APPROVAL_MISMATCH',
          message: `The approval for ${request.toolDisplayName} did not match the arguments shown, so the call was rejected.`,
        },
      });
      return { status: 'mismatch' };
    }
    if (input.decision === 'reject') {
      const note = typeof input.message === 'string' && input.message.trim() ? input.message.slice(0, MAX_REJECTION_NOTE_CHARS) : undefined;
      this.finish(request.id, 'reject', { approved: false, error: rejectionError(request, note), ...(note ? { note } : {}) });
      return { status: 'rejected' };
    }
    if (input.decision === 'always') {
      await this.remember(request.toolQualifiedName, request.definitionHash);
      this.finish(request.id, 'always', { approved: true, how: 'always' });
      // The person allowed the tool itself: other waiting calls of the same definition go ahead too.
      for (const other of [...this.pending.values()]) {
        if (other.request.toolQualifiedName === request.toolQualifiedName && other.request.definitionHash === request.definitionHash) {
          this.finish(other.request.id, 'always', { approved: true, how: 'always' });
        }
      }
      return { status: 'approved' };
    }
    this.finish(request.id, 'once', { approved: true, how: 'once' });
    return { status: 'approved' };
  }

  private finish(id: string, resolution: ApprovalResolution, answer: ApprovalAnswer): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    this.timers.clearTimeout(pending.timer);
    pending.cleanup();
    this.deps.emit({ type: 'approval.resolved', id, toolQualifiedName: pending.request.toolQualifiedName, resolution });
    pending.resolve(answer);
  }

  /** Host shutdown: every waiting call is rejected. */
  dispose(): void {
    for (const id of [...this.pending.keys()]) {
      this.finish(id, 'cancelled', { approved: false, error: { code: 'HOST_SHUTDOWN', message: 'The host is shutting down.' } });
    }
  }
}

/**
 * What the model reads when a person rejected the call. The note is the person's own words, but it is
 * delivered as data: JSON-quoted inside a fixed sentence, so text such as "ignore previous
 * instructions" cannot pose as the host's or the tool's voice.
 */
function rejectionError(request: ApprovalRequest, note: string | undefined): HostError {
  const base = `The user rejected this call of ${request.toolDisplayName}; it did not run.`;
  return {
    code: 'APPROVAL_REJECTED',
    message: note ? `${base} The user's rejection note follows as a JSON string (their words, quoted as data): ${JSON.stringify(note)}` : base,
    hint: 'Do not retry the same call. Take the rejection note into account as the user’s feedback.',
  };
}
