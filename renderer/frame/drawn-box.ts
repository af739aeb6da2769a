// Where a surface's content actually draws, told to the app: the box around its painted elements (a background,
// a border, an image, a control, text). A float that is mostly transparent (an overlay the size of the window
// with a small panel in it) then takes the pointer only there, and the app's own buttons under the rest work.
// Changes within a tenth of a second are told once.
const QUIET_MS = 100;
/** Elements looked at per measure: a larger document is taken as drawn everywhere. */
const MAX_ELEMENTS = 2000;
const PAINTED_TAGS = new Set(['IMG', 'SVG', 'CANVAS', 'VIDEO', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'IFRAME']);

export type DrawnBox = { x: number; y: number; width: number; height: number };

function painted(el: Element, style: CSSStyleDeclaration): boolean {
  if (PAINTED_TAGS.has(el.tagName.toUpperCase())) return true;
  if (style.backgroundImage !== 'none' || !/rgba\(.*,\s*0\)|transparent/.test(style.backgroundColor)) return true;
  if (['Top', 'Right', 'Bottom', 'Left'].some((side) => parseFloat(style.getPropertyValue(`border-${side.toLowerCase()}-width`)) > 0)) return true;
  if (style.boxShadow !== 'none') return true;
  return [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim() !== '');
}

/** The box around what draws in `root` (viewport coordinates of its window); null: nothing draws. */
export function drawnBox(win: Window, root: Element): DrawnBox | null {
  const elements = root.querySelectorAll('*');
  if (elements.length > MAX_ELEMENTS) return { x: 0, y: 0, width: win.innerWidth, height: win.innerHeight };
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const el of elements) {
    const style = win.getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden' || !painted(el, style)) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    left = Math.min(left, r.left);
    top = Math.min(top, r.top);
    right = Math.max(right, r.right);
    bottom = Math.max(bottom, r.bottom);
  }
  return left === Infinity ? null : { x: Math.floor(left), y: Math.floor(top), width: Math.ceil(right - left), height: Math.ceil(bottom - top) };
}

export function watchDrawnBox(win: Window, root: Element, report: (box: DrawnBox | null) => void): void {
  let told = '';
  let timer: number | undefined;
  const tell = () => {
    timer = undefined;
    const box = drawnBox(win, root);
    const key = JSON.stringify(box);
    if (key === told) return;
    told = key;
    report(box);
  };
  const soon = () => {
    if (timer === undefined) timer = win.setTimeout(tell, QUIET_MS);
  };
  const w = win as Window & typeof globalThis;
  new w.ResizeObserver(soon).observe(root);
  new w.MutationObserver(soon).observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  win.addEventListener('resize', soon);
  soon();
}
