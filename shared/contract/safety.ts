// Safe tool use methods: the approval queue and answers, the "always allowed" list, per-tool result caches.
import { Type } from '@sinclair/typebox';
import { endpoint } from '../rpc/endpoint';
import { AlwaysAllowEntrySchema, ApprovalDecisionSchema, ApprovalRequestSchema, ToolCacheStatsSchema } from '../types/safety';

const Empty = Type.Object({}, { additionalProperties: false });
const QualifiedName = Type.String({ minLength: 1, maxLength: 300 });

export const safetyMethods = {
  'approvals.list': endpoint({ description: 'Tool calls waiting for approval, oldest first.', params: Empty, result: Type.Array(ApprovalRequestSchema) }),
  'approvals.respond': endpoint({ description: 'Answer one approval. argsHash must be the one of the request shown; any other value rejects the call (APPROVAL_MISMATCH). ' +
      "'always' also allows this tool (at its current definition) from now on. A reject message goes back to the model as quoted data.", params: Type.Object(
      {
        id: Type.String({ minLength: 1, maxLength: 200 }),
        argsHash: Type.String({ minLength: 1, maxLength: 128 }),
        decision: ApprovalDecisionSchema,
        message: Type.Optional(Type.String({ maxLength: 2000 })),
      },
      { additionalProperties: false },
    ), result: Type.Object({ status: Type.Union([Type.Literal('approved'), Type.Literal('rejected'), Type.Literal('mismatch')]) }) }),
  'approvals.allowed.list': endpoint({ description: 'Tools the user chose to always allow; current is false when the tool changed since (it asks again) or is gone.', params: Empty, result: Type.Array(
      Type.Composite([
        AlwaysAllowEntrySchema,
        Type.Object({ displayName: Type.Union([Type.String(), Type.Null()]), current: Type.Boolean() }),
      ]),
    ) }),
  'approvals.allowed.revoke': endpoint({ description: 'Stop always allowing a tool.', params: Type.Object({ qualifiedName: QualifiedName }, { additionalProperties: false }), result: Type.Object({ revoked: Type.Boolean() }) }),
  'tools.cacheStats': endpoint({ description: 'Result cache figures per tool that declares cache (seed 002): hits, misses, hit rate, size, evictions.', params: Type.Object({ qualifiedName: Type.Optional(QualifiedName) }, { additionalProperties: false }), result: Type.Array(ToolCacheStatsSchema) }),
  'tools.clearCache': endpoint({ description: "Empty one tool's result cache, or every cache (counters are kept).", params: Type.Object({ qualifiedName: Type.Optional(QualifiedName) }, { additionalProperties: false }), result: Type.Object({ cleared: Type.Integer() }) }),
};
