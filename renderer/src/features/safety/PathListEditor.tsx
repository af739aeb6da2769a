// An allowed-path prefix list, edited as rows: "No restriction" (no list) versus "Only these prefixes" (a list; empty =
// nothing allowed). Saved as a whole. The host cannot drop a list once set, so "No restriction" over an existing list
// saves ["."] — the whole notes folder — which allows exactly what no list allows (absolute paths still need a prefix).
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { HostError, Result } from '../../../../shared/errors';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import './safety.css';

export const WHOLE_FOLDER = '.';
const MAX_ROWS = 64;

/** A list that allows every relative path reads as "no restriction". */
export function isUnrestricted(list: readonly string[] | undefined): boolean {
  return list === undefined || (list.length > 0 && list.every((p) => p.trim() === WHOLE_FOLDER || p.trim() === './'));
}

function clean(rows: readonly string[]): string[] {
  const out: string[] = [];
  for (const row of rows) {
    const value = row.trim();
    if (value && !out.includes(value)) out.push(value);
  }
  return out;
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

export function PathListEditor(props: {
  /** "Read paths" / "Write paths". */
  label: string;
  /** Who the list is for, for screen readers: "Marshal Vane", "the Workbench". */
  owner: string;
  kind: 'read' | 'write';
  value: readonly string[] | undefined;
  disabled?: boolean;
  onSave(list: string[]): Promise<Result<unknown> | null>;
}) {
  const id = useId();
  const unrestricted = isUnrestricted(props.value);
  const saved = unrestricted ? [] : [...(props.value ?? [])];
  const [mode, setMode] = useState<'none' | 'list'>(unrestricted ? 'none' : 'list');
  const [rows, setRows] = useState<string[]>(saved);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HostError | null>(null);
  const valueKey = JSON.stringify(props.value ?? null);

  // The host's answer (or an event) replaces the draft.
  useEffect(() => {
    const list = JSON.parse(valueKey) as string[] | null;
    const none = isUnrestricted(list ?? undefined);
    setMode(none ? 'none' : 'list');
    setRows(none ? [] : [...(list ?? [])]);
  }, [valueKey]);

  const draft = clean(rows);
  const dirty = mode === 'none' ? !unrestricted : unrestricted || !same(draft, saved);
  const verb = props.kind === 'read' ? 'read' : 'write';

  const save = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!dirty || busy || props.disabled) return;
    setBusy(true);
    setError(null);
    const result = await props.onSave(mode === 'none' ? [WHOLE_FOLDER] : draft);
    setBusy(false);
    if (result && !result.ok) setError(result.error);
  };

  const reset = () => {
    setMode(unrestricted ? 'none' : 'list');
    setRows(saved);
    setError(null);
  };

  const setRow = (index: number, value: string) => setRows((r) => r.map((v, i) => (i === index ? value : v)));
  const addRow = () => {
    if (rows.length >= MAX_ROWS) return;
    setRows((r) => [...r, '']);
    setTimeout(() => document.getElementById(`${id}-row-${rows.length}`)?.focus());
  };
  const removeRow = (index: number) => {
    setRows((r) => r.filter((_, i) => i !== index));
    setTimeout(() => (document.getElementById(`${id}-row-${Math.max(0, index - 1)}`) ?? document.getElementById(`${id}-add`))?.focus());
  };

  return (
    <form className="path-editor" onSubmit={(e) => void save(e)} aria-label={`${props.label} for ${props.owner}`} data-testid={`paths-${props.kind}`} noValidate>
      <fieldset className="path-editor__fieldset">
        <legend>{props.label}</legend>
        <div className="path-editor__mode" role="radiogroup" aria-label={`${props.label} for ${props.owner}`}>
          <label>
            <input type="radio" name={`${id}-mode`} checked={mode === 'none'} disabled={props.disabled} onChange={() => setMode('none')} />
            No restriction
          </label>
          <label>
            <input type="radio" name={`${id}-mode`} checked={mode === 'list'} disabled={props.disabled} onChange={() => setMode('list')} />
            Only these prefixes
          </label>
        </div>
        {mode === 'none' ? (
          <p className="path-editor__state" data-testid="paths-state">
            Any path inside the notes folder may be {verb === 'read' ? 'read' : 'written'}. Absolute paths and paths that climb out are always refused.
          </p>
        ) : (
          <>
            <p className={`path-editor__state${draft.length === 0 ? ' path-editor__state--none' : ''}`} data-testid="paths-state">
              {draft.length === 0
                ? `Empty list: nothing may be ${verb === 'read' ? 'read' : 'written'} — every call with a path is refused.`
                : `Only paths under these prefixes (relative to the notes folder; “Journal” covers “Journal/…”, not “Journal-old”).`}
              {props.kind === 'write' && ' Writes also need read access.'}
            </p>
            <ul className="stack-list path-list">
              {rows.map((row, index) => (
                <li key={index} className="path-row">
                  <label className="visually-hidden" htmlFor={`${id}-row-${index}`}>
                    {props.label} prefix {index + 1}
                  </label>
                  <input
                    id={`${id}-row-${index}`}
                    className="input input--mono"
                    value={row}
                    maxLength={1024}
                    placeholder="e.g. Journal or Projects/Plans"
                    disabled={props.disabled}
                    onChange={(e) => setRow(index, e.target.value)}
                  />
                  <button type="button" className="btn btn--small btn--icon" aria-label={`Remove ${props.label.toLowerCase()} prefix ${row || index + 1}`} disabled={props.disabled} onClick={() => removeRow(index)}>
                    <Icon name="trash" />
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
        <div className="path-editor__actions">
          {mode === 'list' && (
            <button type="button" id={`${id}-add`} className="btn btn--small" disabled={props.disabled || rows.length >= MAX_ROWS} onClick={addRow}>
              <Icon name="plus" />
              Add prefix
            </button>
          )}
          {dirty && (
            <>
              <button type="submit" className="btn btn--small btn--primary" aria-disabled={busy || props.disabled || undefined}>
                {busy ? 'Saving…' : `Save ${props.label.toLowerCase()}`}
              </button>
              <button type="button" className="btn btn--small btn--ghost" onClick={reset}>
                Cancel
              </button>
            </>
          )}
        </div>
        {error && <InlineError error={error} title={`Could not save the ${props.label.toLowerCase()}`} />}
      </fieldset>
    </form>
  );
}
