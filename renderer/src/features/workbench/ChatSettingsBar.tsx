// The open session's connection and model: which profile answers in this session, and an optional model override.
// A choice is the session's own (another session keeps its own) and becomes the default for new sessions.
import { memo, useEffect, useId, useState } from 'react';
import type { HostError } from '../../../../shared/errors';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import type { ChatSession, ChatSettings } from '../../../../shared/types/chat';
import { updateChatSettings, updateSession } from '../../stores/chat/chat-commands';
import { listModels } from '../../stores/connections/connections-commands';
import { PresetPicker } from './PresetPicker';

const NO_MODELS: readonly string[] = [];

/** One of the chat's switches, saved as the person turns it (the box follows the saved setting). */
function ChatOption(props: { checked: boolean; disabled: boolean; onChange(on: boolean): void; label: string }) {
  return (
    <label className="chat-settings__option">
      <input type="checkbox" checked={props.checked} disabled={props.disabled} onChange={(e) => props.onChange(e.target.checked)} />
      {props.label}
    </label>
  );
}

export const ChatSettingsBar = memo(function ChatSettingsBar(props: { session: ChatSession }) {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const profiles = useAppStore((s) => s.connections.items);
  const defaultConnection = useAppStore((s) => s.settings?.chat?.mainConnectionId ?? '');
  const defaultModel = useAppStore((s) => s.settings?.chat?.model ?? '');
  const showUnoffered = useAppStore((s) => s.settings?.chat?.showUnofferedToolCalls === true);
  const htmlAsText = useAppStore((s) => s.settings?.chat?.htmlAsText === true);
  const own = props.session.connectionId ? props.session : null;
  const connectionId = own?.connectionId ?? defaultConnection;
  const savedModel = own ? (own.model ?? '') : defaultModel;
  const loaded = useAppStore((s) => s.settings !== null);
  const models = useAppStore((s) => (connectionId && Object.prototype.hasOwnProperty.call(s.connections.models, connectionId) ? s.connections.models[connectionId]! : NO_MODELS));
  const [model, setModel] = useState(savedModel);
  const [error, setError] = useState<HostError | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setModel(savedModel), [savedModel]);

  const profile = profiles.find((p) => p.id === connectionId);
  const save = async (patch: { connectionId?: string; model?: string }) => {
    setError(null);
    const next = { connectionId: patch.connectionId ?? connectionId, model: patch.model ?? savedModel };
    const result = await updateSession(store, host, props.session.id, next);
    if (!result.ok) return setError(result.error);
    const defaults = await updateChatSettings(store, host, { mainConnectionId: next.connectionId, model: next.model });
    if (!defaults.ok) setError(defaults.error);
  };
  const changeOption = (patch: Partial<ChatSettings>) => void updateChatSettings(store, host, patch).then((r) => !r.ok && setError(r.error));
  const fetchModels = async () => {
    if (busy || !connectionId) return;
    setBusy(true);
    const result = await listModels(store, host, connectionId);
    setBusy(false);
    if (!result.ok) setError(result.error);
  };

  return (
    <div className="chat-settings" data-testid="chat-settings">
      <div className="chat-settings__row">
        <div className="chat-settings__field">
          <label className="chat-settings__label" htmlFor={`${id}-connection`}>
            Main connection
          </label>
          <select
            id={`${id}-connection`}
            className="input input--select"
            value={connectionId}
            disabled={!loaded}
            aria-invalid={!connectionId || (connectionId !== '' && !profile) || undefined}
            onChange={(e) => void save({ connectionId: e.target.value, model: '' })}
          >
            <option value="">— Choose —</option>
            {connectionId && !profile && <option value={connectionId}>{connectionId} (missing)</option>}
            {profiles.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <div className="chat-settings__field chat-settings__field--grow">
          <label className="chat-settings__label" htmlFor={`${id}-model`}>
            Model
          </label>
          <input
            id={`${id}-model`}
            className="input input--mono"
            value={model}
            maxLength={200}
            disabled={!loaded}
            list={models.length ? `${id}-models` : undefined}
            placeholder={profile?.defaultModel ? `Default: ${profile.defaultModel}` : 'The connection’s default model'}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setModel(e.target.value)}
            onBlur={() => model.trim() !== savedModel && void save({ model: model.trim() })}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                if (model.trim() !== savedModel) void save({ model: model.trim() });
              }
            }}
          />
          {models.length > 0 && (
            <datalist id={`${id}-models`}>
              {models.map((m) => (
                <option key={m} value={m} />
              ))}
            </datalist>
          )}
        </div>
        <button type="button" className="btn btn--small" aria-disabled={busy || !connectionId || undefined} onClick={() => void fetchModels()} title="Ask the connection for its models (fills the model suggestions)">
          <Icon name="refresh" />
          {busy ? 'Listing…' : 'Models'}
        </button>
      </div>
      {loaded && !connectionId && (
        <p className="chat-settings__hint" role="note">
          <Icon name="warning" />
          {profiles.length === 0 ? (
            <span>
              Add a connection first
              <button type="button" className="link-button" onClick={() => store.getState().sectionSelected('connections')}>
                Go to Connections
              </button>
            </span>
          ) : (
            <span>Choose the connection that writes the replies.</span>
          )}
        </p>
      )}
      <PresetPicker />
      <div className="chat-settings__options">
        <ChatOption checked={showUnoffered} disabled={!loaded} onChange={(on) => changeOption({ showUnofferedToolCalls: on })} label="Show in full the calls to tools nobody offered" />
        <ChatOption checked={htmlAsText} disabled={!loaded} onChange={(on) => changeOption({ htmlAsText: on })} label="Show HTML as its markup, not drawn" />
      </div>
      {error && <InlineError error={error} title="Could not change the chat settings" />}
    </div>
  );
});
