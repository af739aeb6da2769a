// The add/edit form for one connection profile: provider, base URL, default model (with a picker from the server's list),
// extra headers, and the key by environment variable or stored key. The key is write-only: typed here, sent once, then cleared.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { HostError } from '../../../../shared/errors';
import { IMAGE_PROVIDERS, type ConnectionProfileView, type LlmProvider } from '../../../../shared/types/llm';
import { useAppStoreApi, useHost } from '../../app/context';
import { fieldKit } from '../../components/FieldError';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { clearConnectionKey, saveConnection, testConnection, type TestOutcome } from '../../stores/connections/connections-commands';
import { checkProfile, keyToSend, profileInput, type ProfileDraft, type ProfileErrors } from './profile-draft';
import { checkBaseUrl, defaultBaseUrl, fieldOf, keyStatus, PROVIDERS, providerInfo, type ProfileField } from './providers';
import { TestResult } from './TestResult';
import { KeyValueFieldset } from '../../components/KeyValueFieldset';
import type { KeyValueRow } from '../../components/KeyValueRows';
import { ApiKeyFieldset, type KeyMode } from './ApiKeyFieldset';
import { ConnectionBasicsFields } from './ConnectionBasicsFields';
import { ModelField } from './ModelField';
import { FormStatus } from '../../components/FormStatus';

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
  const id = useId();
  const editing = props.profile;
  const [name, setName] = useState(editing?.name ?? '');
  const [provider, setProvider] = useState<LlmProvider>(editing?.provider ?? 'openai-compatible');
  const [baseUrl, setBaseUrl] = useState(editing?.baseUrl ?? defaultBaseUrl('openai-compatible'));
  const [defaultModel, setDefaultModel] = useState(editing?.defaultModel ?? '');
  const [imageModel, setImageModel] = useState(editing?.imageModel ?? '');
  const [headers, setHeaders] = useState<KeyValueRow[]>(() =>
    Object.entries(editing?.headers ?? {}).map(([n, v]) => ({ rowId: ++headerSeq, key: n, value: v })),
  );
  const [keyMode, setKeyMode] = useState<KeyMode>(() => initialKeyMode(editing, editing?.provider ?? 'openai-compatible'));
  const [envName, setEnvName] = useState(editing?.keyRef?.kind === 'env' ? editing.keyRef.name : '');
  // Write-only: never leaves this component except in the one save or test call, and is cleared after a save.
  const [key, setKey] = useState('');
  const [hasStoredKey, setHasStoredKey] = useState(editing?.keyRef?.kind === 'stored' && editing.hasKey);
  const [storedHint, setStoredHint] = useState(editing?.keyHint ?? null);
  const [errors, setErrors] = useState<ProfileErrors>({});
  const [formError, setFormError] = useState<HostError | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [test, setTest] = useState<TestOutcome | null>(null);
  const [models, setModels] = useState<string[] | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => void (mounted.current = false);
  }, []);

  const kit = fieldKit(id, errors);
  const { fid } = kit;

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

  const draft: ProfileDraft = { name, provider, baseUrl, defaultModel, imageModel, headers, keyMode, envName, key, hasStoredKey };
  const validate = (forSave: boolean) => checkProfile(draft, forSave);
  const buildProfile = () => profileInput(draft, editing?.id);
  const typedKey = () => keyToSend(draft);

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

  const focusFirst = (found: ProfileErrors) => {
    const order: ProfileField[] = ['name', 'baseUrl', 'defaultModel', 'imageModel', 'headers', 'keyEnv', 'key'];
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

  const title = editing ? `Edit ${editing.name}` : 'Add a connection';
  const storedStatus = editing ? keyStatus({ keyRef: hasStoredKey ? { kind: 'stored' } : undefined, hasKey: hasStoredKey, keyHint: storedHint }) : null;
  return (
    <section className="card profile-form" aria-labelledby={fid('title')} data-testid="profile-form">
      <h2 id={fid('title')} className="card__title">
        {title}
      </h2>
      <form onSubmit={(e) => void submit(e)} noValidate aria-busy={busy !== null || undefined}>
        <ConnectionBasicsFields
          name={name}
          provider={provider}
          baseUrl={baseUrl}
          kit={kit}
          setName={setName}
          setProvider={changeProvider}
          setBaseUrl={setBaseUrl}
          onBaseUrlLeft={() => {
            const problem = baseUrl.trim() ? checkBaseUrl(baseUrl) : null;
            setErrors((found) => ({ ...found, baseUrl: problem ?? undefined }));
          }}
        />

        <ModelField
          value={defaultModel}
          models={models}
          listing={busy === 'models'}
          busy={busy !== null}
          kit={kit}
          onChange={setDefaultModel}
          onList={() => void runTest('models')}
        />

        {IMAGE_PROVIDERS.includes(provider) && (
          <div className="field">
            <label className="field__label" htmlFor={fid('imageModel')}>
              Image model (optional)
            </label>
            <input
              id={fid('imageModel')}
              className="input input--mono"
              value={imageModel}
              maxLength={200}
              autoComplete="off"
              spellCheck={false}
              placeholder="gpt-image-1, dall-e-3…"
              onChange={(e) => setImageModel(e.target.value)}
              {...kit.invalid('imageModel')}
              aria-describedby={kit.invalid('imageModel')['aria-describedby'] ?? fid('imageModel-hint')}
            />
            <p className="field__hint" id={fid('imageModel-hint')}>
              Extensions granted Image generation make images with it, through this connection’s Images API (billed as
              the provider bills images). Empty: this connection makes none.
            </p>
            {kit.errorFor('imageModel')}
          </div>
        )}

        {provider !== 'local' && (
        <KeyValueFieldset
          legend="Extra headers"
          hint="Sent with every request (e.g. OpenRouter’s HTTP-Referer and X-Title). Keys never go here: use the key below."
          rows={headers}
          what="Header"
          keyPlaceholder="HTTP-Referer"
          valuePlaceholder="https://example.org"
          idFor={(part, i) => fid(`header-${part === 'key' ? 'name' : 'value'}-${i}`)}
          error={kit.errorFor('headers')}
          errorId={errors.headers ? fid('headers-error') : undefined}
          onChange={setHeaders}
          addLabel="Add header"
          onAdd={() => setHeaders((rows) => [...rows, { rowId: ++headerSeq, key: '', value: '' }])}
        />
        )}

        {provider !== 'local' && (
        <ApiKeyFieldset
          mode={keyMode}
          envName={envName}
          typedKey={key}
          hasStoredKey={hasStoredKey}
          storedStatus={storedStatus ? storedStatus.text : null}
          busy={busy !== null}
          forgetting={busy === 'clear-key'}
          kit={kit}
          setMode={setKeyMode}
          setEnvName={setEnvName}
          setTypedKey={setKey}
          onForget={() => void forgetKey()}
        />
        )}

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
          <FormStatus busy={(busy === 'test' || busy === 'models') && 'Asking the server for its models…'} />
        </div>
      </form>
    </section>
  );
}
