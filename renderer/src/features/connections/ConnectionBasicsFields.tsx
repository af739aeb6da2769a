// A connection's name, provider and base URL (the URL checked when the field is left).
import type { LlmProvider } from '../../../../shared/types/llm';
import type { FieldKit } from '../../components/FieldError';
import { TextField } from '../../components/TextField';
import { defaultBaseUrl, PROVIDERS } from './providers';

export function ConnectionBasicsFields(props: {
  name: string;
  provider: LlmProvider;
  baseUrl: string;
  kit: FieldKit;
  setName(name: string): void;
  setProvider(provider: LlmProvider): void;
  setBaseUrl(url: string): void;
  onBaseUrlLeft(): void;
}) {
  const { kit, provider } = props;
  const { fid } = kit;
  return (
    <>
      <div className="profile-form__grid">
        <TextField kit={kit} field="name" label="Name" value={props.name} maxLength={100} placeholder="Local LM Studio" onChange={props.setName} />
        <div className="field">
          <label className="field__label" htmlFor={fid('provider')}>
            Provider
          </label>
          <select id={fid('provider')} className="input" value={provider} onChange={(e) => props.setProvider(e.target.value as LlmProvider)} {...kit.invalid('provider')}>
            {PROVIDERS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
          {kit.errorFor('provider')}
        </div>
      </div>

      {provider !== 'local' && (
      <TextField
        kit={kit}
        field="baseUrl"
        label="Base URL"
        mono
        value={props.baseUrl}
        placeholder={defaultBaseUrl(provider)}
        onChange={props.setBaseUrl}
        onBlur={props.onBaseUrlLeft}
        hint={
          <>
            The API root, e.g. <code>{defaultBaseUrl(provider)}</code>. Requests go from the host, not from this window.
          </>
        }
      />
      )}
    </>
  );
}
