// spindle.users: whether the person has a Workbench window in view (window-presence.ts), and their role: the one
// person of a desktop app owns it, which Lumiverse reports to extensions as `operator`.
import type { HandlersOf } from './handlers';

export function userHandlers(visible: () => boolean): HandlersOf<'users'> {
  return {
    'users.isVisible': () => visible(),
    'users.getRole': () => 'operator' as const,
  };
}
