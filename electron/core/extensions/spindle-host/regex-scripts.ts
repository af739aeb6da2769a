// spindle.regex_scripts (permission `regex_scripts`): the person's regex scripts, as Lumiverse's service answers them.
// Each script keeps the extension that wrote it: another may change or delete it only with
// regex_scripts_unrestricted, and each DTO's can_mutate says which. Without the store (tests, the CLI before start)
// reads are empty and writes refused.
import type { RegexStore, RegexWriter } from '../../regex/regex-store';
import { mayChange, scriptDto, type RegexScript, type RegexScriptInput } from '../../../../shared/types/regex-script';
import { fail, type Caller, type HandlersOf } from './handlers';

export function regexScriptHandlers(store: () => RegexStore | null): HandlersOf<'regex_scripts'> {
  const writable = (): RegexStore => store() ?? fail('UNSUPPORTED_HERE', 'Regex scripts are not open yet.');
  const writer = (caller: Caller): RegexWriter => ({ owner: caller.extensionId, unrestricted: caller.allowed('regex_scripts_unrestricted') });
  /** Lumiverse's scopes for an extension: a preset's own scripts come with its import, not from an extension. */
  const scoped = (input: unknown): RegexScriptInput => {
    const script = input as RegexScriptInput;
    if (script.scope === 'preset') fail('INVALID_INPUT', 'Invalid scope: preset', '/input/scope');
    return script;
  };
  const dto = (caller: Caller) => {
    const who = writer(caller);
    return (script: RegexScript) => scriptDto(script, mayChange(script, who.owner, who.unrestricted));
  };
  return {
    'regex_scripts.list': ({ options }, caller) => {
      const page = store()?.list(options ?? {}) ?? { data: [], total: 0 };
      return { data: page.data.map(dto(caller)), total: page.total };
    },
    'regex_scripts.get': ({ scriptId }, caller) => {
      const script = store()?.get(scriptId);
      return script ? dto(caller)(script) : null;
    },
    'regex_scripts.getActive': ({ options }, caller) => (store()?.active(options.target, options) ?? []).map(dto(caller)),
    'regex_scripts.create': ({ input }, caller) => dto(caller)(writable().create(scoped(input), writer(caller))),
    'regex_scripts.update': ({ scriptId, input }, caller) => dto(caller)(writable().update(scriptId, scoped(input), writer(caller))),
    'regex_scripts.delete': ({ scriptId }, caller) => writable().delete(scriptId, writer(caller)),
  };
}
