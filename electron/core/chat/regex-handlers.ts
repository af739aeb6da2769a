// Contract handlers for regex.*: the person's view of the regex scripts (the person may switch off or delete any,
// whoever wrote it) and the display pass the window asks for the messages it draws.
import type { Handlers } from '../../../shared/contract';
import type { RegexScript } from '../../../shared/types/regex-script';
import type { ChatEngine } from './chat-engine';
import { regexMacros } from './pipeline/regex-stage';
import type { SessionStore } from './session-store';
import { placementOf, runNotes, type RegexScripts } from '../regex/regex-scripts';
import { PERSON } from '../regex/regex-store';

type RegexHandlerNames = Extract<keyof Handlers, `regex.${string}`>;

/** The fields the window shows (metadata and actions stay with the extensions). */
const view = (s: RegexScript, slow: boolean) => ({
  id: s.id,
  owner: s.owner,
  name: s.name,
  find_regex: s.find_regex,
  replace_string: s.replace_string,
  flags: s.flags,
  placement: [...s.placement],
  scope: s.scope,
  scope_id: s.scope_id,
  target: [...s.target],
  disabled: s.disabled,
  sort_order: s.sort_order,
  description: s.description,
  folder: s.folder,
  slow,
});

export function regexHandlers(regex: RegexScripts, sessions: SessionStore, chat: ChatEngine): Pick<Handlers, RegexHandlerNames> {
  const { store } = regex;
  return {
    'regex.list': () => {
      const scripts: RegexScript[] = [];
      for (let offset = 0; ; offset += 200) {
        const page = store.list({ limit: 200, offset });
        scripts.push(...page.data);
        if (scripts.length >= page.total || page.data.length === 0) break;
      }
      return { scripts: scripts.map((s) => view(s, regex.isSlow(s))), revision: store.revision };
    },
    'regex.setDisabled': ({ id, disabled }) => {
      const script = store.update(id, { disabled }, PERSON);
      return view(script, regex.isSlow(script));
    },
    'regex.delete': ({ id }) => ({ deleted: store.delete(id, PERSON) }),
    'regex.display': async ({ sessionId, items }) => {
      sessions.assertExists(sessionId);
      const revision = store.revision;
      // Display macros read and never write: a variable macro shown on screen does not change the chat.
      const macros = regexMacros(chat.macroSources(sessionId, false));
      const run = await regex.apply('display', sessionId, items.map((item) => ({ text: item.text, placement: placementOf(item.role), depth: item.depth })), { macros });
      return { texts: run?.texts ?? items.map((item) => item.text), revision, skipped: runNotes(run) };
    },
  };
}
