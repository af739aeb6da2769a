// The stdio server's arguments: one field per argument, passed literally (no shell), reordered with ↑/↓ and removed one by one.
import type { FieldKit } from '../../components/FieldError';
import { Icon } from '../../components/Icon';
import { nextRowId, type DraftArg } from './server-draft';

export function ArgumentList(props: { args: DraftArg[]; errors: Readonly<Record<string, string>>; kit: FieldKit; onChange(args: DraftArg[]): void }) {
  const { args, kit } = props;
  const { fid } = kit;
  const updateArg = (rowId: number, value: string) => props.onChange(args.map((a) => (a.rowId === rowId ? { ...a, value } : a)));
  const moveArg = (index: number, by: -1 | 1) => {
    const next = [...args];
    const [moved] = next.splice(index, 1);
    next.splice(index + by, 0, moved!);
    props.onChange(next);
    setTimeout(() => document.getElementById(fid(`arg-${index + by}`))?.focus());
  };
  const addArg = () => {
    props.onChange([...args, { rowId: nextRowId(), value: '' }]);
    setTimeout(() => document.getElementById(fid(`arg-${args.length}`))?.focus());
  };

  return (
    <fieldset className="field-group" aria-describedby={fid('args-note')}>
      <legend className="field-group__legend">Arguments</legend>
      <p className="field__hint mcp-form__literal" id={fid('args-note')}>
        <Icon name="info" />
        <span>
          Arguments are passed literally, no shell: each field is one argument, exactly as typed. Quotes, spaces, <code>$VARIABLES</code>,{' '}
          <code>~</code>, <code>*</code> and <code>|</code> mean nothing special.
        </span>
      </p>
      {args.length > 0 && (
        <ol className="stack-list field-list mcp-args" data-testid="mcp-args">
          {args.map((arg, i) => (
            <li key={arg.rowId} className="mcp-args__row">
              <span className="mcp-args__index" aria-hidden="true">
                {i + 1}
              </span>
              <input
                id={fid(`arg-${i}`)}
                className="input input--mono"
                aria-label={`Argument ${i + 1}`}
                value={arg.value}
                autoComplete="off"
                spellCheck={false}
                onChange={(e) => updateArg(arg.rowId, e.target.value)}
                {...kit.invalid(`args.${i}`)}
              />
              <button type="button" className="btn btn--ghost btn--small" aria-label={`Move argument ${i + 1} up`} disabled={i === 0} onClick={() => moveArg(i, -1)}>
                ↑
              </button>
              <button
                type="button"
                className="btn btn--ghost btn--small"
                aria-label={`Move argument ${i + 1} down`}
                disabled={i === args.length - 1}
                onClick={() => moveArg(i, 1)}
              >
                ↓
              </button>
              <button
                type="button"
                className="btn btn--ghost btn--small"
                aria-label={`Remove argument ${i + 1}`}
                onClick={() => props.onChange(args.filter((a) => a.rowId !== arg.rowId))}
              >
                <Icon name="trash" />
              </button>
              {props.errors[`args.${i}`] && <div className="mcp-args__error">{kit.errorFor(`args.${i}`)}</div>}
            </li>
          ))}
        </ol>
      )}
      {kit.errorFor('args')}
      <button type="button" id={fid('add-arg')} className="btn btn--small" onClick={addArg}>
        <Icon name="plus" /> Add argument
      </button>
    </fieldset>
  );
}
