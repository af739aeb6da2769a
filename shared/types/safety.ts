// Safe tool use: approval requests and decisions, the safety settings section, path lists, cache stats.
import { Type, type Static } from '@sinclair/typebox';

/** A list of allowed path prefixes; absent means "no restriction" (relative paths inside the notes root only). */
export const PathPrefixListSchema = Type.Array(Type.String({ minLength: 1, maxLength: 1024 }), { maxItems: 64 });

export const AlwaysAllowEntrySchema = Type.Object(
  {
    qualifiedName: Type.String({ minLength: 1, maxLength: 300 }),
    /** The tool's definition hash when the person chose "always": a changed tool asks again. */
    definitionHash: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    grantedAt: Type.Optional(Type.Number()),
  },
  { additionalProperties: false },
);
export type AlwaysAllowEntry = Static<typeof AlwaysAllowEntrySchema>;

export const SafetySettingsSchema = Type.Object(
  {
    /** Every mode:'write' tool asks first, not only those that declare requires_approval. Default on. */
    approveAllWrites: Type.Boolean(),
    /** Dry run default for the Workbench chat and council runs: write tools are simulated. */
    dryRun: Type.Boolean(),
    alwaysAllow: Type.Array(AlwaysAllowEntrySchema, { maxItems: 1000 }),
    workbench: Type.Object(
      {
        allowedReadPaths: Type.Optional(PathPrefixListSchema),
        allowedWritePaths: Type.Optional(PathPrefixListSchema),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: true },
);
export type SafetySettings = Static<typeof SafetySettingsSchema>;

export function defaultSafetySettings(): SafetySettings {
  return { approveAllWrites: true, dryRun: false, alwaysAllow: [], workbench: {} };
}

/** Settings files written before the section existed (or with parts missing) read as the defaults. */
export function readSafetySettings(raw: unknown): SafetySettings {
  const d = defaultSafetySettings();
  const s = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<SafetySettings>;
  return {
    approveAllWrites: typeof s.approveAllWrites === 'boolean' ? s.approveAllWrites : d.approveAllWrites,
    dryRun: typeof s.dryRun === 'boolean' ? s.dryRun : d.dryRun,
    alwaysAllow: Array.isArray(s.alwaysAllow) ? s.alwaysAllow : [],
    workbench: typeof s.workbench === 'object' && s.workbench !== null ? s.workbench : {},
  };
}

export const ApprovalDiffSchema = Type.Object({
  /** The note or file path as normalized by the host (relative to the notes root, or absolute). */
  path: Type.String(),
  before: Type.String(),
  after: Type.String(),
  /** Unified diff (`--- a/path`, `+++ b/path`, `@@` hunks, 3 lines of context). */
  unified: Type.String(),
  /** True when the file does not exist yet (before is ""). */
  created: Type.Boolean(),
  /**
   * True when the host guessed the preview from a tool's write_path_param + `content` argument (it
   * assumes the tool writes `content` as the whole file); false for the built-in note tools.
   */
  inferred: Type.Boolean(),
});
export type ApprovalDiff = Static<typeof ApprovalDiffSchema>;

export const ApprovalOriginSchema = Type.Union([Type.Literal('council'), Type.Literal('chat'), Type.Literal('manual')]);
export type ApprovalOrigin = Static<typeof ApprovalOriginSchema>;

export const ApprovalRequestSchema = Type.Object({
  id: Type.String(),
  toolQualifiedName: Type.String(),
  toolDisplayName: Type.String(),
  /** The tool's description as registered (untrusted extension text: render as text). */
  description: Type.String(),
  mode: Type.Union([Type.Literal('read'), Type.Literal('write')]),
  /** Why it asks: the tool declares requires_approval, or the approveAllWrites policy. */
  reason: Type.Union([Type.Literal('requires_approval'), Type.Literal('write_policy'), Type.Literal('definition_changed')]),
  definitionHash: Type.String(),
  memberName: Type.Union([Type.String(), Type.Null()]),
  memberRole: Type.Union([Type.String(), Type.Null()]),
  origin: ApprovalOriginSchema,
  /** The exact arguments the tool will receive (after sanitizing, path normalization and validation). */
  args: Type.Record(Type.String(), Type.Unknown()),
  /** Canonical JSON of args (sorted keys) — the exact text argsHash covers. */
  argsJson: Type.String(),
  /** sha256 hex of argsJson; approvals.respond must echo it. */
  argsHash: Type.String(),
  diff: Type.Optional(ApprovalDiffSchema),
  /** Epoch ms when it was raised and when it counts as rejected (APPROVAL_TIMEOUT). */
  requestedAt: Type.Number(),
  deadline: Type.Number(),
});
export type ApprovalRequest = Static<typeof ApprovalRequestSchema>;

export const ApprovalDecisionSchema = Type.Union([Type.Literal('once'), Type.Literal('always'), Type.Literal('reject')]);
export type ApprovalDecision = Static<typeof ApprovalDecisionSchema>;

/** How a pending approval ended (event approval.resolved). */
export type ApprovalResolution = 'once' | 'always' | 'reject' | 'timeout' | 'mismatch' | 'cancelled' | 'policy-allow' | 'policy-deny';

export const ToolCacheStatsSchema = Type.Object({
  qualifiedName: Type.String(),
  ttlMs: Type.Integer(),
  maxEntries: Type.Integer(),
  size: Type.Integer(),
  hits: Type.Integer(),
  misses: Type.Integer(),
  /** hits / (hits + misses); 0 before any lookup. */
  hitRate: Type.Number(),
  evictions: Type.Integer(),
  /** Entries dropped because their TTL passed. */
  expirations: Type.Integer(),
});
export type ToolCacheStats = Static<typeof ToolCacheStatsSchema>;
