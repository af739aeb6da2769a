// What every ctx.components.mount* shares: the target it draws into (an element or a selector over the
// extension's documents), a wrapper of its own inside it (the target stays the extension's), the handle
// Lumiverse returns (componentId, element, update, destroy), and one stylesheet drawn from the theme's
// --lumiverse-* variables so the controls look like the host's. Lumiverse renders its own React
// components; here they are native controls in the extension's frame, with the same options and handles.
import { frameError } from './channel';
import type { RuntimeState } from './runtime-state';

type Options = Record<string, unknown>;

export interface Drawn<O extends Options> {
  /** Applies the options (at mount and after each update). */
  render(options: O): void;
  /** Extra handle members (getValue, focus…). */
  members?: Record<string, unknown>;
}

const CSS = `.spc { font: inherit; color: var(--lumiverse-text); box-sizing: border-box; }
.spc input:not([type=checkbox]):not([type=range]), .spc select, .spc textarea { font: inherit; color: inherit; background: var(--lumiverse-bg-elevated, transparent); border: 1px solid var(--lumiverse-border); border-radius: var(--lumiverse-radius-sm, 5px); padding: 5px 8px; width: 100%; box-sizing: border-box; }
.spc button { font: inherit; color: inherit; background: var(--lumiverse-fill); border: 1px solid var(--lumiverse-border); border-radius: var(--lumiverse-radius-sm, 5px); padding: 3px 9px; cursor: pointer; }
.spc button:disabled, .spc input:disabled, .spc select:disabled { opacity: 0.55; cursor: not-allowed; }
.spc :focus-visible { outline: 2px solid var(--lumiverse-primary); outline-offset: 1px; }
.spc-row { display: flex; gap: 6px; align-items: center; }
.spc-hint { font-size: 0.85em; color: var(--lumiverse-text-muted); }
.spc-head { display: flex; justify-content: space-between; gap: 8px; }
.spc-switch { width: 34px; height: 20px; padding: 0 !important; border-radius: 10px !important; position: relative; }
.spc-switch::after { content: ''; position: absolute; top: 2px; left: 2px; width: 14px; height: 14px; border-radius: 50%; background: var(--lumiverse-text-muted); transition: left var(--lumiverse-transition-fast, 150ms); }
.spc-switch[aria-checked=true] { background: var(--lumiverse-primary); }
.spc-switch[aria-checked=true]::after { left: 16px; background: var(--lumiverse-primary-contrast, #fff); }
.spc-badge { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 0.8em; background: var(--lumiverse-fill); }
.spc-badge--primary, .spc-badge--info { background: var(--lumiverse-primary-020); }
.spc-badge--success { background: color-mix(in srgb, var(--lumiverse-success) 22%, transparent); }
.spc-badge--warning { background: color-mix(in srgb, var(--lumiverse-warning) 22%, transparent); }
.spc-badge--danger { background: color-mix(in srgb, var(--lumiverse-danger) 22%, transparent); }
.spc-spinner { display: inline-block; border: 2px solid var(--lumiverse-border); border-top-color: var(--lumiverse-primary); border-radius: 50%; animation: spc-spin 0.9s linear infinite; }
.spc-spinner--fast { animation-duration: 0.5s; }
@keyframes spc-spin { to { transform: rotate(360deg); } }
.spc-section > summary { cursor: pointer; font-weight: 600; padding: 4px 0; }
.spc-multi { max-height: 180px; overflow: auto; border: 1px solid var(--lumiverse-border); border-radius: var(--lumiverse-radius-sm, 5px); padding: 4px 8px; }
.spc-multi label { display: flex; gap: 6px; align-items: center; }
.spc-loom__row { padding: 6px 0; border-bottom: 1px solid var(--lumiverse-border); }
.spc-loom__row > button { float: right; }
.spc-loom__form, .spc-loom__field { display: flex; flex-direction: column; gap: 6px; }`;

let sequence = 0;
const styled = new WeakSet<RuntimeState>();

/** Where a component goes: an element, or the first match of a selector in the extension's documents. */
function resolveTarget(state: RuntimeState, target: unknown, member: string): Element {
  if (typeof target === 'string') {
    const found = state.docs.query(target);
    if (!found) throw frameError('INVALID_INPUT', `ctx.components.${member}: no element matches "${target.slice(0, 120)}".`);
    return found;
  }
  if (target && typeof (target as Element).appendChild === 'function' && (target as Element).nodeType === 1) return target as Element;
  throw frameError('INVALID_INPUT', `ctx.components.${member}: the target must be an element or a selector.`);
}

/** Mounts one component: builds it in a wrapper inside the target and returns Lumiverse's handle. */
export function mountComponent<O extends Options>(state: RuntimeState, member: string, target: unknown, options: O | undefined, build: (wrapper: HTMLElement, current: () => O) => Drawn<O>) {
  const element = resolveTarget(state, target, member);
  if (!styled.has(state)) {
    styled.add(state);
    state.atTeardown(state.docs.addStyle(CSS));
  }
  const doc = element.ownerDocument;
  const wrapper = doc.createElement('div');
  wrapper.className = `spc spc--${member.replace(/^mount/, '').toLowerCase()}`;
  let current = { ...(options ?? {}) } as O;
  const drawn = build(wrapper, () => current);
  const applyClass = () => {
    wrapper.className = `spc spc--${member.replace(/^mount/, '').toLowerCase()}${typeof current.className === 'string' && current.className ? ` ${current.className}` : ''}`;
  };
  applyClass();
  drawn.render(current);
  element.appendChild(wrapper);
  let destroyed = false;
  const destroy = () => {
    if (destroyed) return;
    destroyed = true;
    undo();
    wrapper.remove();
  };
  const undo = state.atTeardown(destroy);
  return {
    componentId: `${state.extensionId}:component-${++sequence}`,
    element,
    update(patch: Partial<O>) {
      if (destroyed || !patch || typeof patch !== 'object') return;
      current = { ...current, ...patch };
      applyClass();
      drawn.render(current);
    },
    destroy,
    ...drawn.members,
  };
}

/** Creates an element with attributes and children, in the wrapper's document. */
export function el<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, attrs: Record<string, string> = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const node = doc.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** Sets or removes an attribute from an optional option. */
export function attr(node: Element, name: string, value: unknown): void {
  if (value === undefined || value === null || value === false) node.removeAttribute(name);
  else node.setAttribute(name, value === true ? '' : String(value));
}

/** Calls an extension's callback; what it throws is its own, logged, and never breaks the control. */
export function callback<A extends unknown[]>(fn: unknown, ...args: A): void {
  if (typeof fn !== 'function') return;
  try {
    (fn as (...a: A) => unknown)(...args);
  } catch (err) {
    console.error(err);
  }
}

/** A number from an input: null when empty or not a number, rounded and kept within bounds as asked. */
export function parseNumber(raw: string, o: { integer?: unknown; min?: unknown; max?: unknown }): number | null {
  if (raw.trim() === '') return null;
  let value = Number(raw);
  if (!Number.isFinite(value)) return null;
  if (o.integer === true) value = Math.round(value);
  if (typeof o.min === 'number') value = Math.max(o.min, value);
  if (typeof o.max === 'number') value = Math.min(o.max, value);
  return value;
}
