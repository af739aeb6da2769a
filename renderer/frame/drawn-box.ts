// Where a surface's content actually draws: the box around its painted elements (a background, a border, an image,
// a control, text, a ::before or ::after, a shadow). A float that is mostly transparent (an overlay the size of the
// window with a small panel in it) then takes the pointer only there, and the app's own buttons under the rest
// work. What it cannot judge (a shadow root for a float, a very large document) counts as drawing everywhere; a body
// layer's piece is judged into its open shadow roots, and past that by its own box.
/** Elements looked at per measure: a larger document is taken as drawn everywhere. */
const MAX_ELEMENTS = 2000;
const PAINTED_TAGS = new Set(['IMG', 'SVG', 'CANVAS', 'VIDEO', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'IFRAME']);

export type DrawnBox = { x: number; y: number; width: number; height: number };

function paints(win: Window, el: Element, style: CSSStyleDeclaration): boolean {
  if (PAINTED_TAGS.has(el.tagName.toUpperCase())) return true;
  if (['::before', '::after'].some((pseudo) => !['none', 'normal', ''].includes(win.getComputedStyle(el, pseudo).content))) return true;
  if (style.backgroundImage !== 'none' || !/rgba\(.*,\s*0\)|transparent/.test(style.backgroundColor)) return true;
  if (['Top', 'Right', 'Bottom', 'Left'].some((side) => parseFloat(style.getPropertyValue(`border-${side.toLowerCase()}-width`)) > 0)) return true;
  if (style.boxShadow !== 'none' || style.outlineStyle !== 'none') return true;
  return [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim() !== '');
}

/** The root and every element under it, into open shadow roots too (a custom element's content draws as its own). */
function withShadows(root: Element): Element[] {
  const out: Element[] = [];
  const walk = (el: Element) => {
    out.push(el);
    if (out.length > MAX_ELEMENTS) return;
    if (el.shadowRoot) for (const child of el.shadowRoot.children) walk(child);
    for (const child of el.children) walk(child);
  };
  walk(root);
  return out;
}

/** A running box around rectangles; null until one is added. */
class Bounds {
  private left = Infinity;
  private top = Infinity;
  private right = -Infinity;
  private bottom = -Infinity;

  add(r: DOMRect): void {
    this.left = Math.min(this.left, r.left);
    this.top = Math.min(this.top, r.top);
    this.right = Math.max(this.right, r.right);
    this.bottom = Math.max(this.bottom, r.bottom);
  }

  /** Shadows and outlines reach past the box: a margin for them (`pad`). */
  box(pad: number): DrawnBox | null {
    if (this.left === Infinity) return null;
    return { x: Math.floor(this.left - pad), y: Math.floor(this.top - pad), width: Math.ceil(this.right - this.left + 2 * pad), height: Math.ceil(this.bottom - this.top + 2 * pad) };
  }
}

/**
 * The box around what draws in `root` (viewport coordinates of its window), and (`hit`) the box around what draws and
 * takes the pointer (not `pointer-events: none`, as an ambient effect over the page is made), in one walk; null:
 * nothing does. What cannot be judged counts as drawing, and taking the pointer, everywhere, or (`unknown: 'own box'`)
 * over the root's own box.
 */
export function drawnBoxes(win: Window, root: Element, unknown: 'everywhere' | 'own box' = 'everywhere', pad = 24): { painted: DrawnBox | null; hit: DrawnBox | null } {
  const elements = unknown === 'own box' ? withShadows(root) : [root, ...root.querySelectorAll('*')];
  if (elements.length > MAX_ELEMENTS || elements.some((el) => el.shadowRoot && unknown === 'everywhere')) {
    const own = root.getBoundingClientRect();
    // A root of no size holds what is placed elsewhere (fixed children): it may draw anywhere.
    const box =
      unknown === 'everywhere' || !own.width || !own.height
        ? { x: 0, y: 0, width: win.innerWidth, height: win.innerHeight }
        : { x: Math.floor(own.left), y: Math.floor(own.top), width: Math.ceil(own.width), height: Math.ceil(own.height) };
    return { painted: box, hit: box };
  }
  const painted = new Bounds();
  const hit = new Bounds();
  for (const el of elements) {
    const style = win.getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden' || !paints(win, el, style)) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    painted.add(r);
    if (style.pointerEvents !== 'none') hit.add(r);
  }
  return { painted: painted.box(pad), hit: hit.box(pad) };
}

/** The box around what draws in `root` (drawnBoxes). */
export function drawnBox(win: Window, root: Element, unknown: 'everywhere' | 'own box' = 'everywhere', pad = 24): DrawnBox | null {
  return drawnBoxes(win, root, unknown, pad).painted;
}
