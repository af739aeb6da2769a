// How the host describes tools to its callers (tools.list) and the outcome of one invocation: derived from the
// contract's schemas (shared/contract/tools.ts), so the wire and the code cannot drift apart.
import type { Static } from '@sinclair/typebox';
import type { ToolInfoSchema, ToolOutcomeSchema } from '../contract/tools';

export type ToolInfo = Static<typeof ToolInfoSchema>;
export type ToolSource = ToolInfo['source'];
export type ToolStatus = ToolInfo['status'];
export type ToolOutcome = Static<typeof ToolOutcomeSchema>;
