// A connection's name, provider and base URL (the URL checked when the field is left).
import type { LlmProvider } from '../../../../shared/types/llm';
import type { FieldKit } from '../../components/FieldError';
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
        <div className="field">
          <label className="field__label" htmlFor={fid('name')}>
            Name
          </label>
          <input
            id={fid('name')}
            className="input"
            value={props.name}
            maxLength={100}
            autoComplete="off"
            placeholder="Local LM Studio"
            onChange={(e) => props.setName(e.target.value)}
            {...kit.invalid('name')}
          />
          {kit.errorFor('name')}
        </div>
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

      <div className="field">
        <label className="field__label" htmlFor={fid('baseUrl')}>
          Base URL
        </label>
        <input
          id={fid('baseUrl')}
          className="input input--mono"
          value={props.baseUrl}
          autoComplete="off"
          spellCheck={false}
          placeholder={defaultBaseUrl(provider)}
          onChange={(e) => props.setBaseUrl(e.target.value)}
          onBlur={props.onBaseUrlLeft}
          {...kit.invalid('baseUrl')}
        />
        {kit.errorFor('baseUrl')}
        <p className="field__hint">
          The API root, e.g. <code>{defaultBaseUrl(provider)}</code>. Requests go from the host, not from this window.
        </p>
      </div>
    </>
  );
}
