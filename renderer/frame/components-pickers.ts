// ctx.components' pickers: select, multi-select, model combobox and folder dropdown, as native controls.
// A model combobox bound to a connection ({ kind: 'llm', id? }) lists that connection's models through the
// app (only the model names come back; without an id, the open chat's connection).
import { attr, callback, el, mountComponent } from './components-base';
import type { RuntimeState } from './runtime-state';

type Options = Record<string, unknown>;
interface Choice {
  value: string;
  label: string;
  sublabel?: string;
  group?: string;
  disabled?: boolean;
}

let lists = 0;

/** The options as given, each a plain { value, label } (anything else is skipped). */
function choices(raw: unknown): Choice[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter((c): c is Choice => !!c && typeof c === 'object' && 'value' in c).map((c) => ({ ...c, value: String(c.value), label: String(c.label ?? c.value) }));
}

function optionElement(doc: Document, choice: Choice): HTMLOptionElement {
  const option = el(doc, 'option', { value: choice.value }, choice.sublabel ? `${choice.label} — ${choice.sublabel}` : choice.label);
  option.disabled = choice.disabled === true;
  return option;
}

function select(state: RuntimeState, target: unknown, options: Options | undefined) {
  let field!: HTMLSelectElement;
  return mountComponent(state, 'mountSelect', target, options, (wrapper, current) => {
    const doc = wrapper.ownerDocument;
    field = el(doc, 'select');
    field.addEventListener('change', () => callback(current().onChange, field.value));
    wrapper.append(field);
    return {
      render(o) {
        const value = typeof o.value === 'string' ? o.value : field.value;
        const list = choices(o.options);
        const first = el(doc, 'option', { value: '' }, String(o.clearable === true ? (o.clearLabel ?? 'None') : (o.placeholder ?? (list.length === 0 ? (o.emptyMessage ?? 'Nothing to choose') : 'Choose…'))));
        if (o.clearable !== true) first.disabled = true;
        const nodes: Node[] = [first];
        const groups = new Map<string, HTMLOptGroupElement>();
        for (const choice of list) {
          if (!choice.group) {
            nodes.push(optionElement(doc, choice));
            continue;
          }
          let group = groups.get(choice.group);
          if (!group) nodes.push((group = el(doc, 'optgroup', { label: choice.group })));
          groups.set(choice.group, group);
          group.append(optionElement(doc, choice));
        }
        field.replaceChildren(...nodes);
        field.value = list.some((c) => c.value === value) ? value : '';
        field.disabled = o.disabled === true;
        attr(field, 'aria-label', o.ariaLabel ?? o.triggerLabel);
      },
      members: {
        getValue: () => field.value,
        open: () => {
          try {
            field.showPicker();
          } catch {
            field.focus();
          }
        },
        close: () => field.blur(),
      },
    };
  });
}

function multiSelect(state: RuntimeState, target: unknown, options: Options | undefined) {
  let chosen: string[] = [];
  return mountComponent(state, 'mountMultiSelect', target, options, (wrapper, current) => {
    const doc = wrapper.ownerDocument;
    const list = el(doc, 'div', { class: 'spc-multi', role: 'group' });
    wrapper.append(list);
    return {
      render(o) {
        if (Array.isArray(o.value)) chosen = o.value.map(String);
        attr(list, 'aria-label', o.ariaLabel);
        const all = choices(o.options);
        if (all.length === 0) return list.replaceChildren(el(doc, 'span', { class: 'spc-hint' }, String(o.emptyMessage ?? 'Nothing to choose')));
        list.replaceChildren(
          ...all.map((choice) => {
            const box = el(doc, 'input', { type: 'checkbox', value: choice.value });
            box.checked = chosen.includes(choice.value);
            box.disabled = o.disabled === true || choice.disabled === true;
            box.addEventListener('change', () => {
              chosen = box.checked ? [...chosen, choice.value] : chosen.filter((v) => v !== choice.value);
              callback(current().onChange, [...chosen]);
            });
            return el(doc, 'label', {}, box, choice.label);
          }),
        );
      },
      members: { getValue: () => [...chosen], open: () => list.querySelector('input')?.focus(), close: () => undefined },
    };
  });
}

/** A text field with suggestions (a datalist): what the model combobox and the folder dropdown share. */
function suggestField(doc: Document) {
  const id = `spc-list-${++lists}`;
  const field = el(doc, 'input', { type: 'text', list: id, autocomplete: 'off' });
  const datalist = el(doc, 'datalist', { id });
  const fill = (values: string[], labels: Record<string, unknown> = {}) =>
    datalist.replaceChildren(...values.map((v) => el(doc, 'option', { value: v, ...(typeof labels[v] === 'string' ? { label: labels[v] } : {}) })));
  return { field, datalist, fill };
}

function modelCombobox(state: RuntimeState, target: unknown, options: Options | undefined) {
  let refresh = () => undefined as void;
  let value = '';
  return mountComponent(state, 'mountModelCombobox', target, options, (wrapper, current) => {
    const doc = wrapper.ownerDocument;
    const { field, datalist, fill } = suggestField(doc);
    const hint = el(doc, 'div', { class: 'spc-hint' });
    const again = el(doc, 'button', { type: 'button', 'aria-label': 'Refresh the models' }, '↻');
    let fetched: string[] = [];
    let loading = false;
    const show = () => {
      const o = current();
      const models = Array.isArray(o.models) ? o.models.map(String) : fetched;
      fill(models, (o.modelLabels ?? {}) as Record<string, unknown>);
      const busy = loading || o.loading === true;
      hint.textContent = busy ? String(o.loadingMessage ?? 'Loading models…') : models.length === 0 && (o.connection || Array.isArray(o.models)) ? String(o.emptyMessage ?? 'No models.') : String(o.browseHint ?? '');
      hint.hidden = hint.textContent === '';
    };
    refresh = () => {
      const connection = current().connection as { kind?: unknown; id?: unknown } | undefined;
      if (Array.isArray(current().models) || !connection) return callback(current().onRefresh);
      if (connection.kind !== 'llm') return show();
      loading = true;
      show();
      state.channel
        .request('connections.models', typeof connection.id === 'string' && connection.id ? { connectionId: connection.id } : {})
        .then((answer) => void (fetched = answer.models))
        .catch((err: Error) => {
          // Another connection's list must not linger under this one.
          fetched = [];
          console.warn(`[Council Workbench] models: ${err.message}`);
        })
        .finally(() => {
          loading = false;
          show();
        });
    };
    field.addEventListener('change', () => {
      value = field.value;
      callback(current().onChange, value);
    });
    field.addEventListener('focus', () => current().autoRefreshOnFocus === true && refresh());
    again.addEventListener('click', () => refresh());
    wrapper.append(el(doc, 'div', { class: 'spc-row' }, field, again), datalist, hint);
    let boundTo = '';
    return {
      render(o) {
        if (typeof o.value === 'string' && o.value !== value) field.value = value = o.value;
        attr(field, 'placeholder', o.placeholder);
        attr(field, 'aria-label', o.ariaLabel ?? 'Model');
        field.disabled = again.disabled = o.disabled === true;
        const binding = JSON.stringify([o.connection ?? null, o.refreshKey ?? null]);
        if (binding !== boundTo && o.connection && !Array.isArray(o.models)) {
          boundTo = binding;
          refresh();
        } else show();
      },
      members: { getValue: () => value, refresh: () => refresh() },
    };
  });
}

function folderDropdown(state: RuntimeState, target: unknown, options: Options | undefined) {
  let value = '';
  return mountComponent(state, 'mountFolderDropdown', target, options, (wrapper, current) => {
    const { field, datalist, fill } = suggestField(wrapper.ownerDocument);
    field.addEventListener('change', () => {
      value = field.value.trim();
      const folders = Array.isArray(current().folders) ? (current().folders as unknown[]).map(String) : [];
      if (value && !folders.includes(value)) callback(current().onCreateFolder, value);
      callback(current().onChange, value);
    });
    wrapper.append(field, datalist);
    return {
      render(o) {
        if (typeof o.value === 'string') field.value = value = o.value;
        fill(Array.isArray(o.folders) ? o.folders.map(String) : []);
        attr(field, 'placeholder', o.placeholder ?? 'Folder');
        attr(field, 'aria-label', 'Folder');
        field.disabled = o.disabled === true;
      },
      members: { getValue: () => value },
    };
  });
}

export function pickerComponents(state: RuntimeState) {
  return {
    mountSelect: (target: unknown, options?: Options) => select(state, target, options),
    mountMultiSelect: (target: unknown, options?: Options) => multiSelect(state, target, options),
    mountModelCombobox: (target: unknown, options?: Options) => modelCombobox(state, target, options),
    mountFolderDropdown: (target: unknown, options?: Options) => folderDropdown(state, target, options),
  };
}
