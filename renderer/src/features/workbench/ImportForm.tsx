// Import a session: choose or drop a file (a character card PNG or JSON, a SillyTavern chat, an exported session),
// see what it holds and pick the greeting, add lorebooks; or paste an exported session's JSON. The host validates
// everything and names the field that is wrong.
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { MethodOutput } from '../../../../shared/contract';
import type { HostError } from '../../../../shared/errors';
import { useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { importSession, importSessionData, inspectImport } from '../../stores/chat/chat-commands';
import { readFileBase64 } from './files';
import { ImportPreview } from './ImportPreview';

export const IMPORT_ACCEPT = '.png,.json,.jsonl,image/png,application/json';

interface Source {
  name: string;
  png: boolean;
  data: string;
}

interface Chosen extends Source {
  /** The PNG itself, shown as the character's picture while choosing. */
  picture: string | null;
  preview: MethodOutput<'chat.sessions.inspectData'>;
}

async function sourceOf(file: File): Promise<Source> {
  return { name: file.name, png: file.type === 'image/png' || file.name.toLowerCase().endsWith('.png'), data: await readFileBase64(file) };
}

const asError = (err: unknown): HostError => ({ code: 'INVALID_INPUT', message: err instanceof Error ? err.message : String(err) });

export function ImportForm(props: { onDone(): void; onCancel(): void; file?: File | null }) {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const [json, setJson] = useState('');
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [books, setBooks] = useState<Array<{ name: string; data: string }>>([]);
  const [greeting, setGreeting] = useState(0);
  const [busy, setBusy] = useState<null | 'reading' | 'importing'>(null);
  const [error, setError] = useState<HostError | null>(null);

  /** Asks the host what the file holds (with the lorebooks so far); the preview replaces the previous one. */
  const inspect = async (source: Source | Promise<Source>, lorebooks: Array<{ name: string; data: string }>) => {
    setBusy('reading');
    setError(null);
    setChosen(null);
    try {
      const file = await source;
      const result = await inspectImport(host, { data: file.data, ...(lorebooks.length ? { lorebooks: lorebooks.map((b) => b.data) } : {}) });
      if (!result.ok) return setError(result.error);
      setChosen({ ...file, picture: file.png && result.value.avatar ? `data:image/png;base64,${file.data}` : null, preview: result.value });
      setGreeting(0);
    } catch (err) {
      setError(asError(err));
    } finally {
      setBusy(null);
    }
  };
  const choose = (file: File) => void inspect(sourceOf(file), books);

  // A file dropped on the Workbench opens the form with it (only a new dropped file starts a new inspection).
  useEffect(() => {
    if (props.file) void inspect(sourceOf(props.file), []);
  }, [props.file]);

  const addBooks = async (files: FileList | null) => {
    if (!files?.length) return;
    try {
      const added = await Promise.all([...files].map(async (f) => ({ name: f.name, data: await readFileBase64(f) })));
      const next = [...books, ...added];
      setBooks(next);
      if (chosen) await inspect(chosen, next);
    } catch (err) {
      setError(asError(err));
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!chosen && !json.trim()) {
      setError({ code: 'INVALID_INPUT', message: 'Choose or drop a file (a character card, a SillyTavern chat, an exported session), or paste an exported session.' });
      return;
    }
    setBusy('importing');
    setError(null);
    const result = chosen
      ? await importSessionData(store, host, {
          data: chosen.data,
          ...(chosen.preview.greetings > 1 ? { greeting } : {}),
          ...(books.length ? { lorebooks: books.map((b) => b.data) } : {}),
        })
      : await importSession(store, host, json);
    setBusy(null);
    if (!result.ok) return setError(result.error);
    setJson('');
    setChosen(null);
    props.onDone();
  };

  return (
    <form className="card import-form" onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${id}-title`} data-testid="import-form">
      <h2 id={`${id}-title`} className="card__title">
        Import a session
      </h2>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-file`}>
          Choose a file
        </label>
        <input id={`${id}-file`} type="file" accept={IMPORT_ACCEPT} onChange={(e) => e.target.files?.[0] && choose(e.target.files[0])} />
        <p className="field__hint">A character card (PNG or JSON, V1/V2/V3), a SillyTavern chat (.jsonl) or an exported session, up to 20 MB. You can also drop it on the Workbench.</p>
      </div>
      {busy === 'reading' && (
        <p className="panel-note" role="status">
          Reading the file…
        </p>
      )}
      {chosen && <ImportPreview name={chosen.name} preview={chosen.preview} picture={chosen.picture} greeting={greeting} onGreeting={setGreeting} />}
      {chosen && chosen.preview.kind !== 'session' && (
        <div className="field">
          <label className="field__label" htmlFor={`${id}-books`}>
            Add lorebooks (SillyTavern world info)
          </label>
          <input id={`${id}-books`} type="file" multiple accept=".json,application/json" onChange={(e) => void addBooks(e.target.files)} />
          {books.length > 0 && <p className="field__hint">Adding {books.map((b) => b.name).join(', ')}.</p>}
        </div>
      )}
      {!chosen && (
        <div className="field">
          <label className="field__label" htmlFor={`${id}-json`}>
            Or paste a session's JSON
          </label>
          <textarea
            id={`${id}-json`}
            className="input input--area input--mono"
            rows={4}
            value={json}
            spellCheck={false}
            placeholder='{"format": "council-workbench/session", …}'
            onChange={(e) => setJson(e.target.value)}
          />
        </div>
      )}
      {error && <InlineError error={error} title="Could not import" />}
      <div className="form-actions">
        <button type="submit" className="btn btn--primary" aria-disabled={busy !== null || undefined}>
          <Icon name="plus" />
          {busy === 'importing' ? 'Importing…' : chosen ? `Import ${chosen.preview.characterName || chosen.name}` : 'Import'}
        </button>
        <button type="button" className="btn btn--ghost" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
