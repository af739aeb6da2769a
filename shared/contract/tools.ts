// Tool registry methods: list, inspect, try, and export a tool's spec for other hosts.
import { Type } from '@sinclair/typebox';
import { method } from './define';

const Source = Type.Union([Type.Literal('builtin'), Type.Literal('extension'), Type.Literal('mcp')]);
const QualifiedName = Type.String({ minLength: 1, maxLength: 300 });
const ErrorSchema = Type.Object({
  code: Type.String(),
  message: Type.String(),
  hint: Type.Optional(Type.String()),
  path: Type.Optional(Type.String()),
});

export const ToolInfoSchema = Type.Object({
  qualifiedName: Type.String(),
  alias: Type.String(),
  name: Type.String(),
  displayName: Type.String(),
  description: Type.String(),
  parameters: Type.Record(Type.String(), Type.Unknown()),
  mode: Type.Union([Type.Literal('read'), Type.Literal('write')]),
  modeDeclared: Type.Boolean(),
  councilEligible: Type.Boolean(),
  inlineAvailable: Type.Boolean(),
  hasSimulate: Type.Boolean(),
  requiresApproval: Type.Boolean(),
  source: Source,
  extensionId: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union([Type.Literal('available'), Type.Literal('unavailable')]),
  definitionHash: Type.String(),
});

/** Safety flags (shared/types/tools.ts ToolOutcomeFlags); absent when false. */
const OutcomeFlags = {
  simulated: Type.Optional(Type.Literal(true)),
  unvalidated: Type.Optional(Type.Literal(true)),
  cached: Type.Optional(Type.Literal(true)),
  approval: Type.Optional(Type.Union([Type.Literal('once'), Type.Literal('always'), Type.Literal('policy')])),
  rejectionNote: Type.Optional(Type.String()),
};

export const ToolOutcomeSchema = Type.Union([
  Type.Object({ ok: Type.Literal(true), content: Type.String(), durationMs: Type.Number(), ...OutcomeFlags }),
  Type.Object({ ok: Type.Literal(false), error: ErrorSchema, durationMs: Type.Number(), ...OutcomeFlags }),
]);

export const SpecFormatSchema = Type.Union([
  Type.Literal('openai'),
  Type.Literal('openai-strict'),
  Type.Literal('anthropic'),
  Type.Literal('mcp'),
]);

export const toolMethods = {
  'tools.list': method(
    'Every registered tool, optionally filtered.',
    Type.Object(
      {
        source: Type.Optional(Source),
        extensionId: Type.Optional(Type.String({ maxLength: 64 })),
        councilEligible: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    Type.Array(ToolInfoSchema),
  ),
  'tools.invoke': method(
    'Run one tool with arguments (validated against its schema first).',
    Type.Object(
      {
        qualifiedName: QualifiedName,
        args: Type.Record(Type.String(), Type.Unknown()),
        timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 600_000 })),
        /** Simulate a write tool instead of running it (seed 001); read tools run for real. Default false. */
        dryRun: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    ToolOutcomeSchema,
  ),
  'tools.exportSpec': method(
    "A tool's definition as an OpenAI function (strict or not), an Anthropic tool or an MCP tool.",
    Type.Object({ qualifiedName: QualifiedName, format: SpecFormatSchema }, { additionalProperties: false }),
    Type.Object({ spec: Type.Unknown() }),
  ),
};
