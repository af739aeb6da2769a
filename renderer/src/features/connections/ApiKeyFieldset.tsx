// Where a connection's key comes from: none, an environment variable (by name), or a stored key typed here once.
// The stored key is write-only: this window sees only its last 4 characters, and can forget it.
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import type { FieldKit } from '../../components/FieldError';
import { Icon } from '../../components/Icon';
import { TextField } from '../../components/TextField';
import { allowObfuscatedKeys } from '../../stores/connections/connections-commands';

export type KeyMode = 'none' | 'env' | 'stored';

const KEY_MODES = [
  ['none', 'No key'],
  ['env', 'Environment variable'],
  ['stored', 'Stored key'],
] as const;

export function ApiKeyFieldset(props: {
  mode: KeyMode;
  envName: string;
  typedKey: string;
  hasStoredKey: boolean;
  /** The stored key's badge text while editing a profile that has one. */
  storedStatus: string | null;
  busy: boolean;
  forgetting: boolean;
  kit: FieldKit;
  setMode(mode: KeyMode): void;
  setEnvName(name: string): void;
  setTypedKey(key: string): void;
  onForget(): void;
}) {
  const store = useAppStoreApi();
  const host = useHost();
  const secrets = useAppStore((s) => s.connections.secrets);
  const { kit, hasStoredKey } = props;
  const { fid } = kit;
  return (
    <fieldset className="field-group">
      <legend className="field-group__legend">API key</legend>
      <div className="radio-row" role="radiogroup" aria-label="Where the key comes from">
        {KEY_MODES.map(([mode, label]) => (
          <label key={mode} className="radio">
            <input type="radio" name={fid('keyMode')} value={mode} checked={props.mode === mode} onChange={() => props.setMode(mode)} />
            <span>{label}</span>
          </label>
        ))}
      </div>
      {props.mode === 'none' && <p className="field__hint">Local servers (Ollama, LM Studio, llama.cpp…) usually need none.</p>}
      {props.mode === 'env' && (
        <TextField
          kit={kit}
          field="keyEnv"
          label="Variable name"
          mono
          value={props.envName}
          placeholder="OPENAI_API_KEY"
          onChange={props.setEnvName}
          hint="Read from the host’s environment at call time and never written to disk. The name must end in API_KEY."
        />
      )}
      {props.mode === 'stored' && (
        <TextField
          kit={kit}
          field="key"
          label={hasStoredKey ? 'Replace the key' : 'Key'}
          mono
          type="password"
          value={props.typedKey}
          placeholder={hasStoredKey ? 'Leave empty to keep the stored key' : 'sk-…'}
          onChange={props.setTypedKey}
          before={
            props.storedStatus !== null &&
            hasStoredKey && (
              <p className="key-current" data-testid="key-current">
                <span className="badge badge--ok">{props.storedStatus}</span>
                <button type="button" className="link-button" aria-disabled={props.busy || undefined} onClick={props.onForget}>
                  {props.forgetting ? 'Forgetting…' : 'Forget the stored key'}
                </button>
              </p>
            )
          }
          hint={<>Sent once to the host and kept there{secrets ? ` (${secrets.backend})` : ''}; this window only ever sees its last 4 characters.</>}
          after={
            <>
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
            </>
          }
        />
      )}
    </fieldset>
  );
}
