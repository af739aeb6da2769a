// Council shapes (seed 000 + the Lumiverse reference): settings, the view, runs, profiles — schemas, static types
// and defaults. The Lumia packs its members come from are in lumia-pack.ts (re-exported here).
import { Type, type Static } from '@sinclair/typebox';
import type { CouncilMemberContext, LlmMessageDTO } from './spindle';
import { PathPrefixListSchema } from './safety';

export type { CouncilMemberContext, LlmMessageDTO } from './spindle';
export * from './lumia-pack';

// ---------------------------------------------------------------------------------------------
// Council settings

export const Chance = Type.Integer({ minimum: 0, maximum: 100 });
export const Retention = Type.Integer({ minimum: 0, maximum: 10 });

export const CouncilMemberSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 128 }),
    packId: Type.String({ maxLength: 128 }),
    itemId: Type.String({ maxLength: 128 }),
    role: Type.String({ maxLength: 200 }),
    chance: Chance,
    /** Qualified tool names (`sourceId:toolName`). */
    tools: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 64 }),
    /** Past deliberations kept per tool (qualified name → 0–10) for the reference block. */
    toolHistoryRetention: Type.Optional(Type.Record(Type.String({ maxLength: 200 }), Retention)),
    /** Path prefixes the member's tool calls may read / write (seed 003, electron/core/safety); absent = unrestricted. */
    allowedReadPaths: Type.Optional(PathPrefixListSchema),
    allowedWritePaths: Type.Optional(PathPrefixListSchema),
  },
  { additionalProperties: false },
);

export const CouncilModeSchema = Type.Union([Type.Literal('sidecar'), Type.Literal('inline')]);

export const CouncilToolsSettingsSchema = Type.Object(
  {
    mode: CouncilModeSchema,
    timeoutMs: Type.Integer({ minimum: 100, maximum: 600_000 }),
    sidecarContextWindow: Type.Integer({ minimum: 0, maximum: 500 }),
    /** 0 = unlimited. */
    maxWordsPerTool: Type.Integer({ minimum: 0, maximum: 10_000 }),
    includeCharacterInfo: Type.Boolean(),
    includeWorldInfo: Type.Boolean(),
    includeUserPersona: Type.Boolean(),
    excludeLatestUserMessage: Type.Boolean(),
    allowUserControl: Type.Boolean(),
    retainResultsForRegens: Type.Boolean(),
    /** Plan arguments with the sidecar (default); off = tools are called as Lumiverse calls them. */
    planArguments: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export type CouncilMember = Static<typeof CouncilMemberSchema>;
export type CouncilToolsSettings = Static<typeof CouncilToolsSettingsSchema>;
export type CouncilMode = Static<typeof CouncilModeSchema>;

export const COUNCIL_TOOLS_DEFAULTS: Readonly<CouncilToolsSettings> = Object.freeze({
  mode: 'sidecar',
  timeoutMs: 30_000,
  sidecarContextWindow: 25,
  excludeLatestUserMessage: false,
  includeUserPersona: true,
  includeCharacterInfo: true,
  includeWorldInfo: true,
  allowUserControl: false,
  maxWordsPerTool: 250,
  retainResultsForRegens: false,
});

/** The whole council configuration, as stored in settings.council and in profiles. */
export const CouncilSettingsSchema = Type.Object(
  {
    councilMode: Type.Boolean(),
    members: Type.Array(CouncilMemberSchema, { maxItems: 1000 }),
    toolsSettings: CouncilToolsSettingsSchema,
    /** When every roll fails, pick one eligible member anyway (off by default, as in Lumiverse). */
    atLeastOneMember: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type CouncilSettings = Static<typeof CouncilSettingsSchema>;

export function defaultCouncilSettings(): CouncilSettings {
  return { councilMode: false, members: [], toolsSettings: { ...COUNCIL_TOOLS_DEFAULTS }, atLeastOneMember: false };
}

// ---------------------------------------------------------------------------------------------
// The council view (council.get): members with what they point at resolved, missing flagged

export const MemberToolViewSchema = Type.Object({
  qualifiedName: Type.String(),
  displayName: Type.String(),
  /** prompt: answered by the sidecar LLM (built-in or pack); extension / mcp: run by their source. */
  kind: Type.Union([Type.Literal('prompt'), Type.Literal('extension'), Type.Literal('mcp'), Type.Literal('builtin')]),
  missing: Type.Boolean(),
  available: Type.Boolean(),
  /** Its extension or MCP server is set up here but was not started (a CLI command that reads the folder only). */
  unchecked: Type.Optional(Type.Boolean()),
  retention: Type.Integer(),
});

export const MemberViewSchema = Type.Object({
  id: Type.String(),
  packId: Type.String(),
  itemId: Type.String(),
  role: Type.String(),
  chance: Type.Integer(),
  tools: Type.Array(Type.String()),
  toolHistoryRetention: Type.Record(Type.String(), Type.Integer()),
  /** Item name, or the item id when the item is missing. */
  name: Type.String(),
  packName: Type.Union([Type.String(), Type.Null()]),
  avatarUrl: Type.Union([Type.String(), Type.Null()]),
  /** The pack or its item no longer exists. */
  missingItem: Type.Boolean(),
  /** Assigned tools that are not registered. */
  missingTools: Type.Array(Type.String()),
  toolViews: Type.Array(MemberToolViewSchema),
  /** Path prefix lists (absent = unrestricted). */
  allowedReadPaths: Type.Optional(Type.Array(Type.String())),
  allowedWritePaths: Type.Optional(Type.Array(Type.String())),
});

export const CouncilViewSchema = Type.Object({
  settings: CouncilSettingsSchema,
  members: Type.Array(MemberViewSchema),
  /** Human-readable problems (missing items/tools, sidecar not configured…), for a banner. */
  warnings: Type.Array(Type.String()),
  sidecarConfigured: Type.Boolean(),
});
export type MemberView = Static<typeof MemberViewSchema>;
export type CouncilView = Static<typeof CouncilViewSchema>;

// ---------------------------------------------------------------------------------------------
// The chat a council run analyses (also the CLI's --chat file format)

export const ChatMessageSchema = Type.Object({
  role: Type.Union([Type.Literal('system'), Type.Literal('user'), Type.Literal('assistant')]),
  content: Type.String({ maxLength: 200_000 }),
  name: Type.Optional(Type.String({ maxLength: 120 })),
});

export const CouncilChatSchema = Type.Object({
  /** Ties runs together for history (retention) and regen reuse. */
  chatId: Type.Optional(Type.String({ maxLength: 128 })),
  character: Type.Optional(
    Type.Object({
      name: Type.String({ maxLength: 200 }),
      description: Type.Optional(Type.String({ maxLength: 50_000 })),
      personality: Type.Optional(Type.String({ maxLength: 20_000 })),
      scenario: Type.Optional(Type.String({ maxLength: 20_000 })),
    }),
  ),
  persona: Type.Optional(Type.Object({ name: Type.String({ maxLength: 200 }), description: Type.Optional(Type.String({ maxLength: 20_000 })) })),
  worldInfo: Type.Optional(
    Type.Array(
      Type.Object({ keywords: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 50 }), content: Type.String({ maxLength: 20_000 }) }),
      { maxItems: 500 },
    ),
  ),
  messages: Type.Array(ChatMessageSchema, { maxItems: 5000 }),
});
export type CouncilChat = Static<typeof CouncilChatSchema>;

// ---------------------------------------------------------------------------------------------
// Runs

export const RollReasonSchema = Type.Union([
  Type.Literal('always'), // chance 100
  Type.Literal('never'), // chance 0
  Type.Literal('rolled'),
  Type.Literal('no-tools'),
  Type.Literal('fallback'), // picked by the at-least-one fallback
]);

export const CouncilRollSchema = Type.Object({
  memberId: Type.String(),
  memberName: Type.String(),
  chance: Type.Integer(),
  /** The draw in [0, 100); in iff roll < chance. Recorded for every member, so a seed replays exactly. */
  roll: Type.Number(),
  active: Type.Boolean(),
  reason: RollReasonSchema,
});
export type CouncilRoll = Static<typeof CouncilRollSchema>;

export const ToolResultStatusSchema = Type.Union([
  Type.Literal('ok'),
  Type.Literal('error'),
  Type.Literal('timeout'),
  Type.Literal('cancelled'),
  Type.Literal('missing'),
]);
export type ToolResultStatus = Static<typeof ToolResultStatusSchema>;

/** Which member's which tool: the fields a planned call and its result share. */
const memberToolFields = {
  memberId: Type.String(),
  memberName: Type.String(),
  /** Qualified name. */
  toolName: Type.String(),
  toolDisplayName: Type.String(),
};

export const CouncilToolResultSchema = Type.Object({
  ...memberToolFields,
  success: Type.Boolean(),
  content: Type.String(),
  error: Type.Optional(Type.String()),
  errorCode: Type.Optional(Type.String()),
  durationMs: Type.Number(),
  /** ms from the cycle start (timeline). */
  startedAt: Type.Number(),
  status: ToolResultStatusSchema,
  /** Arguments the sidecar planned for an extension tool, when it did. */
  plannedArgs: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  /** How the plan came: generated under a grammar from the tool's schema (local models), and after one retry. */
  planning: Type.Optional(Type.Object({ constrained: Type.Boolean(), repaired: Type.Boolean() })),
  /** Why a tool that needs arguments ran without planned ones (Lumiverse's call: context and deadline only). */
  unplanned: Type.Optional(Type.String()),
  /** Dry run: a simulated write (simulate handler or placeholder); unvalidated = the placeholder. */
  simulated: Type.Optional(Type.Boolean()),
  unvalidated: Type.Optional(Type.Boolean()),
  /** Served from the tool's result cache. */
  cached: Type.Optional(Type.Boolean()),
  /** How an approval-gated call was allowed, or the person's rejection note. */
  approval: Type.Optional(Type.Union([Type.Literal('once'), Type.Literal('always'), Type.Literal('policy')])),
  rejectionNote: Type.Optional(Type.String()),
});
export type CouncilToolResult = Static<typeof CouncilToolResultSchema>;

export const RunStatusSchema = Type.Union([
  Type.Literal('completed'),
  Type.Literal('aborted'),
  /** Inline mode: nothing runs before generation; tools go to the main model. */
  Type.Literal('inline'),
  Type.Literal('reused'),
]);

export const CouncilRunSchema = Type.Object({
  id: Type.String(),
  /** Epoch ms. */
  startedAt: Type.Number(),
  totalDurationMs: Type.Number(),
  status: RunStatusSchema,
  mode: CouncilModeSchema,
  seed: Type.Integer(),
  rolls: Type.Array(CouncilRollSchema),
  fallbackUsed: Type.Boolean(),
  results: Type.Array(CouncilToolResultSchema),
  deliberationBlock: Type.String(),
  /** Earlier deliberations kept by retention; for the main model only. Empty when none. */
  historyBlock: Type.String(),
  /** Why the block is empty or short, in words (nobody active, every tool failed, …). */
  note: Type.Union([Type.String(), Type.Null()]),
  chatId: Type.Union([Type.String(), Type.Null()]),
  retryOf: Type.Union([Type.String(), Type.Null()]),
  timeoutMs: Type.Integer(),
  counts: Type.Object({ ok: Type.Integer(), failed: Type.Integer(), total: Type.Integer() }),
  /** The chat the run analysed (stored runs; lets "retry failed" work after a restart). */
  chat: Type.Optional(CouncilChatSchema),
  /** The run simulated write tools (settings.safety.dryRun or council.run dryRun). */
  dryRun: Type.Optional(Type.Boolean()),
});
export type CouncilRun = Static<typeof CouncilRunSchema>;

export const RunSummarySchema = Type.Object({
  id: Type.String(),
  startedAt: Type.Number(),
  totalDurationMs: Type.Number(),
  status: RunStatusSchema,
  seed: Type.Integer(),
  chatId: Type.Union([Type.String(), Type.Null()]),
  retryOf: Type.Union([Type.String(), Type.Null()]),
  activeMembers: Type.Integer(),
  counts: Type.Object({ ok: Type.Integer(), failed: Type.Integer(), total: Type.Integer() }),
});
export type RunSummary = Static<typeof RunSummarySchema>;

/** One planned tool call, announced in council.run.started so the UI can draw pending rows. */
export const PlannedCallSchema = Type.Object(memberToolFields);
export type PlannedCall = Static<typeof PlannedCallSchema>;

export const CouncilProfileSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 80 }),
  savedAt: Type.Number(),
  council: CouncilSettingsSchema,
});
export type CouncilProfile = Static<typeof CouncilProfileSchema>;

export const ProfileSummarySchema = Type.Object({ name: Type.String(), savedAt: Type.Number(), members: Type.Integer() });
export type ProfileSummary = Static<typeof ProfileSummarySchema>;

/** An inline-mode function the main model is offered (one per member × tool it can call now), as the chat sends it. */
export const InlineToolSchema = Type.Object({
  name: Type.String(),
  description: Type.String(),
  parameters: Type.Record(Type.String(), Type.Unknown()),
  qualifiedName: Type.String(),
  memberId: Type.String(),
  memberName: Type.String(),
  role: Type.String(),
});
export type InlineTool = Static<typeof InlineToolSchema>;

export type { LlmMessageDTO as CouncilContextMessage };
export type CouncilMemberSnapshot = CouncilMemberContext;
