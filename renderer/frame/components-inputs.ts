// ctx.components' inputs: text, text area, numbers (field, stepper, range slider), checkbox and switch.
// Each calls the extension's callbacks as Lumiverse's do (onChange as the value changes; a slider's
// onDragValue while dragging and onCommit when let go) and update() changes it without losing focus.
import { attr, callback, el, mountComponent, parseNumber } from './components-base';
import type { RuntimeState } from './runtime-state';

type Options = Record<string, unknown>;

const str = (value: unknown, fallback = '') => (value === undefined || value === null ? fallback : String(value));

/** Keeps a field's value in step with options.value without clobbering what the person is typing. */
function setValue(field: HTMLInputElement | HTMLTextAreaElement, value: unknown): void {
  const next = str(value);
  if (value !== undefined && field.value !== next) field.value = next;
}

function textField(state: RuntimeState, member: string, target: unknown, options: Options | undefined, multiline: boolean) {
  let field!: HTMLInputElement | HTMLTextAreaElement;
  return mountComponent(state, member, target, options, (wrapper, current) => {
    const doc = wrapper.ownerDocument;
    field = multiline ? el(doc, 'textarea') : el(doc, 'input', { type: 'text' });
    field.addEventListener('input', () => callback(current().onChange, field.value));
    wrapper.append(field);
    if (current().autoFocus === true) queueMicrotask(() => field.focus());
    return {
      render(o) {
        setValue(field, o.value);
        attr(field, 'placeholder', o.placeholder);
        attr(field, 'aria-label', o.ariaLabel);
        field.disabled = o.disabled === true;
        if (multiline) attr(field, 'rows', typeof o.rows === 'number' ? o.rows : 4);
      },
      members: { getValue: () => field.value, focus: () => field.focus(), blur: () => field.blur() },
    };
  });
}

function numberField(state: RuntimeState, member: string, target: unknown, options: Options | undefined, stepper: boolean) {
  return mountComponent(state, member, target, options, (wrapper, current) => {
    const doc = wrapper.ownerDocument;
    const field = el(doc, 'input', { type: 'number' });
    let value: number | null = typeof current().value === 'number' ? (current().value as number) : null;
    const commit = (next: number | null) => {
      if (next === null && current().allowEmpty !== true) return;
      value = next;
      callback(current().onChange, next);
    };
    field.addEventListener('input', () => commit(parseNumber(field.value, current())));
    // On leaving the field, what it shows is what it holds (a number out of bounds comes back within them).
    field.addEventListener('change', () => (field.value = value === null ? '' : String(value)));
    const step = (direction: 1 | -1) => {
      const size = typeof current().step === 'number' ? (current().step as number) : 1;
      const next = parseNumber(String((value ?? 0) + direction * size), current());
      field.value = next === null ? '' : String(next);
      commit(next);
    };
    if (stepper) {
      const less = el(doc, 'button', { type: 'button', 'aria-label': 'Decrease' }, '−');
      const more = el(doc, 'button', { type: 'button', 'aria-label': 'Increase' }, '+');
      less.addEventListener('click', () => step(-1));
      more.addEventListener('click', () => step(1));
      wrapper.append(el(doc, 'div', { class: 'spc-row' }, less, field, more));
    } else wrapper.append(field);
    return {
      render(o) {
        if (o.value !== undefined && o.value !== value) {
          value = typeof o.value === 'number' ? o.value : null;
          field.value = value === null ? '' : String(value);
        }
        attr(field, 'min', o.min);
        attr(field, 'max', o.max);
        attr(field, 'step', o.step ?? (o.integer === true ? 1 : 'any'));
        attr(field, 'placeholder', o.placeholder);
        attr(field, 'aria-label', o.ariaLabel);
        field.disabled = o.disabled === true;
        for (const button of wrapper.querySelectorAll('button')) button.disabled = o.disabled === true;
      },
      members: { getValue: () => value, focus: () => field.focus(), blur: () => field.blur() },
    };
  });
}

function decimalsOf(o: Options): number {
  const format = (o.format ?? {}) as { decimals?: unknown };
  if (typeof format.decimals === 'number') return format.decimals;
  if (o.integer === true) return 0;
  const step = typeof o.step === 'number' ? o.step : 1;
  return (String(step).split('.')[1] ?? '').length;
}

function rangeSlider(state: RuntimeState, target: unknown, options: Options | undefined) {
  return mountComponent(state, 'mountRangeSlider', target, options, (wrapper, current) => {
    const doc = wrapper.ownerDocument;
    const title = el(doc, 'span');
    const shown = el(doc, 'span', { class: 'spc-hint' });
    const head = el(doc, 'div', { class: 'spc-head' }, title, shown);
    const hint = el(doc, 'div', { class: 'spc-hint' });
    const range = el(doc, 'input', { type: 'range' });
    let value = Number(current().value ?? current().min ?? 0);
    const format = (n: number) => {
      const f = (current().format ?? {}) as { prefix?: unknown; suffix?: unknown };
      return `${str(f.prefix)}${n.toFixed(decimalsOf(current()))}${str(f.suffix)}`;
    };
    range.addEventListener('input', () => {
      shown.textContent = format(Number(range.value));
      callback(current().onDragValue, Number(range.value));
    });
    range.addEventListener('change', () => {
      value = Number(range.value);
      callback(current().onCommit, current().integer === true ? Math.round(value) : value);
    });
    wrapper.append(head, hint, range);
    return {
      render(o) {
        if (o.value !== undefined) value = Number(o.value);
        range.min = str(o.min, '0');
        range.max = str(o.max, '100');
        range.step = str(o.step, '1');
        range.value = String(value);
        range.disabled = o.disabled === true;
        attr(range, 'aria-label', o.label ?? o.ariaLabel);
        head.hidden = typeof o.label !== 'string';
        title.textContent = str(o.label);
        shown.textContent = format(value);
        hint.hidden = typeof o.hint !== 'string';
        hint.textContent = str(o.hint);
      },
      members: { getValue: () => value },
    };
  });
}

function checkbox(state: RuntimeState, target: unknown, options: Options | undefined) {
  return mountComponent(state, 'mountCheckbox', target, options, (wrapper, current) => {
    const doc = wrapper.ownerDocument;
    const box = el(doc, 'input', { type: 'checkbox' });
    const text = el(doc, 'span');
    const hint = el(doc, 'div', { class: 'spc-hint' });
    box.addEventListener('change', () => callback(current().onChange, box.checked));
    wrapper.append(el(doc, 'label', { class: 'spc-row' }, box, text), hint);
    return {
      render(o) {
        if (o.checked !== undefined) box.checked = o.checked === true;
        box.disabled = o.disabled === true;
        text.textContent = str(o.label);
        hint.hidden = typeof o.hint !== 'string';
        hint.textContent = str(o.hint);
      },
      members: { getValue: () => box.checked },
    };
  });
}

function toggleSwitch(state: RuntimeState, target: unknown, options: Options | undefined) {
  return mountComponent(state, 'mountSwitch', target, options, (wrapper, current) => {
    const button = el(wrapper.ownerDocument, 'button', { type: 'button', role: 'switch', class: 'spc-switch' });
    let checked = current().checked === true;
    button.addEventListener('click', () => {
      checked = !checked;
      button.setAttribute('aria-checked', String(checked));
      callback(current().onChange, checked);
    });
    wrapper.append(button);
    return {
      render(o) {
        if (o.checked !== undefined) checked = o.checked === true;
        button.setAttribute('aria-checked', String(checked));
        button.disabled = o.disabled === true;
        attr(button, 'aria-label', o.ariaLabel);
      },
      members: { getValue: () => checked },
    };
  });
}

export function inputComponents(state: RuntimeState) {
  return {
    mountTextInput: (target: unknown, options?: Options) => textField(state, 'mountTextInput', target, options, false),
    mountTextArea: (target: unknown, options?: Options) => textField(state, 'mountTextArea', target, options, true),
    mountNumericInput: (target: unknown, options?: Options) => numberField(state, 'mountNumericInput', target, options, false),
    mountNumberStepper: (target: unknown, options?: Options) => numberField(state, 'mountNumberStepper', target, options, true),
    mountRangeSlider: (target: unknown, options?: Options) => rangeSlider(state, target, options),
    mountCheckbox: (target: unknown, options?: Options) => checkbox(state, target, options),
    mountSwitch: (target: unknown, options?: Options) => toggleSwitch(state, target, options),
  };
}
