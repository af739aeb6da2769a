// A reasoning model's thinking, folded above its reply: "Thinking…" while it thinks, then how long it took. Shown as
// plain text, never as the reply, and never sent back to the model.

/** Whole seconds (a minute and more as minutes and seconds): how long a person reads "thought for" in. */
function thoughtFor(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const rest = seconds % 60;
  return `${Math.floor(seconds / 60)} min${rest ? ` ${rest} s` : ''}`;
}

export function ReasoningBlock(props: { text: string; ms?: number | undefined; thinking: boolean }) {
  if (!props.text) return null;
  const label = props.thinking ? 'Thinking…' : props.ms !== undefined && props.ms > 0 ? `Thought for ${thoughtFor(props.ms)}` : 'Thoughts';
  return (
    <details className="msg__reasoning" data-testid="message-reasoning">
      <summary>
        {label}
        {props.thinking && <span className="spinner" aria-hidden="true" />}
      </summary>
      <div className="msg__reasoning-text" tabIndex={0} aria-label="The model’s reasoning">
        {props.text}
      </div>
    </details>
  );
}
