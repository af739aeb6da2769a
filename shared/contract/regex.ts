// Regex scripts in the window: the list (each with the extension that wrote it), switching one off or on, deleting
// one, and the display-target scripts applied to the messages the window shows (the stored text never changes).
import { Type } from '@sinclair/typebox';
import { endpoint } from '../rpc/endpoint';

const SessionId = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' });
const ScriptId = Type.String({ minLength: 1, maxLength: 128 });
/** A display pass covers what the window draws at once; a long chat's view asks page by page. */
export const DISPLAY_BATCH = 200;

export const RegexScriptSchema = Type.Object({
  id: Type.String(),
  /** The extension that wrote it ('' for none). */
  owner: Type.String(),
  name: Type.String(),
  find_regex: Type.String(),
  replace_string: Type.String(),
  flags: Type.String(),
  placement: Type.Array(Type.String()),
  scope: Type.String(),
  scope_id: Type.Union([Type.String(), Type.Null()]),
  target: Type.Array(Type.String()),
  disabled: Type.Boolean(),
  sort_order: Type.Number(),
  description: Type.String(),
  folder: Type.String(),
  /** Its time ran out: it is passed over until its pattern is changed. */
  slow: Type.Boolean(),
});

export const regexMethods = {
  'regex.list': endpoint({ description: 'Every regex script, in the order they run.', params: Type.Object({}, { additionalProperties: false }), result: Type.Object({ scripts: Type.Array(RegexScriptSchema), revision: Type.Number(), processors: Type.Integer({ minimum: 0, description: "Extensions' message content processors a message shown goes through (origin render)." }) }) }),
  'regex.setDisabled': endpoint({
    description: 'Switches a regex script off (or on again).',
    params: Type.Object({ id: ScriptId, disabled: Type.Boolean() }, { additionalProperties: false }),
    result: RegexScriptSchema,
    errors: ['NOT_FOUND'],
  }),
  'regex.delete': endpoint({ description: 'Deletes a regex script.', params: Type.Object({ id: ScriptId }, { additionalProperties: false }), result: Type.Object({ deleted: Type.Boolean() }) }),
  'regex.display': endpoint({
    description: "Messages' text as the window shows them: the session's display-target scripts applied, by author and depth (0 the newest).",
    params: Type.Object(
      {
        sessionId: SessionId,
        items: Type.Array(
          Type.Object(
            {
              text: Type.String({ maxLength: 2_000_000 }),
              role: Type.Union([Type.Literal('user'), Type.Literal('assistant')]),
              depth: Type.Integer({ minimum: 0 }),
              /** The message shown (extensions' render processors are told it). */
              messageId: Type.Optional(Type.String({ maxLength: 200 })),
            },
            { additionalProperties: false },
          ),
          { maxItems: DISPLAY_BATCH },
        ),
      },
      { additionalProperties: false },
    ),
    result: Type.Object({ texts: Type.Array(Type.String()), revision: Type.Number(), skipped: Type.Array(Type.String()) }),
    errors: ['NOT_FOUND'],
  }),
};
