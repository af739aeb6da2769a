// A dry-run turn: nothing was sent; the tools and the prompt the model would get.
import type { LiveTurn } from '../../stores/chat/chat-turns';

export function DryRunPreview(props: { turn: LiveTurn }) {
  const dry = props.turn.dryRun!;
  return (
    <article className="msg msg--dry" data-testid="dry-run" aria-label="Dry run">
      <header className="msg__head">
        <span className="msg__name">Dry run</span>
        <span className="msg__meta">nothing was sent; this is the prompt the model would get</span>
      </header>
      {dry.tools.length > 0 && (
        <p className="msg__note">
          Functions offered: <code>{dry.tools.join(', ')}</code>
        </p>
      )}
      <ol className="stack-list dry-run__prompt">
        {dry.prompt.map((m, i) => (
          <li key={i}>
            <span className="dry-run__role">{m.role}</span>
            <pre className="dry-run__content">{m.content}</pre>
          </li>
        ))}
      </ol>
    </article>
  );
}
