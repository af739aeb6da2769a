// A card's Enabled switch (an extension, an MCP server): on while enabled, "Enabling…"/"Disabling…" while the host
// answers, and every control of the card waits while anything is in flight.
export function EnabledSwitch(props: {
  name: string;
  enabled: boolean;
  /** What the card has in flight, if anything ('enable' and 'disable' are this switch's own). */
  busy: string | null;
  /** The words beside the switch when nothing is in flight. */
  label: string;
  title: string;
  onToggle(next: boolean): void;
}) {
  const { busy } = props;
  return (
    <label className="switch" title={props.title}>
      <input
        type="checkbox"
        role="switch"
        checked={props.enabled}
        aria-disabled={busy !== null || undefined}
        aria-label={`Enabled: ${props.name}`}
        onChange={(e) => props.onToggle(e.target.checked)}
      />
      <span className="switch__track" aria-hidden="true" />
      <span aria-hidden="true">{busy === 'enable' ? 'Enabling…' : busy === 'disable' ? 'Disabling…' : props.label}</span>
    </label>
  );
}
