// "Local models": the GGUF files the built-in engine runs, with no server and no key. Add one by its path on the
// host's disk, use it as a connection in one click, remove it.
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { HostError } from '../../../../shared/errors';
import { fileSize } from '../../../../shared/file-size';
import { DEFAULT_BASE_URLS } from '../../../../shared/types/llm';
import type { LocalModelInfo } from '../../../../shared/types/local-models';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { addLocalModel, listLocalModels, removeLocalModel, saveConnection } from '../../stores/connections/connections-commands';
import { ModelDownloads } from './ModelDownloads';

export function LocalModels() {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const profiles = useAppStore((s) => s.connections.items);
  const [models, setModels] = useState<LocalModelInfo[] | null>(null);
  const [file, setFile] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<HostError | null>(null);
  const mounted = useRef(true);
  const reload = useCallback(() => {
    void listLocalModels(host).then((result) => mounted.current && (result.ok ? setModels(result.value) : setError(result.error)));
  }, [host]);
  useEffect(() => {
    mounted.current = true;
    reload();
    return () => void (mounted.current = false);
  }, [reload]);

  /** Runs one action at a time; its failure shows here, under the list. */
  const act = async (what: string, work: () => Promise<HostError | null>) => {
    if (busy) return;
    setBusy(what);
    setError(null);
    const failed = await work();
    if (!mounted.current) return;
    setBusy(null);
    setError(failed);
  };

  const add = (event: FormEvent) => {
    event.preventDefault();
    if (!file.trim()) return setError({ code: 'INVALID_INPUT', message: 'Type the path of a .gguf file on this machine.' });
    void act('add', async () => {
      const added = await addLocalModel(host, file.trim());
      if (!added.ok) return added.error;
      setModels((list) => [...(list ?? []).filter((m) => m.id !== added.value.id), added.value]);
      setFile('');
      return null;
    });
  };
  const remove = (model: LocalModelInfo) =>
    act(`remove:${model.id}`, async () => {
      const removed = await removeLocalModel(host, model.id);
      if (!removed.ok) return removed.error;
      setModels((list) => (list ?? []).filter((m) => m.id !== model.id));
      return null;
    });
  const connect = (model: LocalModelInfo) =>
    act(`use:${model.id}`, async () => {
      const saved = await saveConnection(store, host, { name: `Local ${model.name}`.slice(0, 100), provider: 'local', baseUrl: DEFAULT_BASE_URLS.local, defaultModel: model.id, headers: {} });
      return saved.ok ? null : saved.error;
    });
  const connectedAs = (model: LocalModelInfo) => profiles.find((p) => p.provider === 'local' && p.defaultModel === model.id);

  return (
    <section className="card detect" aria-labelledby={`${id}-title`} data-testid="local-models">
      <h2 id={`${id}-title`} className="card__title">
        Local models
      </h2>
      <p className="card__lead">GGUF models the Workbench runs itself, in a process of its own: no server, no key. Runs on this machine's CPU.</p>
      <form className="detect__head" onSubmit={add}>
        <label className="field__label" htmlFor={`${id}-file`}>
          Model file
        </label>
        <input id={`${id}-file`} className="input input--mono" value={file} placeholder="/home/me/models/qwen3-1.7b-q4_k_m.gguf" onChange={(e) => setFile(e.target.value)} />
        <button type="submit" className="btn" aria-disabled={busy !== null || undefined}>
          <Icon name="plus" />
          {busy === 'add' ? 'Reading…' : 'Add model'}
        </button>
      </form>
      <ModelDownloads onDone={reload} />
      {error && <InlineError error={error} title="Local models" />}
      {models && models.length === 0 && <p className="panel-note">No local models yet. Add a .gguf file by its path.</p>}
      {models && models.length > 0 && (
        <ul className="detect__list" aria-label="Local models">
          {models.map((model) => {
            const existing = connectedAs(model);
            return (
              <li key={model.id} className="inset detect__item" data-testid="local-model" data-id={model.id}>
                <div className="detect__info">
                  <strong>{model.name}</strong>
                  <code>{model.file}</code>
                  <span className="field__hint">
                    {model.architecture} · {fileSize(model.sizeBytes)}
                    {model.contextLength ? ` · context ${model.contextLength}` : ''}
                    {model.missing ? ' · the file is gone' : ''}
                  </span>
                </div>
                {existing ? (
                  <span className="badge badge--ok">Used by {existing.name}</span>
                ) : (
                  <button type="button" className="btn btn--primary btn--small" aria-disabled={busy !== null || undefined} aria-label={`Use ${model.name} as a connection`} onClick={() => void connect(model)}>
                    <Icon name="plus" />
                    <span aria-hidden="true">{busy === `use:${model.id}` ? 'Adding…' : 'Use'}</span>
                  </button>
                )}
                <button type="button" className="btn btn--small" aria-disabled={busy !== null || undefined} aria-label={`Remove ${model.name}`} onClick={() => void remove(model)}>
                  <Icon name="trash" />
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
