// A block's prompt variables (Lumiverse's Loom variables: text, a number, a slider, a choice, a switch, several
// choices), each a control showing the value the person set, else the preset's default. A choice, a switch or a
// slider is saved as it changes; text and numbers when the person leaves the field or presses Enter.
import { useId, useState, type KeyboardEvent } from 'react';

interface Option {
  id: string;
  label?: string;
  value?: unknown;
}
export interface VariableDef {
  name: string;
  label?: string;
  type: string;
  defaultValue?: unknown;
  description?: string;
  min?: number;
  max?: number;
  step?: number;
  rows?: number;
  options?: Option[];
}

const isDef = (value: unknown): value is VariableDef => typeof value === 'object' && value !== null && typeof (value as VariableDef).name === 'string' && (value as VariableDef).name !== '';

/** The block's variables, as it defines them (what is not one is passed over). */
export const variablesOf = (block: Record<string, unknown>): VariableDef[] => (Array.isArray(block.variables) ? block.variables.filter(isDef) : []);

function Variable(props: { def: VariableDef; value: unknown; busy: boolean; onChange(value: unknown): void }) {
  const { def } = props;
  const id = useId();
  const shown = props.value ?? def.defaultValue;
  const [text, setText] = useState(String(shown ?? ''));
  const label = def.label || def.name;
  const numeric = def.type === 'number' || def.type === 'slider';
  const commitText = () => {
    if (text === String(shown ?? '')) return;
    // A number field left empty or with no number in it keeps the value it had.
    if (numeric && (text.trim() === '' || !Number.isFinite(Number(text)))) return setText(String(shown ?? ''));
    props.onChange(numeric ? Number(text) : text);
  };
  const enter = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && def.type !== 'textarea') commitText();
  };
  const options = Array.isArray(def.options) ? def.options.filter((o) => typeof o?.id === 'string') : [];
  const hint = def.description ? <span className="field__hint">{def.description}</span> : null;
  switch (def.type) {
    case 'select':
      return (
        <label className="field" htmlFor={id}>
          <span className="field__label">{label}</span>
          <select id={id} className="input" value={String(shown ?? options[0]?.id ?? '')} aria-disabled={props.busy || undefined} onChange={(e) => props.onChange(e.target.value)}>
            {options.map((o) => (
              <option key={o.id} value={o.id}>
                {o.label || o.id}
              </option>
            ))}
          </select>
          {hint}
        </label>
      );
    case 'switch':
      return (
        <label className="field__check">
          <input type="checkbox" checked={shown === 1 || shown === true || shown === '1'} aria-disabled={props.busy || undefined} onChange={(e) => props.onChange(e.target.checked ? 1 : 0)} />
          {label}
          {hint}
        </label>
      );
    case 'multiselect': {
      const chosen = new Set(Array.isArray(shown) ? shown.map(String) : []);
      return (
        <fieldset className="field">
          <legend className="field__label">{label}</legend>
          {options.map((o) => (
            <label key={o.id} className="field__check">
              <input type="checkbox" checked={chosen.has(o.id)} aria-disabled={props.busy || undefined} onChange={(e) => props.onChange(options.map((x) => x.id).filter((x) => (x === o.id ? e.target.checked : chosen.has(x))))} />
              {o.label || o.id}
            </label>
          ))}
          {hint}
        </fieldset>
      );
    }
    case 'slider':
      return (
        <label className="field" htmlFor={id}>
          <span className="field__label">
            {label}: {text}
          </span>
          <input id={id} type="range" min={def.min} max={def.max} step={def.step ?? 1} value={text} aria-disabled={props.busy || undefined} onChange={(e) => setText(e.target.value)} onPointerUp={commitText} onKeyUp={commitText} onBlur={commitText} />
          {hint}
        </label>
      );
    default: {
      const multiline = def.type === 'textarea';
      const Field = multiline ? 'textarea' : 'input';
      return (
        <label className="field" htmlFor={id}>
          <span className="field__label">{label}</span>
          <Field id={id} className="input" {...(def.type === 'number' ? { type: 'number', min: def.min, max: def.max, step: def.step } : {})} {...(multiline ? { rows: def.rows ?? 3 } : {})} value={text} onChange={(e) => setText(e.target.value)} onBlur={commitText} onKeyDown={enter} />
          {hint}
        </label>
      );
    }
  }
}

/** The block's variables, under its row; nothing for a block without any. */
export function PresetVariables(props: { block: Record<string, unknown> & { id: string; name: string }; values: Record<string, unknown>; busy: boolean; onChange(name: string, value: unknown): void }) {
  const defs = variablesOf(props.block);
  if (defs.length === 0) return null;
  return (
    <fieldset className="preset-variables" aria-label={`Settings of ${props.block.name}`}>
      {defs.map((def) => (
        // Made again when the stored value changes (a save, another writer's change), so what it shows is what is kept.
        <Variable key={`${def.name}:${JSON.stringify(props.values[def.name] ?? null)}`} def={def} value={props.values[def.name]} busy={props.busy} onChange={(value) => props.onChange(def.name, value)} />
      ))}
    </fieldset>
  );
}
