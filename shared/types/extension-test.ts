// An extension author's test case (`extensions test <dir>`): a saved chat, the user's turn and the model's answers
// in order, replayed through the extension. Published as JSON Schema (resources/schemas/extension-test-case.json)
// so an editor completes `tests/*.case.json`.
import { Type, type Static } from '@sinclair/typebox';
import { EXTENSION_PERMISSIONS } from './spindle';

const ToolCall = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'The tool the model calls, as offered (an extension tool is offered as its qualified name).' }),
    arguments: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Its arguments (JSON).' })),
  },
  { additionalProperties: false },
);

/** One answer of the model: its text, or text with tool calls. */
const Reply = Type.Union([
  Type.String({ description: 'The reply, streamed as written.' }),
  Type.Object(
    {
      member: Type.Optional(Type.String({ minLength: 1, maxLength: 120, description: 'Sidecar replies only: the council member whose request this answers (requests are planned at once, in no fixed order).' })),
      text: Type.Optional(Type.String({ description: 'Text before the calls.' })),
      toolCalls: Type.Optional(Type.Array(ToolCall, { minItems: 1, maxItems: 16 })),
    },
    { additionalProperties: false },
  ),
]);

const TextOrPattern = Type.Union([
  Type.String({ description: 'Text the value contains.' }),
  Type.Object({ regex: Type.String({ minLength: 1, maxLength: 500 }), flags: Type.Optional(Type.String({ pattern: '^[gimsuy]*$' })) }, { additionalProperties: false }),
]);

export const ExtensionTestCaseSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    name: Type.String({ minLength: 1, maxLength: 120, pattern: '^[A-Za-z0-9][A-Za-z0-9 _.-]*$', description: 'Names the snapshot: tests/__snapshots__/<name>.snap.json.' }),
    chat: Type.String({ minLength: 1, maxLength: 1024, description: 'Relative to the case: a character card (PNG or JSON), a SillyTavern chat (.jsonl) or an exported session (.json).' }),
    message: Type.String({ minLength: 1, maxLength: 100_000, description: "The user's turn." }),
    replies: Type.Optional(Type.Array(Reply, { minItems: 1, maxItems: 64, description: "The model's answers in order (a reply with tool calls is followed by the one after the results). Without them, the case's cassette answers." })),
    cassette: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Relative to the case: the recorded answers (default tests/__cassettes__/<name>.cassette.json); they answer instead of replies. Written by --record --connection <id>.' })),
    council: Type.Optional(
      Type.Object(
        {
          mode: Type.Optional(Type.Union([Type.Literal('sidecar'), Type.Literal('inline')], { description: "sidecar (the default): the members' tools run before the reply, their arguments planned by the sidecar (sidecarReplies); inline: the main model calls them (replies with toolCalls)." })),
          seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 4294967295, description: 'The seed of the dice (default 1): the same seed rolls the same members.' })),
          members: Type.Array(
            Type.Object(
              {
                name: Type.String({ minLength: 1, maxLength: 120 }),
                role: Type.Optional(Type.String({ maxLength: 200 })),
                chance: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'Participation chance (default 100).' })),
                tools: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 64, description: "The extension's tools by name (or qualified names of others)." }),
              },
              { additionalProperties: false },
            ),
            { minItems: 1, maxItems: 16 },
          ),
        },
        { additionalProperties: false, description: 'Council members for the turn, each with tools.' },
      ),
    ),
    sidecarReplies: Type.Optional(Type.Array(Reply, { maxItems: 64, description: "The sidecar model's answers in order (it plans the council's tool arguments)." })),
    grant: Type.Optional(
      Type.Union([Type.Literal('requested'), Type.Array(Type.Union(EXTENSION_PERMISSIONS.map((p) => Type.Literal(p))), { uniqueItems: true })], {
        description: "Permissions granted at install: 'requested' (the default) grants what the manifest asks for.",
      }),
    ),
    settings: Type.Optional(
      Type.Object(
        {
          temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
          topP: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
          maxTokens: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
          contextSize: Type.Optional(Type.Integer({ minimum: 256, maximum: 10_000_000, description: 'The prompt budget in tokens.' })),
        },
        { additionalProperties: false, description: "Sampling and the prompt budget for the case's session." },
      ),
    ),
    expect: Type.Optional(
      Type.Object(
        {
          reply: Type.Optional(TextOrPattern),
          calls: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'The tools called, in order.' })),
          stage: Type.Optional(Type.Object({ name: Type.String({ minLength: 1 }), text: TextOrPattern }, { additionalProperties: false, description: "A stage's prompt after it ran." })),
        },
        { additionalProperties: false, description: 'Checked beside the snapshot.' },
      ),
    ),
  },
  { additionalProperties: false, title: 'Council Workbench extension test case' },
);

export type ExtensionTestCase = Static<typeof ExtensionTestCaseSchema>;
export type TestReply = NonNullable<ExtensionTestCase['replies']>[number];
export type TextOrPatternValue = Static<typeof TextOrPattern>;
