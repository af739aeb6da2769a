// ctx.components: Lumiverse's shared controls, mounted into the extension's own DOM. Inputs and pickers
// live in their own files; the display pieces (badge, spinner, collapsible section, pagination, close
// button) are here, the Loom block editor in components-loom.ts. Host surfaces are Lumiverse's own screens: not here.
import { attr, callback, el, mountComponent } from './components-base';
import { inputComponents } from './components-inputs';
import { loomBlockEditor } from './components-loom';
import { pickerComponents } from './components-pickers';
import type { RuntimeState } from './runtime-state';

type Options = Record<string, unknown>;

function badge(state: RuntimeState, target: unknown, options: Options | undefined) {
  return mountComponent(state, 'mountBadge', target, options, (wrapper) => {
    const text = el(wrapper.ownerDocument, 'span');
    wrapper.append(text);
    return {
      render(o) {
        text.className = `spc-badge spc-badge--${typeof o.color === 'string' ? o.color : 'neutral'}`;
        text.textContent = String(o.text ?? '');
      },
    };
  });
}

function spinner(state: RuntimeState, target: unknown, options: Options | undefined) {
  return mountComponent(state, 'mountSpinner', target, options, (wrapper) => {
    const wheel = el(wrapper.ownerDocument, 'span', { role: 'status', 'aria-label': 'Loading' });
    wrapper.append(wheel);
    return {
      render(o) {
        const size = typeof o.size === 'number' ? o.size : 16;
        wheel.className = `spc-spinner${o.fast === true ? ' spc-spinner--fast' : ''}`;
        wheel.style.width = wheel.style.height = `${size}px`;
      },
    };
  });
}

function collapsibleSection(state: RuntimeState, target: unknown, options: Options | undefined) {
  const doc = (typeof target === 'object' && target ? (target as Element).ownerDocument : null) ?? document;
  const body = el(doc, 'div', { class: 'spc-section__body' });
  let section!: HTMLDetailsElement;
  const handle = mountComponent(state, 'mountCollapsibleSection', target, options, (wrapper, current) => {
    const title = el(wrapper.ownerDocument, 'span');
    const count = el(wrapper.ownerDocument, 'span', { class: 'spc-badge' });
    section = el(wrapper.ownerDocument, 'details', { class: 'spc-section' }, el(wrapper.ownerDocument, 'summary', {}, title, ' ', count), body);
    section.open = current().defaultExpanded !== false;
    section.addEventListener('toggle', () => callback(current().onToggle, section.open));
    wrapper.append(section);
    return {
      render(o) {
        title.textContent = String(o.title ?? '');
        count.hidden = o.badge === undefined || o.badge === null;
        count.textContent = String(o.badge ?? '');
      },
    };
  });
  return Object.assign(handle, {
    body,
    isExpanded: () => section.open,
    expand: () => void (section.open = true),
    collapse: () => void (section.open = false),
    toggle: () => void (section.open = !section.open),
  });
}

function pagination(state: RuntimeState, target: unknown, options: Options | undefined) {
  return mountComponent(state, 'mountPagination', target, options, (wrapper, current) => {
    const doc = wrapper.ownerDocument;
    const back = el(doc, 'button', { type: 'button', 'aria-label': 'Previous page' }, '‹');
    const next = el(doc, 'button', { type: 'button', 'aria-label': 'Next page' }, '›');
    const where = el(doc, 'span', { 'aria-live': 'polite' });
    const perPage = el(doc, 'select', { 'aria-label': 'Per page' });
    const go = (delta: number) => {
      const page = Number(current().currentPage ?? 1) + delta;
      if (page >= 1 && page <= Number(current().totalPages ?? 1)) callback(current().onPageChange, page);
    };
    back.addEventListener('click', () => go(-1));
    next.addEventListener('click', () => go(1));
    perPage.addEventListener('change', () => callback(current().onPerPageChange, Number(perPage.value)));
    wrapper.append(el(doc, 'div', { class: 'spc-row' }, back, where, next, perPage));
    return {
      render(o) {
        const page = Number(o.currentPage ?? 1);
        const pages = Math.max(1, Number(o.totalPages ?? 1));
        where.textContent = `Page ${page} of ${pages}${typeof o.totalItems === 'number' ? ` (${o.totalItems})` : ''}`;
        back.disabled = page <= 1;
        next.disabled = page >= pages;
        const sizes = Array.isArray(o.perPageOptions) ? o.perPageOptions.map(Number) : [];
        perPage.hidden = sizes.length === 0 || typeof o.onPerPageChange !== 'function';
        perPage.replaceChildren(...sizes.map((n) => el(doc, 'option', { value: String(n) }, `${n} per page`)));
        if (typeof o.perPage === 'number') perPage.value = String(o.perPage);
      },
    };
  });
}

function closeButton(state: RuntimeState, target: unknown, options: Options | undefined) {
  return mountComponent(state, 'mountCloseButton', target, options, (wrapper, current) => {
    const button = el(wrapper.ownerDocument, 'button', { type: 'button' }, '×');
    button.addEventListener('click', () => callback(current().onClick));
    wrapper.append(button);
    return {
      render(o) {
        attr(button, 'aria-label', o.ariaLabel ?? 'Close');
        wrapper.style.position = o.position === 'absolute' ? 'absolute' : '';
      },
    };
  });
}

export function createComponents(state: RuntimeState) {
  const unsupported = (member: string) => () => {
    throw state.unsupported(`components.${member}`);
  };
  const known: Record<string, unknown> = {
    ...inputComponents(state),
    ...pickerComponents(state),
    mountBadge: (target: unknown, options?: Options) => badge(state, target, options),
    mountSpinner: (target: unknown, options?: Options) => spinner(state, target, options),
    mountCollapsibleSection: (target: unknown, options?: Options) => collapsibleSection(state, target, options),
    mountPagination: (target: unknown, options?: Options) => pagination(state, target, options),
    mountCloseButton: (target: unknown, options?: Options) => closeButton(state, target, options),
    mountLoomBlockEditor: (target: unknown, options?: Record<string, unknown>) => loomBlockEditor(state, target, options),
    // A surface of Lumiverse's own screens: there is none here. Inert (said once on its card), never a throw that
    // would end the setup that asked for it.
    mountHostSurface: () => {
      state.inert('components.mountHostSurface');
      return { update: () => undefined, destroy: () => undefined, on: () => () => undefined };
    },
  };
  // A member newer than this list answers UNSUPPORTED_HERE rather than being undefined.
  return new Proxy(known, {
    get: (target, name) => (typeof name !== 'string' || name === 'then' ? undefined : (target[name] ?? unsupported(name))),
  });
}
