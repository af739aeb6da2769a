// One sampling setting of the sidecar (temperature, top P, max tokens): a number input, a slider beside it for the
// fractional ones, its error and its range and default in the hint.
import type { ReactNode } from 'react';
import { SIDECAR_RANGES } from '../../../../shared/types/llm';
import { DEFAULT_NUMBERS } from './sidecar-form';

export type SamplingKey = 'temperature' | 'topP' | 'maxTokens';

export function SamplingField(props: {
  field: SamplingKey;
  label: string;
  step: number;
  hint: string;
  value: string;
  /** id, aria-invalid and aria-describedby of the number input. */
  aria: { id: string; 'aria-invalid': boolean | undefined; 'aria-describedby': string };
  error: ReactNode;
  onChange(value: string): void;
}) {
  const { field, label, step } = props;
  const range = SIDECAR_RANGES[field];
  const value = Number(props.value);
  return (
    <div className="field sidecar-number">
      <label className="field__label" htmlFor={props.aria.id}>
        {label}
      </label>
      <div className="input-row">
        <input
          {...props.aria}
          className="input input--number"
          type="number"
          inputMode="decimal"
          min={range.min}
          max={range.max}
          step={step}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
        />
        {field !== 'maxTokens' && (
          <input
            type="range"
            className="range"
            aria-label={`${label} slider`}
            min={range.min}
            max={range.max}
            step={step}
            value={Number.isFinite(value) ? Math.min(range.max, Math.max(range.min, value)) : range.min}
            onChange={(e) => props.onChange(e.target.value)}
          />
        )}
      </div>
      {props.error}
      <p className="field__hint" id={`${props.aria.id}-hint`}>
        {props.hint} ({range.min}–{range.max}; default {DEFAULT_NUMBERS[field]})
      </p>
    </div>
  );
}
