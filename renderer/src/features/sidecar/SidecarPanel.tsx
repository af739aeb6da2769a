// Sidecar section (seed 000 SidecarConfig): which connection and model the council's tools think with, and its sampling settings.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ToolCallingCard } from '../connections/ToolCallingCard';
import type { HostError } from '../../../../shared/errors';
import type { ConnectionProfileView, SidecarConfig } from '../../../../shared/types/llm';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { sectionById } from '../../app/sections';
import { EmptyState } from '../../components/EmptyState';
import { Icon } from '../../components/Icon';
import { FieldError } from '../../components/FieldError';
import { InlineError } from '../../components/InlineError';
import { listModels, updateSidecar } from '../../stores/connections/connections-commands';
import type { SidecarState } from '../../stores/connections/sidecar-slice';
import { checkDraft, configOf, DEFAULT_NUMBERS, draftOf, sidecarFieldOf, type SidecarDraft, type SidecarField } from './sidecar-form';
import '../connections/connections.css';
import { AskingHost } from '../../components/AskingHost';
import { SamplingField, type SamplingKey } from './SamplingField';
import { SidecarExplainer } from './SidecarExplainer';
import { DiscardChanges } from '../../components/DiscardChanges';
import { FormStatus } from '../../components/FormStatus';

const SPEC = sectionById('sidecar');
const NO_MODELS: readonly string[] = [];

type Endpoint = NonNullable<SidecarState['endpoints']>[number];
const NO_ENDPOINTS: readonly Endpoint[] = [];

function readyText(config: SidecarConfig, profiles: readonly ConnectionProfileView[], endpoints: readonly Endpoint[]): string {
  const endpoint = endpoints.find((e) => e.id === config.connectionProfileId);
  if (endpoint) return `Ready: council tools use ${endpoint.name}, the sidecar endpoint of ${endpoint.extensionName}.`;
  const used = profiles.find((p) => p.id === config.connectionProfileId);
  const model = config.model || (used?.defaultModel ? `its default model, ${used.defaultModel}` : 'its default model');
  return `Ready: council tools use ${used?.name ?? config.connectionProfileId} with ${model}.`;
}

export function SidecarPanel() {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const profiles = useAppStore((s) => s.connections.items);
  const state = useAppStore((s) => s.sidecar.state);
  const endpoints = state?.endpoints ?? NO_ENDPOINTS;
  const loadError = useAppStore((s) => s.sidecar.loadError);
  const [draft, setDraft] = useState<SidecarDraft | null>(state ? draftOf(state.config) : null);
  const [dirty, setDirty] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<SidecarField, string>>>({});
  const [formError, setFormError] = useState<HostError | null>(null);
  const [busy, setBusy] = useState<null | 'save' | 'models'>(null);
  const [saved, setSaved] = useState(false);
  const [modelsError, setModelsError] = useState<HostError | null>(null);
  const connectionId = draft?.connectionProfileId ?? '';
  const models = useAppStore((s) => (connectionId && Object.prototype.hasOwnProperty.call(s.connections.models, connectionId) ? s.connections.models[connectionId]! : NO_MODELS));
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => void (mounted.current = false);
  }, []);

  // Follow the host's settings until the user starts editing.
  useEffect(() => {
    if (state && !dirty) setDraft(draftOf(state.config));
  }, [state, dirty]);

  if (profiles.length === 0 && endpoints.length === 0 && (!state || !state.config.connectionProfileId)) {
    return (
      <div className="panel-stack">
        <EmptyState icon="sidecar" {...SPEC.empty}>
          <div className="empty-state__actions">
            <button type="button" className="btn btn--primary" onClick={() => store.getState().sectionSelected('connections')}>
              <Icon name="connections" /> Go to Connections
            </button>
          </div>
        </EmptyState>
        {loadError && <InlineError error={loadError} title="Could not read the sidecar settings" />}
        <SidecarExplainer />
      </div>
    );
  }

  if (!draft || !state) {
    return (
      <div className="panel-stack">
        {loadError ? <InlineError error={loadError} title="Could not read the sidecar settings" /> : <AskingHost>for the sidecar settings</AskingHost>}
      </div>
    );
  }

  const profile = profiles.find((p) => p.id === draft.connectionProfileId);
  const endpoint = endpoints.find((e) => e.id === draft.connectionProfileId);
  const choosable = [...profiles.map((p) => p.id), ...endpoints.map((e) => e.id)];
  const change = (patch: Partial<SidecarDraft>) => {
    setDraft({ ...draft, ...patch });
    setDirty(true);
    setSaved(false);
    // Re-check only the fields that already show a problem, so errors clear as they are fixed.
    setErrors((before) => {
      const next = checkDraft({ ...draft, ...patch }, choosable);
      const kept: Partial<Record<SidecarField, string>> = {};
      for (const key of Object.keys(before) as SidecarField[]) if (next[key]) kept[key] = next[key];
      for (const key of Object.keys(patch) as SidecarField[]) if (next[key]) kept[key] = next[key];
      return kept;
    });
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const found = checkDraft(draft, choosable);
    setErrors(found);
    setFormError(null);
    const first = (['connectionProfileId', 'model', 'temperature', 'topP', 'maxTokens'] as const).find((f) => found[f]);
    if (first) {
      document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    setBusy('save');
    const result = await updateSidecar(store, host, configOf(draft));
    if (!mounted.current) return;
    setBusy(null);
    if (!result.ok) {
      const field = sidecarFieldOf(result.error);
      if (field) setErrors({ [field]: result.error.message });
      else setFormError(result.error);
      return;
    }
    setDirty(false);
    setSaved(true);
    setDraft(draftOf(result.value.config));
  };

  const fetchModels = async () => {
    if (busy || !draft.connectionProfileId || endpoint) return;
    setBusy('models');
    setModelsError(null);
    const result = await listModels(store, host, draft.connectionProfileId);
    if (!mounted.current) return;
    setBusy(null);
    if (!result.ok) setModelsError(result.error);
  };

  const errorFor = (field: SidecarField) => (errors[field] ? <FieldError id={`${id}-${field}-error`}>{errors[field]}</FieldError> : null);
  const aria = (field: SidecarField) => ({
    id: `${id}-${field}`,
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${id}-${field}-error` : `${id}-${field}-hint`,
  });

  const numberField = (field: SamplingKey, label: string, step: number, hint: string) => (
    <SamplingField field={field} label={label} step={step} hint={hint} value={draft[field]} aria={aria(field)} error={errorFor(field)} onChange={(value) => change({ [field]: value })} />
  );

  return (
    <div className="panel-stack">
      <div className={`sidecar-status sidecar-status--${state.configured ? 'ok' : 'warn'}`} role="status" data-testid="sidecar-status" data-configured={state.configured}>
        <Icon name={state.configured ? 'check' : 'warning'} />
        <span>{state.configured ? readyText(state.config, profiles, endpoints) : (state.problem ?? 'Not configured.')}</span>
      </div>
      <section className="card" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} className="card__title">
          Sidecar LLM
        </h2>
        <form className="sidecar-form" onSubmit={(e) => void submit(e)} noValidate aria-busy={busy !== null || undefined}>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-connectionProfileId`}>
              Connection
            </label>
            <select
              {...aria('connectionProfileId')}
              className="input"
              value={draft.connectionProfileId}
              onChange={(e) => change({ connectionProfileId: e.target.value })}
            >
              <option value="">— Choose a connection —</option>
              {draft.connectionProfileId && !profile && !endpoint && <option value={draft.connectionProfileId}>{draft.connectionProfileId} (missing)</option>}
              {profiles.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
              {endpoints.length > 0 && (
                <optgroup label="Extensions’ sidecar endpoints">
                  {endpoints.map((e) => (
                    <option key={e.id} value={e.id}>
                      {e.name} — {e.extensionName}
                    </option>
                  ))}
                </optgroup>
              )}
            </select>
            {errorFor('connectionProfileId')}
            <p className="field__hint" id={`${id}-connectionProfileId-hint`}>
              Any connection from the Connections section; it may differ from the chat’s. A running extension’s sidecar endpoint is offered too once it is granted chats (it reads what the council asks).
            </p>
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-model`}>
              Model
            </label>
            <div className="input-row">
              <input
                {...aria('model')}
                className="input input--mono"
                value={draft.model}
                maxLength={200}
                autoComplete="off"
                spellCheck={false}
                list={models.length ? `${id}-models` : undefined}
                placeholder={profile?.defaultModel ? `Default: ${profile.defaultModel}` : 'Type a model id'}
                onChange={(e) => change({ model: e.target.value })}
              />
              <button type="button" className="btn" aria-disabled={busy !== null || !draft.connectionProfileId || endpoint !== undefined || undefined} onClick={() => void fetchModels()}>
                <Icon name="refresh" />
                {busy === 'models' ? 'Listing…' : 'List models'}
              </button>
            </div>
            {models.length > 0 && (
              <>
                <datalist id={`${id}-models`}>
                  {models.map((m) => (
                    <option key={m} value={m} />
                  ))}
                </datalist>
                <select className="input input--select input--mono model-pick" aria-label="Pick the sidecar model" value={models.includes(draft.model) ? draft.model : ''} onChange={(e) => change({ model: e.target.value })}>
                  <option value="">
                    {models.length} {models.length === 1 ? 'model' : 'models'} on the server — pick one…
                  </option>
                  {models.map((m) => (
                    <option key={m} value={m}>
                      {m}
                    </option>
                  ))}
                </select>
              </>
            )}
            {errorFor('model')}
            {modelsError && <InlineError error={modelsError} title="Could not list models" />}
            <p className="field__hint" id={`${id}-model-hint`}>
              Leave empty to use the connection’s default model.
            </p>
            {profile && (draft.model || profile.defaultModel) && <ToolCallingCard connectionId={profile.id} model={draft.model || profile.defaultModel} />}
          </div>
          <div className="sidecar-numbers">
            {numberField('temperature', 'Temperature', 0.05, 'Randomness')}
            {numberField('topP', 'Top P', 0.01, 'Nucleus sampling')}
            {numberField('maxTokens', 'Max tokens', 1, 'Longest answer per tool')}
          </div>
          {formError && <InlineError error={formError} title="Could not save" />}
          <div className="form-actions">
            <button type="submit" className="btn btn--primary" aria-disabled={busy !== null || undefined}>
              <Icon name="check" />
              {busy === 'save' ? 'Saving…' : 'Save'}
            </button>
            <button type="button" className="btn" onClick={() => change({ ...DEFAULT_NUMBERS })}>
              Reset sampling to defaults
            </button>
            <DiscardChanges
              dirty={dirty}
              onDiscard={() => {
                setDirty(false);
                setErrors({});
                setDraft(draftOf(state.config));
              }}
            />
            <FormStatus busy={null} idle={saved && !dirty ? 'Saved.' : dirty ? 'Unsaved changes.' : ''} />
          </div>
        </form>
      </section>
      <SidecarExplainer />
    </div>
  );
}
