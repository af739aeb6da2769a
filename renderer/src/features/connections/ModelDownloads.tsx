// Downloading a local model: a URL or a Hugging Face reference in, progress out (size, speed, time left), with Pause,
// Resume and Cancel; a finished download joins the library above.
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { HostError } from '../../../../shared/errors';
import { fileSize } from '../../../../shared/file-size';
import type { HostEvent } from '../../../../shared/contract/events';
import type { CatalogEntry, ModelDownload } from '../../../../shared/types/local-models';
import { useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { describeFit } from '../../../../shared/local-model/describe-fit';
import { checkModelFit, pullLocalModel, steerDownload, suggestedModels } from '../../stores/connections/connections-commands';

const left = (s: number) => (s >= 3600 ? `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min` : s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`);

function Status(props: { download: ModelDownload }) {
  const d = props.download;
  const of = d.totalBytes ? ` of ${fileSize(d.totalBytes)}` : '';
  if (d.state === 'done') return <span>Done: {fileSize(d.bytesDone)}, checked, added to your models.</span>;
  if (d.state === 'paused') return <span>Paused at {fileSize(d.bytesDone)}{of}.</span>;
  if (d.state === 'failed') return <span>Stopped at {fileSize(d.bytesDone)}{of}.</span>;
  return (
    <span>
      {fileSize(d.bytesDone)}
      {of} at {fileSize(d.bytesPerSecond)}/s{d.secondsLeft !== null ? `, ${left(d.secondsLeft)} left` : ''}
    </span>
  );
}

export function ModelDownloads(props: { onDone(): void }) {
  const host = useHost();
  const id = useId();
  const { onDone } = props;
  const [source, setSource] = useState('');
  const [downloads, setDownloads] = useState<ModelDownload[]>([]);
  const [error, setError] = useState<HostError | null>(null);
  const [fit, setFit] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [suggested, setSuggested] = useState<CatalogEntry[]>([]);

  useEffect(() => {
    let live = true;
    void suggestedModels(host).then((result) => live && result.ok && setSuggested(result.value));
    return () => void (live = false);
  }, [host]);

  useEffect(
    () =>
      host.onEvent((event: HostEvent) => {
        if (event.type !== 'models.download') return;
        const d = event.download;
        setDownloads((list) => (list.some((x) => x.id === d.id) ? list.map((x) => (x.id === d.id ? d : x)) : [...list, d]));
        if (d.state === 'done') onDone();
      }),
    [host, onDone],
  );

  const start = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!source.trim()) return setError({ code: 'INVALID_INPUT', message: 'Paste a link to a .gguf file, or hf:owner/repo/file.gguf.' });
    setFit(null);
    const result = await pullLocalModel(host, source.trim());
    if (!result.ok) return setError(result.error);
    setDownloads((list) => (list.some((x) => x.id === result.value.id) ? list : [...list, result.value]));
    setSource('');
  };
  /** The verdict before any download: from the header alone. */
  const checkFit = async () => {
    if (checking) return;
    setError(null);
    setFit(null);
    if (!source.trim()) return setError({ code: 'INVALID_INPUT', message: 'Paste a link to a .gguf file, or hf:owner/repo/file.gguf.' });
    setChecking(true);
    const result = await checkModelFit(host, source.trim());
    setChecking(false);
    if (result.ok) setFit(describeFit(result.value));
    else setError(result.error);
  };
  const steer = async (action: 'models.pause' | 'models.resume' | 'models.cancel', d: ModelDownload) => {
    const result = await steerDownload(host, action, d.id);
    if (!result.ok) return setError(result.error);
    if (action === 'models.cancel') setDownloads((list) => list.filter((x) => x.id !== d.id));
  };

  return (
    <div className="model-downloads">
      <form className="detect__head" onSubmit={(e) => void start(e)}>
        <label className="field__label" htmlFor={`${id}-source`}>
          Download a model
        </label>
        <input id={`${id}-source`} className="input input--mono" value={source} placeholder="hf:Qwen/Qwen3-1.7B-GGUF/Qwen3-1.7B-Q4_K_M.gguf" onChange={(e) => setSource(e.target.value)} />
        <button type="button" className="btn" aria-disabled={checking || undefined} onClick={() => void checkFit()}>
          {checking ? 'Checking…' : 'Check fit'}
        </button>
        <button type="submit" className="btn">
          <Icon name="plus" />
          Download
        </button>
      </form>
      {suggested.length > 0 && (
        <details className="model-suggestions">
          <summary>Suggested models (small, good at tool calls)</summary>
          <ul className="detect__list" aria-label="Suggested models">
            {suggested.map((m) => (
              <li key={m.source} className="inset detect__item" data-testid="suggested-model">
                <div className="detect__info">
                  <strong>{m.name}</strong>
                  <span className="field__hint">
                    {fileSize(m.sizeBytes)} · {m.licence} · context {m.contextLength} · {m.toolCalling}
                  </span>
                </div>
                <button type="button" className="btn btn--small" aria-label={`Choose ${m.name}`} onClick={() => setSource(m.source)}>
                  Choose
                </button>
              </li>
            ))}
          </ul>
        </details>
      )}
      {fit && (
        <p className="field__hint" role="status" data-testid="model-fit">
          {fit}
        </p>
      )}
      {error && <InlineError error={error} title="Download" />}
      {downloads.length > 0 && (
        <ul className="detect__list" aria-label="Downloads">
          {downloads.map((d) => (
            <li key={d.id} className="inset detect__item" data-testid="model-download" data-state={d.state}>
              <div className="detect__info">
                <code>{d.source}</code>
                <progress max={d.totalBytes ?? 1} value={d.totalBytes ? d.bytesDone : undefined} aria-label={`Download of ${d.source}`} />
                <span className="field__hint" role="status">
                  <Status download={d} />
                </span>
                {d.error && <InlineError error={d.error} title="The download stopped" />}
              </div>
              {d.state === 'running' && (
                <button type="button" className="btn btn--small" onClick={() => void steer('models.pause', d)}>
                  Pause
                </button>
              )}
              {(d.state === 'paused' || d.state === 'failed') && (
                <button type="button" className="btn btn--small" onClick={() => void steer('models.resume', d)}>
                  Resume
                </button>
              )}
              {d.state !== 'done' && (
                <button type="button" className="btn btn--small" onClick={() => void steer('models.cancel', d)}>
                  Cancel
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
