// The add/edit form for one connection profile: provider, base URL, default model (with a picker from the server's list),
// extra headers, and the key by environment variable or stored key. The key is write-only: typed here, sent once, then cleared.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { HostError } from '../../../../shared/errors';
import type { ConnectionProfileView, LlmProvider } from '../../../../shared/types/llm';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { allowObfuscatedKeys, clearConnectionKey, saveConnection, testConnection, type ProfileInput, type TestOutcome } from '../../stores/connections-commands';
import { checkBaseUrl, defaultBaseUrl, ENV_NAME_PATTERN, fieldOf, keyStatus, PROVIDERS, providerInfo, type ProfileField } from './providers';
import { TestResult } from './TestResult';
import { KeyValueRows, type KeyValueRow } from '../../components/KeyValueRows';

type KeyMode = 'none' | 'env' | 'stored';
type Busy = null | 'save' | 'test' | 'models' | 'clear-key';

let headerSeq = 0;

function initialKeyMode(profile: ConnectionProfileView | undefined, provider: LlmProvider): KeyMode {
  if (profile) return profile.keyRef?.kind ?? 'none';
  return providerInfo(provider).needsKey ? 'stored' : 'none';
}

export function ProfileForm(props: {
  /** The profile being edited; absent to add one. */
  profile?: ConnectionProfileView;
  onDone(profile: ConnectionProfileView, warnings: string[]): void;
  onCancel(): void;
}) {
  const store = useAppStoreApi();
  const host = useHost();
  const secrets = useAppStore((s) => s.connections.secrets);
  const id = useId();
  const editing = props.profile;
  const [name, setName] = useState(editing?.name ?? '');
  const [provider, setProvider] = useState<LlmProvider>(editing?.provider ?? 'openai-compatible');
  const [baseUrl, setBaseUrl] = useState(editing?.baseUrl ?? defaultBaseUrl('openai-compatible'));
  const [defaultModel, setDefaultModel] = useState(editing?.defaultModel ?? '');
  const [headers, setHeaders] = useState<KeyValueRow[]>(() =>
    Object.entries(editing?.headers ?? {}).map(([n, v]) => ({ rowId: ++headerSeq, key: n, value: v })),
  );
  const [keyMode, setKeyMode] = useState<KeyMode>(() => initialKeyMode(editing, editing?.provider ?? 'openai-compatible'));
  const [envName, setEnvName] = useState(editing?.keyRef?.kind === 'env' ? editing.keyRef.name : '');
  // Write-only: never leaves this component except in the one save or test call, and is cleared after a save.
  const [key, setKey] = useState('');
  const [hasStoredKey, setHasStoredKey] = useState(editing?.keyRef?.kind === 'stored' && editing.hasKey);
  const [storedHint, setStoredHint] = useState(editing?.keyHint ?? null);
  const [errors, setErrors] = useState<Partial<Record<ProfileField, string>>>({});
  const [formError, setFormError] = useState<HostError | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [test, setTest] = useState<TestOutcome | null>(null);
  const [models, setModels] = useState<string[] | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => void (mounted.current = false);
  }, []);

  const fid = (field: string) => `${id}-${field}`;

  // A test result and a model list describe the input they were asked with: a change to what they asked clears them.
  useEffect(() => {
    setTest(null);
    setModels(null);
  }, [baseUrl, provider, key, keyMode, envName, headers]);

  const changeProvider = (next: LlmProvider) => {
    // Follow the provider's default URL unless the user typed their own.
    const untouched = baseUrl.trim() === '' || PROVIDERS.some((p) => defaultBaseUrl(p.id) === baseUrl.trim());
    setProvider(next);
    if (untouched) setBaseUrl(defaultBaseUrl(next));
    if (!editing && key === '' && envName === '') setKeyMode(providerInfo(next).needsKey ? 'stored' : 'none');
    setModels(null);
    setTest(null);
  };

  const validate = (forSave: boolean): Partial<Record<ProfileField, string>> => {
    const found: Partial<Record<ProfileField, string>> = {};
    if (!name.trim()) found.name = 'Give the connection a name.';
    const url = checkBaseUrl(baseUrl);
    if (url) found.baseUrl = url;
    const names = new Set<string>();
    for (const row of headers) {
      const n = row.key.trim();
      if (!n && !row.value.trim()) continue;
      if (!n) found.headers = 'Every header needs a name.';
      else if (names.has(n.toLowerCase())) found.headers = `The header ${n} is listed twice.`;
      names.add(n.toLowerCase());
    }
    if (keyMode === 'env' && !ENV_NAME_PATTERN.test(envName.trim())) {
      found.keyEnv = 'Use an upper-case variable name that ends in API_KEY, e.g. OPENAI_API_KEY.';
    }
    if (forSave && keyMode === 'stored' && key.trim() === '' && !hasStoredKey) found.key = 'Paste the API key, or choose another key source.';
    return found;
  };

  const buildProfile = (): ProfileInput => {
    const headerRecord: Record<string, string> = {};
    for (const row of headers) if (row.key.trim()) headerRecord[row.key.trim()] = row.value;
    return {
      ...(editing ? { id: editing.id } : {}),
      name: name.trim(),
      provider,
      baseUrl: baseUrl.trim(),
      defaultModel: defaultModel.trim(),
      headers: headerRecord,
      ...(keyMode === 'env' ? { keyRef: { kind: 'env' as const, name: envName.trim() } } : keyMode === 'stored' ? { keyRef: { kind: 'stored' as const } } : {}),
    };
  };

  const typedKey = (): string | undefined => (keyMode === 'stored' && key.trim() !== '' ? key : undefined);

  const showHostError = (error: HostError) => {
    const field = fieldOf(error);
    if (field) {
      setErrors({ [field]: error.hint ? `${error.message} ${error.hint}` : error.message });
      setFormError(null);
      document.getElementById(fid(field === 'headers' ? 'header-name-0' : field))?.focus();
    } else {
      setFormError(error);
    }
  };

  const focusFirst = (found: Partial<Record<ProfileField, string>>) => {
    const order: ProfileField[] = ['name', 'baseUrl', 'headers', 'keyEnv', 'key'];
    const first = order.find((f) => found[f]);
    if (first) document.getElementById(fid(first === 'headers' ? 'header-name-0' : first))?.focus();
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const found = validate(true);
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length) {
      // The last test was of other input: "Connected" must not sit beside "not a URL".
      setTest(null);
      return focusFirst(found);
    }
    setBusy('save');
    const result = await saveConnection(store, host, buildProfile(), typedKey());
    if (!mounted.current) return;
    setBusy(null);
    if (!result.ok) return showHostError(result.error);
    setKey('');
    props.onDone(result.value.profile, result.value.warnings);
  };

  const runTest = async (purpose: 'test' | 'models') => {
    if (busy) return;
    const found = validate(false);
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length) {
      setTest(null);
      return focusFirst(found);
    }
    setBusy(purpose);
    if (purpose === 'test') setTest(null);
    const k = typedKey();
    const outcome = await testConnection(store, host, k === undefined ? { profile: buildProfile() } : { profile: buildProfile(), key: k });
    if (!mounted.current) return;
    setBusy(null);
    if (purpose === 'test') setTest(outcome);
    if (outcome.ok && outcome.value.ok) setModels(outcome.value.models);
    else if (purpose === 'models') setTest(outcome);
  };

  const forgetKey = async () => {
    if (!editing || busy) return;
    setBusy('clear-key');
    const result = await clearConnectionKey(store, host, editing.id);
    if (!mounted.current) return;
    setBusy(null);
    if (!result.ok) return setFormError(result.error);
    setHasStoredKey(false);
    setStoredHint(null);
    setKeyMode('none');
  };

  const errorFor = (field: ProfileField) =>
    errors[field] ? (
      <p className="field__error" id={fid(`${field}-error`)}>
        <Icon name="error" />
        {errors[field]}
      </p>
    ) : null;
  const invalid = (field: ProfileField) => ({
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? fid(`${field}-error`) : undefined,
  });

  const title = editing ? `Edit ${editing.name}` : 'Add a connection';
  const storedStatus = editing ? keyStatus({ keyRef: hasStoredKey ? { kind: 'stored' } : undefined, hasKey: hasStoredKey, keyHint: storedHint }) : null;
  return (
    <section className="card profile-form" aria-labelledby={fid('title')} data-testid="profile-form">
      <h2 id={fid('title')} className="card__title">
        {title}
      </h2>
      <form onSubmit={(e) => void submit(e)} noValidate aria-busy={busy !== null || undefined}>
        <div className="profile-form__grid">
          <div className="field">
            <label className="field__label" htmlFor={fid('name')}>
              Name
            </label>
            <input id={fid('name')} className="input" value={name} maxLength={100} autoComplete="off" placeholder="Local LM Studio" onChange={(e) => setName(e.target.value)} {...invalid('name')} />
            {errorFor('name')}
          </div>
          <div className="field">
            <label className="field__label" htmlFor={fid('provider')}>
              Provider
            </label>
            <select id={fid('provider')} className="input" value={provider} onChange={(e) => changeProvider(e.target.value as LlmProvider)} {...invalid('provider')}>
              {PROVIDERS.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.label}
                </option>
              ))}
            </select>
            {errorFor('provider')}
          </div>
        </div>

        <div className="field">
          <label className="field__label" htmlFor={fid('baseUrl')}>
            Base URL
          </label>
          <input
            id={fid('baseUrl')}
            className="input input--mono"
            value={baseUrl}
            autoComplete="off"
            spellCheck={false}
            placeholder={defaultBaseUrl(provider)}
            onChange={(e) => setBaseUrl(e.target.value)}
            onBlur={() => {
              const problem = baseUrl.trim() ? checkBaseUrl(baseUrl) : null;
              setErrors((found) => ({ ...found, baseUrl: problem ?? undefined }));
            }}
            {...invalid('baseUrl')}
          />
          {errorFor('baseUrl')}
          <p className="field__hint">
            The API root, e.g. <code>{defaultBaseUrl(provider)}</code>. Requests go from the host, not from this window.
          </p>
        </div>

        <div className="field">
          <label className="field__label" htmlFor={fid('defaultModel')}>
            Default model
          </label>
          <div className="input-row">
            <input
              id={fid('defaultModel')}
              className="input input--mono"
              value={defaultModel}
              maxLength={200}
              autoComplete="off"
              spellCheck={false}
              list={models?.length ? fid('models') : undefined}
              placeholder="Type a model id, or list the server’s models"
              onChange={(e) => setDefaultModel(e.target.value)}
              {...invalid('defaultModel')}
            />
            <button type="button" className="btn" aria-disabled={busy !== null || undefined} onClick={() => void runTest('models')}>
              <Icon name="refresh" />
              {busy === 'models' ? 'Listing…' : 'List models'}
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
                <select className="input input--select input--mono" aria-label="Pick the default model" value={models.includes(defaultModel) ? defaultModel : ''} onChange={(e) => setDefaultModel(e.target.value)}>
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
          {errorFor('defaultModel')}
        </div>

        <fieldset className="field-group">
          <legend className="field-group__legend">Extra headers</legend>
          <p className="field__hint">Sent with every request (e.g. OpenRouter’s HTTP-Referer and X-Title). Keys never go here: use the key below.</p>
          <KeyValueRows
            rows={headers}
            what="Header"
            keyPlaceholder="HTTP-Referer"
            valuePlaceholder="https://example.org"
            idFor={(part, i) => fid(`header-${part === 'key' ? 'name' : 'value'}-${i}`)}
            invalid={Boolean(errors.headers)}
            describedBy={errors.headers ? fid('headers-error') : undefined}
            onChange={setHeaders}
          />
          {errorFor('headers')}
          <button type="button" className="btn btn--small" onClick={() => setHeaders((rows) => [...rows, { rowId: ++headerSeq, key: '', value: '' }])}>
            <Icon name="plus" /> Add header
          </button>
        </fieldset>

        <fieldset className="field-group">
          <legend className="field-group__legend">API key</legend>
          <div className="radio-row" role="radiogroup" aria-label="Where the key comes from">
            {(
              [
                ['none', 'No key'],
                ['env', 'Environment variable'],
                ['stored', 'Stored key'],
              ] as const
            ).map(([mode, label]) => (
              <label key={mode} className="radio">
                <input type="radio" name={fid('keyMode')} value={mode} checked={keyMode === mode} onChange={() => setKeyMode(mode)} />
                <span>{label}</span>
              </label>
            ))}
          </div>
          {keyMode === 'none' && <p className="field__hint">Local servers (Ollama, LM Studio, llama.cpp…) usually need none.</p>}
          {keyMode === 'env' && (
            <div className="field">
              <label className="field__label" htmlFor={fid('keyEnv')}>
                Variable name
              </label>
              <input
                id={fid('keyEnv')}
                className="input input--mono"
                value={envName}
                autoComplete="off"
                spellCheck={false}
                placeholder="OPENAI_API_KEY"
                onChange={(e) => setEnvName(e.target.value)}
                {...invalid('keyEnv')}
              />
              {errorFor('keyEnv')}
              <p className="field__hint">Read from the host’s environment at call time and never written to disk. The name must end in API_KEY.</p>
            </div>
          )}
          {keyMode === 'stored' && (
            <div className="field">
              <label className="field__label" htmlFor={fid('key')}>
                {hasStoredKey ? 'Replace the key' : 'Key'}
              </label>
              {storedStatus && hasStoredKey && (
                <p className="key-current" data-testid="key-current">
                  <span className="badge badge--ok">{storedStatus.text}</span>
                  <button type="button" className="link-button" aria-disabled={busy !== null || undefined} onClick={() => void forgetKey()}>
                    {busy === 'clear-key' ? 'Forgetting…' : 'Forget the stored key'}
                  </button>
                </p>
              )}
              <input
                id={fid('key')}
                className="input input--mono"
                type="password"
                value={key}
                autoComplete="off"
                spellCheck={false}
                placeholder={hasStoredKey ? 'Leave empty to keep the stored key' : 'sk-…'}
                onChange={(e) => setKey(e.target.value)}
                {...invalid('key')}
              />
              {errorFor('key')}
              <p className="field__hint">
                Sent once to the host and kept there{secrets ? ` (${secrets.backend})` : ''}; this window only ever sees its last 4 characters.
              </p>
              {secrets?.warning && (
                <p className="key-warning" role="note" data-testid="secrets-warning">
                  <Icon name="warning" />
                  <span>{secrets.warning}</span>
                </p>
              )}
              {secrets?.consent === 'needed' && (
                <p className="field__hint">
                  No key is saved here until you choose it.{' '}
                  <button type="button" className="btn btn--small" onClick={() => void allowObfuscatedKeys(store, host)}>
                    Store keys obfuscated
                  </button>
                </p>
              )}
            </div>
          )}
        </fieldset>

        {formError && <InlineError error={formError} title={editing ? 'Could not save' : 'Could not add the connection'} />}
        {test && <TestResult outcome={test} />}

        <div className="form-actions">
          <button type="submit" className="btn btn--primary" aria-disabled={busy !== null || undefined}>
            <Icon name="check" />
            {busy === 'save' ? 'Saving…' : editing ? 'Save changes' : 'Save connection'}
          </button>
          <button type="button" className="btn" aria-disabled={busy !== null || undefined} onClick={() => void runTest('test')}>
            <Icon name="play" />
            {busy === 'test' ? 'Testing…' : 'Test connection'}
          </button>
          <button type="button" className="btn btn--ghost" onClick={props.onCancel}>
            Cancel
          </button>
          <span className="form-actions__status" role="status">
            {busy === 'test' || busy === 'models' ? (
              <>
                <span className="spinner" aria-hidden="true" /> Asking the server for its models…
              </>
            ) : null}
          </span>
        </div>
      </form>
    </section>
  );
}
