// An extension's commands (spindle.commands.register: Lumiverse's command palette entries), each a button on its card:
// running one tells its backend, with the chat open in the Workbench. A command for a chat waits for one to be open.
import type { ExtensionInfo } from '../../../../shared/contract/events';
import { useAppStore, useHost } from '../../app/context';
import { InlineError } from '../../components/InlineError';
import { Icon } from '../../components/Icon';
import { useAction } from '../../components/use-action';
import { runExtensionCommand } from '../../stores/extensions/extension-commands';

const IN_A_CHAT = new Set(['chat', 'chat-idle']);

export function ExtensionCommands(props: { extension: ExtensionInfo }) {
  const { id, name, commands } = props.extension;
  const host = useHost();
  const chatOpen = useAppStore((s) => s.chat.open !== null);
  const { busy, error, run } = useAction<string>();
  if (!commands?.length) return null;
  return (
    <section className="ext-card__commands" aria-label={`${name}’s commands`} data-testid="extension-commands">
      <h3 className="ext-card__subtitle">Commands</h3>
      <ul className="ext-card__command-list">
        {commands.map((command) => {
          const needsChat = IN_A_CHAT.has(command.scope ?? '') && !chatOpen;
          return (
            <li key={command.id}>
              <button
                type="button"
                className="btn"
                aria-disabled={busy !== null || needsChat || undefined}
                title={needsChat ? 'Open a chat in the Workbench first' : command.description || command.label}
                onClick={() => busy === null && !needsChat && void run(command.id, `Could not run “${command.label}”`, () => runExtensionCommand(host, id, command.id))}
              >
                <Icon name="play" />
                {busy === command.id ? 'Running…' : command.label}
              </button>
              {command.description && <span className="ext-card__command-note">{command.description}</span>}
            </li>
          );
        })}
      </ul>
      {error && <InlineError error={error.error} title={error.title} />}
    </section>
  );
}
