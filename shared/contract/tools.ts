// Tool registry methods: list, inspect, try, and export a tool's spec for other hosts.
import { Type } from '@sinclair/typebox';
import { HostErrorSchema } from './common';
import { endpoint } from '../rpc/endpoint';

const Source = Type.Union([Type.Literal('builtin'), Type.Literal('extension'), Type.Literal('mcp')]);
const QualifiedName = Type.String({ minLength: 1, maxLength: 300 });

export const ToolInfoSchema = Type.Object({
  qualifiedName: Type.String(),
  /** Provider-safe alias `[A-Za-z0-9_-]{1,64}`, unique and stable across restarts. */
  alias: Type.String(),
  name: Type.String(),
  displayName: Type.String(),
  description: Type.String(),
  parameters: Type.Record(Type.String(), Type.Unknown()),
  mode: Type.Union([Type.Literal('read'), Type.Literal('write')]),
  /** The tool declared its mode; a tool that did not counts as a write ('write' by default). */
  modeDeclared: Type.Boolean(),
  councilEligible: Type.Boolean(),
  inlineAvailable: Type.Boolean(),
  hasSimulate: Type.Boolean(),
  requiresApproval: Type.Boolean(),
  source: Source,
  extensionId: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union([Type.Literal('available'), Type.Literal('unavailable')]),
  /** sha256 of the canonical definition; changes whenever the tool's definition does. */
  definitionHash: Type.String(),
});

/**
 * Flags the safety layer adds (all optional, absent when false): `simulated` — a dry run answered by
 * the tool's simulate handler or the placeholder; `unvalidated` — the placeholder (nothing checked
 * the write would work); `cached` — served from the tool's result cache; `approval` — how a call that
 * needed approval got it; `rejectionNote` — the person's note when they rejected the call.
 */
const OutcomeFlags = {
  simulated: Type.Optional(Type.Literal(true)),
  unvalidated: Type.Optional(Type.Literal(true)),
  cached: Type.Optional(Type.Literal(true)),
  approval: Type.Optional(Type.Union([Type.Literal('once'), Type.Literal('always'), Type.Literal('policy')])),
  rejectionNote: Type.Optional(Type.String()),
};

export const ToolOutcomeSchema = Type.Union([
  Type.Object({ ok: Type.Literal(true), content: Type.String(), durationMs: Type.Number(), ...OutcomeFlags }),
  Type.Object({ ok: Type.Literal(false), error: HostErrorSchema, durationMs: Type.Number(), ...OutcomeFlags }),
]);

export const SpecFormatSchema = Type.Union([
  Type.Literal('openai'),
  Type.Literal('openai-strict'),
  Type.Literal('anthropic'),
  Type.Literal('mcp'),
]);

export const toolMethods = {
  'tools.list': endpoint({ description: 'Every registered tool, optionally filtered.', params: Type.Object(
      {
        source: Type.Optional(Source),
        extensionId: Type.Optional(Type.String({ maxLength: 64 })),
        councilEligible: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ), result: Type.Array(ToolInfoSchema) }),
  'tools.invoke': endpoint({ description: 'Run one tool with arguments (validated against its schema first).', params: Type.Object(
      {
        qualifiedName: QualifiedName,
        args: Type.Record(Type.String(), Type.Unknown()),
        timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 600_000 })),
        /** Simulate a write tool instead of running it (seed 001); read tools run for real. Default false. */
        dryRun: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ), result: ToolOutcomeSchema }),
  'tools.exportSpec': endpoint({ description: "A tool's definition as an OpenAI function (strict or not), an Anthropic tool or an MCP tool.", params: Type.Object({ qualifiedName: QualifiedName, format: SpecFormatSchema }, { additionalProperties: false }), result: Type.Object({ spec: Type.Unknown() }) }),
};
