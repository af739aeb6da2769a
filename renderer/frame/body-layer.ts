// What an extension's code appends to its page's body. In Lumiverse that page is the app's own, so a panel appended
// there shows (Bio-Tracker's only UI is one). Here the runtime page is a frame the size of the window, hidden; once its
// body holds something of the extension's, the frame reports where each piece draws and the app shows the frame there
// (taking the pointer only in those boxes: a toast in one corner and a button in another do not span the window), and
// hides it again when nothing of it is left. A piece that takes no pointer anywhere (rain over the chat, made
// `pointer-events: none` so the page under it answers) is reported as passive: the app shows it without letting the
// frame take the pointer, and only while nothing of the frame takes it.
import { MAX_LAYER_BOXES } from '../../shared/frames/frame-contract';
import { drawnBox, drawnBoxes, type DrawnBox } from './drawn-box';

/**
 * A press the person made in the app, outside what the layer draws: its code's click-outside handlers (a popover that
 * closes, as Mode Toggles' does) hear it at the page's body, which nothing of theirs contains. No place is given.
 */
export function pressOutside(doc: Document): void {
  const view = doc.defaultView;
  if (!view) return;
  const init = { bubbles: true, cancelable: true, composed: true, button: 0 };
  for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) {
    const Pointer = type.startsWith('pointer') && typeof view.PointerEvent === 'function' ? view.PointerEvent : view.MouseEvent;
    doc.body.dispatchEvent(new Pointer(type, init));
  }
}

/** A box the layer draws in; `passive`: nothing in it takes the pointer. */
export type LayerBox = DrawnBox & { passive?: true };

const QUIET_MS = 100;
const OURS = new Set(['SCRIPT', 'STYLE', 'LINK', 'TEMPLATE']);


function union(boxes: LayerBox[]): LayerBox {
  const left = Math.min(...boxes.map((b) => b.x));
  const top = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: left, y: top, width: right - left, height: bottom - top, ...(boxes.every((b) => b.passive) ? { passive: true as const } : {}) };
}

/**
 * At most MAX_LAYER_BOXES: past it, the rest as one box around those that take the pointer and one around those that
 * do not (one box around both would take the pointer wherever the passive ones draw: the whole window, for rain).
 */
export function cappedBoxes(boxes: LayerBox[]): LayerBox[] {
  if (boxes.length <= MAX_LAYER_BOXES) return boxes;
  const rest = boxes.slice(MAX_LAYER_BOXES - 2);
  const groups = [rest.filter((b) => !b.passive), rest.filter((b) => b.passive)].filter((group) => group.length > 0);
  return [...boxes.slice(0, MAX_LAYER_BOXES - 2), ...groups.map(union)];
}

/** Where a piece draws and takes the pointer; where it only draws, passive; null: it draws nothing. */
function pieceBox(win: Window, el: Element): LayerBox | null {
  const { painted, hit } = drawnBoxes(win, el, 'own box');
  return hit ?? (painted && { ...painted, passive: true });
}

/**
 * Where a piece placed in room the app made draws: its own box, and what of it reaches past (a widget pinned above the
 * box), exactly — no margin that would take the pointer from the app around it.
 */
function placedBox(win: Window, el: Element): DrawnBox | null {
  const r = el.getBoundingClientRect();
  const own = r.width && r.height ? { x: Math.floor(r.left), y: Math.floor(r.top), width: Math.ceil(r.width), height: Math.ceil(r.height) } : null;
  const painted = drawnBox(win, el, 'own box', 0);
  const boxes = [own, painted].filter((b): b is DrawnBox => b !== null);
  return boxes.length ? union(boxes) : null;
}

/**
 * Watches the body for what the extension put there besides `holder` (where its surfaces' roots wait); `report` hears
 * where it draws. What `placed` names sits in room the app made for it (the message box's stand-in): its own box, exactly.
 */
export function watchBodyLayer(win: Window & typeof globalThis, holder: Element, report: (boxes: LayerBox[]) => void, placed: () => Element | null = () => null): () => void {
  const body = win.document.body;
  const theirs = () => [...body.children].filter((el) => el !== holder && el !== placed() && !OURS.has(el.tagName));
  let told = '[]';
  let timer: number | undefined;
  const tell = () => {
    timer = undefined;
    // Each piece by its own box (into open shadow roots); a subtree too large to judge by the element's own box, or the
    // window when that has no size (its content is placed elsewhere).
    const room = placed();
    const boxes: LayerBox[] = [...(room ? [placedBox(win, room)].flatMap((box) => box ?? []) : []), ...theirs().flatMap((el) => pieceBox(win, el) ?? [])];
    const reported = cappedBoxes(boxes);
    const key = JSON.stringify(reported);
    if (key === told) return;
    told = key;
    report(reported);
  };
  const soon = () => {
    if (timer === undefined) timer = win.setTimeout(tell, QUIET_MS);
  };
  const changed = new win.MutationObserver(soon);
  changed.observe(body, { subtree: true, childList: true, attributes: true, characterData: true });
  const events = ['resize', 'transitionend', 'animationend', 'scroll', 'pointerover', 'focusin'];
  for (const event of events) win.addEventListener(event, soon, true);
  soon();
  return () => {
    changed.disconnect();
    for (const event of events) win.removeEventListener(event, soon, true);
    if (timer !== undefined) win.clearTimeout(timer);
  };
}
