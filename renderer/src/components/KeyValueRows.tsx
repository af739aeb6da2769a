// Name–value rows (environment variables, HTTP headers): one row per pair with its own remove button; the form
// owns the list and adds rows. The same part in the MCP server form and the connection form.
import { Icon } from './Icon';

export interface KeyValueRow {
  /** Stable across edits, so React keeps each input's focus and cursor. */
  rowId: number;
  key: string;
  value: string;
}

const PARTS = [
  { part: 'key', name: 'name' },
  { part: 'value', name: 'value' },
] as const;

export function KeyValueRows(props: {
  rows: KeyValueRow[];
  what: string;
  keyPlaceholder: string;
  valuePlaceholder: string;
  idFor(part: 'key' | 'value', index: number): string;
  invalid: boolean;
  describedBy: string | undefined;
  onChange(rows: KeyValueRow[]): void;
}) {
  const update = (rowId: number, patch: Partial<KeyValueRow>) => props.onChange(props.rows.map((r) => (r.rowId === rowId ? { ...r, ...patch } : r)));
  if (props.rows.length === 0) return null;
  return (
    <ul className="stack-list field-list">
      {props.rows.map((row, i) => (
        <li key={row.rowId} className="header-row">
          {PARTS.map(({ part, name }) => (
            <input
              key={part}
              id={props.idFor(part, i)}
              className="input input--mono"
              aria-label={`${props.what} ${i + 1} ${name}`}
              placeholder={part === 'key' ? props.keyPlaceholder : props.valuePlaceholder}
              value={row[part]}
              autoComplete="off"
              spellCheck={false}
              // Only the name is checked (empty, repeated), so only it carries the group's error.
              aria-invalid={(part === 'key' && props.invalid) || undefined}
              aria-describedby={part === 'key' ? props.describedBy : undefined}
              onChange={(e) => update(row.rowId, { [part]: e.target.value })}
            />
          ))}
          <button
            type="button"
            className="btn btn--ghost btn--small"
            aria-label={`Remove ${props.what.toLowerCase()} ${i + 1}`}
            onClick={() => props.onChange(props.rows.filter((r) => r.rowId !== row.rowId))}
          >
            <Icon name="trash" />
          </button>
        </li>
      ))}
    </ul>
  );
}
