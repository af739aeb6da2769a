// A status with its coloured dot (pulsing while it changes), as an MCP server or an extension shows it.
export function StatusBadge(props: { status: string; info: { tone: string; label: string; help: string }; pulse: boolean; testId: string }) {
  const { info } = props;
  return (
    <span className={`status-badge status-badge--${info.tone}`} data-testid={props.testId} data-status={props.status} title={info.help}>
      <span className={`status-badge__dot${props.pulse ? ' status-badge__dot--pulse' : ''}`} aria-hidden="true" />
      <span className="visually-hidden">Status: </span>
      {info.label}
    </span>
  );
}
