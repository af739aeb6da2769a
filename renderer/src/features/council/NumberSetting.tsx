// One numeric council setting: typed, committed when valid, with its range as the error.
import { useId } from 'react';
import { Icon } from '../../components/Icon';
import { NUMBER_FIELDS, parseBounded } from './settings-fields';
import { useCommitDraft } from './use-commit-draft';

export function NumberSetting(props: { spec: (typeof NUMBER_FIELDS)[number]; value: number; busy: boolean; onCommit(value: number): void }) {
  const { spec } = props;
  const id = useId();
  const { draft, setDraft, commit, onKeyDown } = useCommitDraft((text) => parseBounded(text, spec.min, spec.max), props.value, props.onCommit);
  const parsed = draft === null ? props.value : parseBounded(draft, spec.min, spec.max);
  const invalid = parsed === null;
  return (
    <div className="field setting-number">
      <label className="field__label" htmlFor={id}>
        {spec.label} <span className="field__title">({spec.unit})</span>
      </label>
      <input
        id={id}
        className="input input--number"
        type="number"
        min={spec.min}
        max={spec.max}
        step={1}
        value={draft ?? String(props.value)}
        aria-invalid={invalid || undefined}
        aria-describedby={`${id}-help${invalid ? ` ${id}-error` : ''}`}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={onKeyDown}
        data-setting={spec.key}
      />
      <p className="field__hint" id={`${id}-help`}>
        {spec.help}
      </p>
      {invalid && (
        <p className="field__error" id={`${id}-error`} role="alert">
          <Icon name="error" /> A whole number from {spec.min.toLocaleString('en')} to {spec.max.toLocaleString('en')}.
        </p>
      )}
    </div>
  );
}
