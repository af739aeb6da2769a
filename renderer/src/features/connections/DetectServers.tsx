// "Detect local servers": probes loopback for Ollama, LM Studio, llama.cpp, KoboldCpp and vLLM, then offers one-click "Add" per server found.
import { useEffect, useId, useRef, useState } from 'react';
import type { MethodOutput } from '../../../../shared/contract';
import type { HostError } from '../../../../shared/errors';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { detectServers, saveConnection } from '../../stores/connections/connections-commands';
import { localServerLabel, PROBED } from './providers';

type Found = MethodOutput<'connections.detect'>[number];

export function DetectServers() {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const profiles = useAppStore((s) => s.connections.items);
  const [probing, setProbing] = useState(false);
  const [found, setFound] = useState<Found[] | null>(null);
  const [error, setError] = useState<HostError | null>(null);
  const [adding, setAdding] = useState<string | null>(null);
  const [addError, setAddError] = useState<{ key: string; error: HostError } | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => void (mounted.current = false);
  }, []);

  const probe = async () => {
    if (probing) return;
    setProbing(true);
    setError(null);
    setFound(null);
    const result = await detectServers(host);
    if (!mounted.current) return;
    setProbing(false);
    if (result.ok) setFound(result.value);
    else setError(result.error);
  };

  const add = async (server: Found) => {
    const key = `${server.kind}:${server.port}`;
    if (adding) return;
    setAdding(key);
    setAddError(null);
    const { keyRef: _k, ...suggested } = server.suggested;
    const result = await saveConnection(store, host, { ...suggested, defaultModel: suggested.defaultModel || server.models[0] || '' });
    if (!mounted.current) return;
    setAdding(null);
    if (!result.ok) setAddError({ key, error: result.error });
  };

  const already = (server: Found) => profiles.find((p) => p.baseUrl.replace(/\/+$/, '') === server.suggested.baseUrl.replace(/\/+$/, ''));

  return (
    <section className="card detect" aria-labelledby={`${id}-title`} data-testid="detect">
      <div className="detect__head">
        <div>
          <h2 id={`${id}-title`} className="card__title">
            Local servers
          </h2>
          <p className="card__lead">Looks on this machine (127.0.0.1) for {PROBED}.</p>
        </div>
        <button type="button" className="btn" aria-disabled={probing || undefined} onClick={() => void probe()}>
          <Icon name="search" />
          {probing ? 'Detecting…' : 'Detect local servers'}
        </button>
      </div>
      <div role="status" className="detect__status">
        {probing && (
          <p className="detect__progress" data-testid="detect-progress">
            <span className="spinner" aria-hidden="true" /> Probing {PROBED}…
          </p>
        )}
        {found && found.length === 0 && <p className="panel-note">No local server answered. Start one (e.g. <code>ollama serve</code>) and detect again.</p>}
        {found && found.length > 0 && <span className="visually-hidden">{found.length} found.</span>}
      </div>
      {error && <InlineError error={error} title="Could not probe" />}
      {found && found.length > 0 && (
        <ul className="detect__list" aria-label="Servers found">
          {found.map((server) => {
            const key = `${server.kind}:${server.port}`;
            const existing = already(server);
            return (
              <li key={key} className="inset detect__item" data-testid="detected" data-kind={server.kind}>
                <div className="detect__info">
                  <strong>{localServerLabel(server.kind)}</strong>
                  <code>{server.suggested.baseUrl}</code>
                  <span className="field__hint">
                    {server.models.length} {server.models.length === 1 ? 'model' : 'models'}
                    {server.models.length > 0 && `: ${server.models.slice(0, 3).join(', ')}${server.models.length > 3 ? '…' : ''}`}
                  </span>
                </div>
                {existing ? (
                  <span className="badge badge--ok">Added as {existing.name}</span>
                ) : (
                  <button
                    type="button"
                    className="btn btn--primary btn--small"
                    aria-disabled={adding !== null || undefined}
                    aria-label={`Add ${localServerLabel(server.kind)} on port ${server.port}`}
                    onClick={() => void add(server)}
                  >
                    <Icon name="plus" />
                    <span aria-hidden="true">{adding === key ? 'Adding…' : 'Add'}</span>
                  </button>
                )}
                {addError?.key === key && <InlineError error={addError.error} title="Could not add" />}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
