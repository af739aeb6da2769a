// The spindle.regex_scripts requests: the person's regex scripts, in Lumiverse's shapes (RegexScriptDTO and its
// inputs, lumiverse-spindle-types 0.6.20), with the `regex_scripts` permission. Part of the one request table
// (requests.ts). The host checks the rules (flags, placements, a pattern that compiles) and answers Lumiverse's words.
import { Type } from '@sinclair/typebox';
import { endpoint } from '../rpc/endpoint';
import { Any, Dto, Id, Opt, Options, OrNull, Page, positional } from './request-schema';

const Str = (maxLength: number) => Type.String({ maxLength });
const Depth = Opt(Type.Union([Type.Integer({ minimum: 0, maximum: 1_000_000 }), Type.Null()]));
const Words = Type.Union([Type.Literal('prompt'), Type.Literal('response'), Type.Literal('display')]);
const Scope = Type.Union([Type.Literal('global'), Type.Literal('character'), Type.Literal('chat')]);
/** Lumiverse takes one target or several. The values are checked by the host, in Lumiverse's words. */
const Target = Type.Union([Type.String({ maxLength: 16 }), Type.Array(Type.String({ maxLength: 16 }), { maxItems: 3 })]);
/** The host holds each field to Lumiverse's rules; these are the shapes. */
const Fields = {
  name: Opt(Str(512)),
  find_regex: Opt(Type.String()),
  replace_string: Opt(Type.String()),
  flags: Opt(Str(16)),
  placement: Opt(Type.Array(Str(32), { maxItems: 5 })),
  scope: Opt(Str(16)),
  scope_id: Opt(Type.Union([Str(128), Type.Null()])),
  target: Opt(Target),
  min_depth: Depth,
  max_depth: Depth,
  trim_strings: Opt(Type.Array(Str(1000))),
  run_on_edit: Opt(Type.Boolean()),
  substitute_macros: Opt(Str(16)),
  disabled: Opt(Type.Boolean()),
  sort_order: Opt(Type.Number()),
  description: Opt(Str(10_000)),
  folder: Opt(Str(512)),
  folder_version: Opt(Type.Union([Str(64), Type.Null()])),
  metadata: Opt(Type.Record(Type.String(), Any)),
  actions: Opt(Type.Array(Any, { maxItems: 50 })),
  script_id: Opt(Str(200)),
};
export const RegexInput = Type.Object(Fields);
const Script = Dto({ id: Type.String(), name: Type.String(), find_regex: Type.String(), can_mutate: Type.Boolean() });
const ScriptId = Id(128);
const ListOptions = Options({ scope: Opt(Scope), scopeId: Opt(Id(128)), target: Opt(Words), limit: Opt(Type.Number()), offset: Opt(Type.Number()) });
const ActiveOptions = Type.Object({ target: Words, characterId: Opt(Id(128)), chatId: Opt(Id(128)) });
const WRITE_ERRORS = ['QUOTA_EXCEEDED', 'INPUT_TOO_LARGE', 'CONFLICT', 'UNSUPPORTED_HERE'];

const permission = 'regex_scripts' as const;

export const REGEX_REQUESTS = {
  'regex_scripts.list': endpoint({ ...positional({ options: ListOptions }), permission, result: Page(Script) }),
  'regex_scripts.get': endpoint({ ...positional({ scriptId: ScriptId }), permission, result: OrNull(Script) }),
  'regex_scripts.getActive': endpoint({ ...positional({ options: ActiveOptions }), permission, result: Type.Array(Script) }),
  'regex_scripts.create': endpoint({ ...positional({ input: RegexInput }), permission, result: Script, errors: WRITE_ERRORS }),
  'regex_scripts.update': endpoint({ ...positional({ scriptId: ScriptId, input: RegexInput }), permission, result: Script, errors: [...WRITE_ERRORS, 'NOT_FOUND'] }),
  'regex_scripts.delete': endpoint({ ...positional({ scriptId: ScriptId }), permission, result: Type.Boolean(), errors: ['UNSUPPORTED_HERE'] }),
} as const;
