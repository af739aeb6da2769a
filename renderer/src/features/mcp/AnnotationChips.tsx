// An MCP tool's annotations as chips (read-only, destructive, idempotent, open world), as the server declares them.
import type { McpToolAnnotations } from '../../../../shared/types/mcp';

const HINTS: ReadonlyArray<[keyof Omit<McpToolAnnotations, 'title'>, string]> = [
  ['readOnlyHint', 'read-only'],
  ['destructiveHint', 'destructive'],
  ['idempotentHint', 'idempotent'],
  ['openWorldHint', 'open world'],
];

export function AnnotationChips(props: { annotations: McpToolAnnotations | undefined }) {
  const chips = HINTS.filter(([key]) => typeof props.annotations?.[key] === 'boolean');
  if (chips.length === 0 && !props.annotations?.title) return null;
  return (
    <ul className="chip-row mcp-chips" aria-label="Annotations (hints from the server)">
      {chips.map(([key, label]) => {
        const value = props.annotations![key] as boolean;
        return (
          <li key={key} className={`mcp-chip mcp-chip--${value ? 'yes' : 'no'}`} data-testid="mcp-annotation" title={`${key}: ${String(value)}`}>
            {value ? label : `not ${label}`}
            <span className="visually-hidden"> ({key}: {String(value)})</span>
          </li>
        );
      })}
      {props.annotations?.title && (
        <li className="mcp-chip" data-testid="mcp-annotation" title="annotations.title">
          title: {props.annotations.title}
        </li>
      )}
    </ul>
  );
}
