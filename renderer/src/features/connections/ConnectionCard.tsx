// One saved connection: what it points at, how its key is held (never the key), Test, List models (with a picker to make one the default), Edit, Remove.
import { useEffect, useId, useRef, useState } from 'react';
import type { HostError } from '../../../../shared/errors';
import type { ConnectionProfileView } from '../../../../shared/types/llm';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { AskRemoveButton, ConfirmRemove, useConfirmRemove } from '../../components/ConfirmRemove';
import { Icon } from '../../components/Icon';
import { WaitingNote } from '../../components/WaitingNote';
import { InlineError } from '../../components/InlineError';
import { confirmConnection, listModels, removeConnection, saveConnection, testConnection, type TestOutcome } from '../../stores/connections/connections-commands';
import { ProfileForm } from './ProfileForm';
import { keyStatus, providerInfo } from './providers';
import { TestResult } from './TestResult';
import { ToolCallingCard } from './ToolCallingCard';

type Busy = null | 'test' | 'models' | 'remove' | 'default' | 'confirm';

const NO_MODELS: readonly string[] = [];

export function ConnectionCard(props: { profile: ConnectionProfileView; usage: string[] }) {
  const p = props.profile;
  const store = useAppStoreApi();
  const host = useHost();
  const uid = useId();
  const models = useAppStore((s) => (Object.prototype.hasOwnProperty.call(s.connections.models, p.id) ? s.connections.models[p.id]! : NO_MODELS));
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState<Busy>(null);
  const [test, setTest] = useState<TestOutcome | null>(null);
  const [error, setError] = useState<{ title: string; error: HostError } | null>(null);
  const [showModels, setShowModels] = useState(false);
  const [picked, setPicked] = useState('');
  const confirm = useConfirmRemove();
  const [warnings, setWarnings] = useState<string[]>([]);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => void (mounted.current = false);
  }, []);

  const run = async (what: Exclude<Busy, null>, fn: () => Promise<void>) => {
    if (busy) return;
    setBusy(what);
    setError(null);
    await fn();
    if (mounted.current) setBusy(null);
  };

  const doTest = () =>
    run('test', async () => {
      setTest(null);
      const outcome = await testConnection(store, host, { id: p.id });
      if (mounted.current) setTest(outcome);
    });
  const doModels = () =>
    run('models', async () => {
      const result = await listModels(store, host, p.id);
      if (!mounted.current) return;
      if (!result.ok) setError({ title: 'Could not list models', error: result.error });
      else {
        setShowModels(true);
        setPicked(result.value.models.includes(p.defaultModel) ? p.defaultModel : (result.value.models[0] ?? ''));
      }
    });
  const makeDefault = () =>
    run('default', async () => {
      const { hasKey: _h, keyHint: _k, held: _held, ...profile } = p;
      const result = await saveConnection(store, host, { ...profile, defaultModel: picked });
      if (!mounted.current) return;
      if (!result.ok) setError({ title: 'Could not change the default model', error: result.error });
    });
  const doConfirm = () =>
    run('confirm', async () => {
      const result = await confirmConnection(store, host, p.id);
      if (!mounted.current) return;
      if (!result.ok) setError({ title: 'Could not confirm', error: result.error });
    });
  const doRemove = () =>
    run('remove', async () => {
      const result = await removeConnection(store, host, p.id);
      if (!mounted.current) return;
      if (!result.ok) setError({ title: 'Could not remove', error: result.error });
      else document.getElementById('main')?.focus();
    });

  if (editing) {
    return (
      <li>
        <ProfileForm
          profile={p}
          onCancel={() => setEditing(false)}
          onDone={(_profile, w) => {
            setEditing(false);
            setWarnings(w);
            setTest(null);
          }}
        />
      </li>
    );
  }

  const key = keyStatus(p);
  const titleId = `${uid}-title`;
  return (
    <li>
      <article className="card conn-card" aria-labelledby={titleId} aria-busy={busy !== null || undefined} data-testid="connection" data-id={p.id}>
        <header className="conn-card__header">
          <h2 id={titleId} className="conn-card__title">
            {p.name}
          </h2>
          <span className="badge">{providerInfo(p.provider).short}</span>
          <span className={`badge badge--${key.tone === 'ok' ? 'ok' : key.tone === 'warn' ? 'write' : 'neutral'}`} data-testid="key-status">
            {key.text}
          </span>
          {props.usage.map((u) => (
            <span key={u} className="badge badge--read">
              {u}
            </span>
          ))}
        </header>
        <dl className="conn-card__facts">
          <div>
            <dt>Base URL</dt>
            <dd>
              <code>{p.baseUrl}</code>
            </dd>
          </div>
          <div>
            <dt>Default model</dt>
            <dd>{p.defaultModel ? <code>{p.defaultModel}</code> : <span className="field__unset">none — choose one per use</span>}</dd>
          </div>
          {p.imageModel && (
            <div>
              <dt>Image model</dt>
              <dd>
                <code>{p.imageModel}</code>
              </dd>
            </div>
          )}
          {Object.keys(p.headers).length > 0 && (
            <div>
              <dt>Extra headers</dt>
              <dd>
                <code>{Object.keys(p.headers).join(', ')}</code>
              </dd>
            </div>
          )}
        </dl>
        {p.defaultModel && p.held === undefined && <ToolCallingCard connectionId={p.id} model={p.defaultModel} />}
        {p.held !== undefined && (
          <div className="key-warning conn-card__held" role="note" data-testid="connection-held">
            <Icon name="warning" />
            <span>
              Restored from a backup and not used until you confirm it: {p.held}. Check the address above; its key is not kept.
            </span>
            <button type="button" className="btn btn--small" aria-disabled={busy !== null || undefined} onClick={() => void doConfirm()}>
              {busy === 'confirm' ? 'Confirming…' : `Confirm ${p.name}`}
            </button>
          </div>
        )}
        {warnings.map((w) => (
          <p key={w} className="key-warning" role="note">
            <Icon name="warning" />
            <span>{w}</span>
          </p>
        ))}
        <div className="conn-card__actions">
          <button type="button" className="btn" aria-disabled={busy !== null || undefined} aria-label={`Test ${p.name}`} onClick={() => void doTest()}>
            <Icon name="play" />
            <span aria-hidden="true">{busy === 'test' ? 'Testing…' : 'Test'}</span>
          </button>
          <button type="button" className="btn" aria-disabled={busy !== null || undefined} aria-label={`List models of ${p.name}`} onClick={() => void doModels()}>
            <Icon name="refresh" />
            <span aria-hidden="true">{busy === 'models' ? 'Listing…' : 'List models'}</span>
          </button>
          <button type="button" className="btn" aria-disabled={busy !== null || undefined} aria-label={`Edit ${p.name}`} onClick={() => busy === null && setEditing(true)}>
            <span aria-hidden="true">Edit</span>
          </button>
          {!confirm.open && (
            <AskRemoveButton name={p.name} busy={busy !== null} onAsk={confirm.ask} />
          )}
          {(busy === 'test' || busy === 'models') && (
            <WaitingNote>Asking {p.baseUrl}…</WaitingNote>
          )}
        </div>
        <ConfirmRemove
          confirm={confirm}
          name={p.name}
          consequence={
            <>
              ? Its stored key is deleted too.
              {props.usage.length > 0 && ` It is in use (${props.usage.join(', ')}); those settings will point at nothing.`}
            </>
          }
          busy={busy}
          onRemove={() => void doRemove()}
        />
        {test && <TestResult outcome={test} />}
        {showModels && (
          <div className="inset conn-card__models" data-testid="model-list">
            {models.length === 0 ? (
              <p className="panel-note">The server listed no models.</p>
            ) : (
              <>
                <label className="field__label" htmlFor={`${uid}-models`}>
                  {models.length} {models.length === 1 ? 'model' : 'models'}
                </label>
                <div className="input-row">
                  <select id={`${uid}-models`} className="input input--select input--mono" value={picked} onChange={(e) => setPicked(e.target.value)}>
                    {models.map((m) => (
                      <option key={m} value={m}>
                        {m}
                      </option>
                    ))}
                  </select>
                  <button
                    type="button"
                    className="btn btn--small"
                    aria-disabled={busy !== null || picked === p.defaultModel || undefined}
                    onClick={() => picked !== p.defaultModel && void makeDefault()}
                  >
                    {busy === 'default' ? 'Saving…' : picked === p.defaultModel ? 'Is the default' : 'Make default'}
                  </button>
                </div>
              </>
            )}
          </div>
        )}
        {error && <InlineError error={error.error} title={error.title} />}
      </article>
    </li>
  );
}
