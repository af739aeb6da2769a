// Contract handlers for regex.*: the person's view of the regex scripts (the person may switch off or delete any,
// whoever wrote it) and the display pass the window asks for the messages it draws (display-pass.ts).
import type { Handlers } from '../../../shared/contract';
import type { RegexScript } from '../../../shared/types/regex-script';
import type { ChatEngine } from './chat-engine';
import { regexMacros } from './pipeline/regex-stage';
import type { SessionStore } from './session-store';
import type { DisplayPass } from './display-pass';
import { placementOf, runNotes, type RegexScripts } from '../regex/regex-scripts';
import { PERSON } from '../regex/regex-store';
import { CHAT_TEXT_PERMISSION } from '../../../shared/spindle/event-access';

type RegexHandlerNames = Extract<keyof Handlers, `regex.${string}`>;

/** The window shows the start of a pattern and of a replacement (a replacement may be 100,000 characters). */
const PREVIEW_CHARS = 500;

/** The fields the window shows (metadata and actions stay with the extensions). */
const view = (s: RegexScript, slow: boolean) => ({
  id: s.id,
  owner: s.owner,
  name: s.name,
  find_regex: s.find_regex.slice(0, PREVIEW_CHARS),
  replace_string: s.replace_string.slice(0, PREVIEW_CHARS),
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

export function regexHandlers(regex: RegexScripts, sessions: SessionStore, chat: ChatEngine, display: DisplayPass): Pick<Handlers, RegexHandlerNames> {
  const { store } = regex;
  return {
    'regex.list': () => ({ scripts: store.all().map((s) => view(s, regex.isSlow(s))), revision: display.revision, processors: display.processors() }),
    'regex.setDisabled': ({ id, disabled }) => {
      const script = store.update(id, { disabled }, PERSON);
      return view(script, regex.isSlow(script));
    },
    'regex.delete': ({ id }) => ({ deleted: store.delete(id, PERSON) }),
    'regex.display': async ({ sessionId, items }) => {
      sessions.assertExists(sessionId);
      const revision = display.revision;
      // Display macros read and never write: a variable macro shown on screen does not change the chat. The session is
      // read (in the background, as a long chat is) only if a script asks for macros.
      const macros = regexMacros(
        async () => {
          await sessions.preload(sessionId);
          return { ...chat.macroSources(sessionId, false), phase: 'display' as const };
        },
        (id) => chat.extensionAllowed(id, CHAT_TEXT_PERMISSION),
      );
      // Extensions' render processors first, then the display scripts, as Lumiverse's display pass runs them.
      const rendered = await display.render(sessionId, items);
      const run = await regex.apply('display', sessionId, items.map((item, i) => ({ text: rendered[i]!, placement: placementOf(item.role), depth: item.depth })), { macros: macros.forScript });
      return { texts: run?.texts ?? rendered, revision, skipped: runNotes(run) };
    },
  };
}
