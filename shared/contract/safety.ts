// Safe tool use methods: the approval queue and answers, the "always allowed" list, per-tool result caches.
import { Type } from '@sinclair/typebox';
import { method } from './define';
import { AlwaysAllowEntrySchema, ApprovalDecisionSchema, ApprovalRequestSchema, ToolCacheStatsSchema } from '../types/safety';

const Empty = Type.Object({}, { additionalProperties: false });
const QualifiedName = Type.String({ minLength: 1, maxLength: 300 });

export const safetyMethods = {
  'approvals.list': method('Tool calls waiting for approval, oldest first.', Empty, Type.Array(ApprovalRequestSchema)),
  'approvals.respond': method(
    'Answer one approval. argsHash must be the one of the request shown; any other value rejects the call (APPROVAL_MISMATCH). ' +
      "'always' also allows this tool (at its current definition) from now on. A reject message goes back to the model as quoted data.",
    Type.Object(
      {
        id: Type.String({ minLength: 1, maxLength: 200 }),
        argsHash: Type.String({ minLength: 1, maxLength: 128 }),
        decision: ApprovalDecisionSchema,
        message: Type.Optional(Type.String({ maxLength: 2000 })),
      },
      { additionalProperties: false },
    ),
    Type.Object({ status: Type.Union([Type.Literal('approved'), Type.Literal('rejected'), Type.Literal('mismatch')]) }),
  ),
  'approvals.allowed.list': method(
    'Tools the user chose to always allow; current is false when the tool changed since (it asks again) or is gone.',
    Empty,
    Type.Array(
      Type.Composite([
        AlwaysAllowEntrySchema,
        Type.Object({ displayName: Type.Union([Type.String(), Type.Null()]), current: Type.Boolean() }),
      ]),
    ),
  ),
  'approvals.allowed.revoke': method(
    'Stop always allowing a tool.',
    Type.Object({ qualifiedName: QualifiedName }, { additionalProperties: false }),
    Type.Object({ revoked: Type.Boolean() }),
  ),
  'tools.cacheStats': method(
    'Result cache figures per tool that declares cache (seed 002): hits, misses, hit rate, size, evictions.',
    Type.Object({ qualifiedName: Type.Optional(QualifiedName) }, { additionalProperties: false }),
    Type.Array(ToolCacheStatsSchema),
  ),
  'tools.clearCache': method(
    "Empty one tool's result cache, or every cache (counters are kept).",
    Type.Object({ qualifiedName: Type.Optional(QualifiedName) }, { additionalProperties: false }),
    Type.Object({ cleared: Type.Integer() }),
  ),
};
