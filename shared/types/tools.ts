// How the host describes tools to its callers (listTools) and the outcome of one invocation.
import type { HostError } from '../errors';
import type { JsonSchema } from './spindle';

export type ToolSource = 'builtin' | 'extension' | 'mcp';
export type ToolStatus = 'available' | 'unavailable';

export interface ToolInfo {
  qualifiedName: string;
  /** Provider-safe alias `[A-Za-z0-9_-]{1,64}`, unique and stable across restarts. */
  alias: string;
  name: string;
  displayName: string;
  description: string;
  parameters: JsonSchema;
  mode: 'read' | 'write';
  /** The tool declared its mode; a tool that did not counts as a write ('write' by default). */
  modeDeclared: boolean;
  councilEligible: boolean;
  inlineAvailable: boolean;
  hasSimulate: boolean;
  requiresApproval: boolean;
  source: ToolSource;
  extensionId: string | null;
  status: ToolStatus;
  /** sha256 of the canonical definition; changes whenever the tool's definition does. */
  definitionHash: string;
}

/**
 * Flags the safety layer adds (all optional, absent when false): `simulated` — a dry run answered by
 * the tool's simulate handler or the placeholder; `unvalidated` — the placeholder (nothing checked
 * the write would work); `cached` — served from the tool's result cache; `approval` — how a call that
 * needed approval got it; `rejectionNote` — the person's note when they rejected the call.
 */
export interface ToolOutcomeFlags {
  simulated?: true;
  unvalidated?: true;
  cached?: true;
  approval?: 'once' | 'always' | 'policy';
  rejectionNote?: string;
}

export type ToolOutcome =
  | ({ ok: true; content: string; durationMs: number } & ToolOutcomeFlags)
  | ({ ok: false; error: HostError; durationMs: number } & ToolOutcomeFlags);
