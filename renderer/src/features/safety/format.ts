// Plain helpers for the safety UI: labels, the arguments as pretty JSON, diff lines, countdown text.
import type { ApprovalRequest } from '../../../../shared/types/safety';

export function whoAsks(request: Pick<ApprovalRequest, 'memberName' | 'memberRole' | 'origin'>): string {
  if (request.memberName) return request.memberRole ? `${request.memberName} – ${request.memberRole}` : request.memberName;
  switch (request.origin) {
    case 'council':
      return 'A council run';
    case 'chat':
      return 'The Workbench chat';
    case 'manual':
      return 'Try it (Tools section)';
  }
}

export const REASON_TEXT: Record<ApprovalRequest['reason'], string> = {
  requires_approval: 'requires approval',
  write_policy: 'write policy',
  definition_changed: 'tool changed',
};

export const REASON_HELP: Record<ApprovalRequest['reason'], string> = {
  requires_approval: 'The tool declares that every call needs a person’s approval.',
  write_policy: '“Ask before every write tool” is on in Safety, and this tool can change things.',
  definition_changed: 'Its source changed this tool’s description or arguments since it was registered; check what it says now before it runs again.',
};

/** The exact arguments as indented JSON; the canonical text itself when it does not parse. */
export function prettyArgs(argsJson: string): string {
  try {
    return JSON.stringify(JSON.parse(argsJson), null, 2);
  } catch {
    return argsJson;
  }
}

export type DiffLineKind = 'add' | 'del' | 'hunk' | 'file' | 'context';

export function diffLines(unified: string): Array<{ kind: DiffLineKind; text: string }> {
  const lines = unified.replace(/\n$/, '').split('\n');
  return lines.map((text) => {
    if (text.startsWith('+++') || text.startsWith('---')) return { kind: 'file', text };
    if (text.startsWith('@@')) return { kind: 'hunk', text };
    if (text.startsWith('+')) return { kind: 'add', text };
    if (text.startsWith('-')) return { kind: 'del', text };
    return { kind: 'context', text };
  });
}

/** "1:05" for 65 s; never negative. */
export function clock(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

export const RESOLUTION_TEXT: Record<string, string> = {
  once: 'approved once',
  always: 'approved, and always allowed from now on',
  reject: 'rejected',
  timeout: 'timed out (not run)',
  mismatch: 'refused: the arguments did not match (not run)',
  cancelled: 'cancelled',
  'policy-allow': 'allowed by policy',
  'policy-deny': 'denied by policy',
};
