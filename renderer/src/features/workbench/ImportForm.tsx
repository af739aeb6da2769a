// Import a session: paste exported JSON or pick the file; the host validates it and names the field that is wrong.
import { useId, useState, type FormEvent } from 'react';
import type { HostError } from '../../../../shared/errors';
import { useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { importSession } from '../../stores/chat-commands';
import { readFileText } from './files';

export function ImportForm(props: { onDone(): void; onCancel(): void }) {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const [json, setJson] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HostError | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!json.trim()) {
      setError({ code: 'INVALID_INPUT', message: 'Paste an exported session, or choose its file.' });
      return;
    }
    setBusy(true);
    setError(null);
    const result = await importSession(store, host, json);
    setBusy(false);
    if (!result.ok) return setError(result.error);
    setJson('');
    props.onDone();
  };

  const pick = async (file: File | undefined) => {
    if (!file) return;
    try {
      setJson(await readFileText(file));
      setError(null);
    } catch (err) {
      setError({ code: 'INVALID_INPUT', message: err instanceof Error ? err.message : String(err) });
    }
  };

  return (
    <form className="card import-form" onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${id}-title`} data-testid="import-form">
      <h2 id={`${id}-title`} className="card__title">
        Import a session
      </h2>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-json`}>
          Session JSON
        </label>
        <textarea
          id={`${id}-json`}
          className="input input--area input--mono"
          rows={6}
          value={json}
          spellCheck={false}
          placeholder='{"format": "council-workbench/session", …}'
          onChange={(e) => setJson(e.target.value)}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-file`}>
          Or choose a file
        </label>
        <input id={`${id}-file`} type="file" accept=".json,application/json" onChange={(e) => void pick(e.target.files?.[0])} />
      </div>
      {error && <InlineError error={error} title="Could not import" />}
      <div className="form-actions">
        <button type="submit" className="btn btn--primary" aria-disabled={busy || undefined}>
          <Icon name="plus" />
          {busy ? 'Importing…' : 'Import'}
        </button>
        <button type="button" className="btn btn--ghost" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
