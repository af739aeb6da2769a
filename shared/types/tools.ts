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

export type ToolOutcome =
  | { ok: true; content: string; durationMs: number }
  | { ok: false; error: HostError; durationMs: number };
