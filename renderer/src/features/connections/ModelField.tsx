// The default model: typed, or picked from the list the server gave when asked ("List models").
import type { FieldKit } from '../../components/FieldError';
import { Icon } from '../../components/Icon';

export function ModelField(props: { value: string; models: string[] | null; listing: boolean; busy: boolean; kit: FieldKit; onChange(model: string): void; onList(): void }) {
  const { models, kit } = props;
  const { fid } = kit;
  return (
    <div className="field">
      <label className="field__label" htmlFor={fid('defaultModel')}>
        Default model
      </label>
      <div className="input-row">
        <input
          id={fid('defaultModel')}
          className="input input--mono"
          value={props.value}
          maxLength={200}
          autoComplete="off"
          spellCheck={false}
          list={models?.length ? fid('models') : undefined}
          placeholder="Type a model id, or list the server’s models"
          onChange={(e) => props.onChange(e.target.value)}
          {...kit.invalid('defaultModel')}
        />
        <button type="button" className="btn" aria-disabled={props.busy || undefined} onClick={props.onList}>
          <Icon name="refresh" />
          {props.listing ? 'Listing…' : 'List models'}
        </button>
      </div>
      {models && models.length > 0 && (
        <>
          <datalist id={fid('models')}>
            {models.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
          <label className="model-pick">
            <span className="field__hint">
              {models.length} {models.length === 1 ? 'model' : 'models'} on the server:
            </span>
            <select
              className="input input--select input--mono"
              aria-label="Pick the default model"
              value={models.includes(props.value) ? props.value : ''}
              onChange={(e) => props.onChange(e.target.value)}
            >
              <option value="">Pick a model…</option>
              {models.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
        </>
      )}
      {models && models.length === 0 && <p className="field__hint">The server listed no models; type the model id.</p>}
      {kit.errorFor('defaultModel')}
    </div>
  );
}
