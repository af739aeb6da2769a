// Who answers approval requests: a person (desktop and browser UI) or the command line's --approve patterns.
import type { ApprovalRequest } from '../../../shared/types/safety';
import { matchesAny } from './glob';

export type PolicyAnswer = { allow: true } | { allow: false; message: string; hint?: string };

export interface ApprovalPolicy {
  readonly kind: 'interactive' | 'patterns';
  /** null: wait for a person (approvals.respond). Otherwise the answer, at once. */
  decide(request: ApprovalRequest): PolicyAnswer | null;
}

/** The desktop and browser UI: every request waits in the queue for a person. */
export const interactiveApprovalPolicy: ApprovalPolicy = { kind: 'interactive', decide: () => null };

/** CLI and headless runs: allowed only when a pattern matches the qualified name; nobody is asked. */
export function patternApprovalPolicy(patterns: readonly string[]): ApprovalPolicy {
  const list = [...patterns];
  return {
    kind: 'patterns',
    decide(request) {
      if (matchesAny(request.toolQualifiedName, list)) return { allow: true };
      return {
        allow: false,
        message: `${request.toolQualifiedName} needs approval, and no --approve pattern allows it in this run.`,
        hint: `Run again with --approve '${request.toolQualifiedName}' (or a glob such as '${request.toolQualifiedName.split(':')[0]}:*').`,
      };
    },
  };
}
