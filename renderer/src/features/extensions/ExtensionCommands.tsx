// An extension's commands (spindle.commands.register: Lumiverse's command palette entries), each a button on its card:
// running one tells its backend, with the chat open in the Workbench. A command for a chat waits for one to be open.
import { useId } from 'react';
import type { ExtensionInfo } from '../../../../shared/contract/events';
import { useAppStore, useHost } from '../../app/context';
import { InlineError } from '../../components/InlineError';
import { Icon } from '../../components/Icon';
import { useAction } from '../../components/use-action';
import { runExtensionCommand } from '../../stores/extensions/extension-commands';

const IN_A_CHAT = new Set(['chat', 'chat-idle', 'character']);

export function ExtensionCommands(props: { extension: ExtensionInfo }) {
  const { id, name, commands } = props.extension;
  const host = useHost();
  const uid = useId();
  const openChat = useAppStore((s) => s.chat.open?.id ?? null);
  const { busy, error, run } = useAction<string>();
  if (!commands?.length) return null;
  const titleId = `${uid}-title`;
  return (
    <section className="ext-card__commands" aria-labelledby={titleId} data-testid="extension-commands">
      <h3 className="ext-card__subtitle" id={titleId}>
        {name}’s commands
      </h3>
      <ul className="ext-card__command-list">
        {commands.map((command, i) => {
          const needsChat = IN_A_CHAT.has(command.scope ?? '') && openChat === null;
          const noteId = `${uid}-note-${i}`;
          const note = needsChat ? `${command.description ? `${command.description} ` : ''}(Open a chat in the Workbench first.)` : command.description;
          return (
            <li key={command.id}>
              <button
                type="button"
                className="btn"
                aria-disabled={busy !== null || needsChat || undefined}
                aria-describedby={note ? noteId : undefined}
                onClick={() => busy === null && !needsChat && void run(command.id, `Could not run “${command.label}”`, () => runExtensionCommand(host, id, command.id, openChat))}
              >
                <Icon name="play" />
                {busy === command.id ? 'Running…' : command.label}
              </button>
              {note && (
                <span className="ext-card__command-note" id={noteId}>
                  {note}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      {error && <InlineError error={error.error} title={error.title} />}
    </section>
  );
}
