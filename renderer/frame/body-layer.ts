// What an extension's code appends to its page's body. In Lumiverse that page is the app's own, so a panel appended
// there shows (Bio-Tracker's only UI is one). Here the runtime page is a frame the size of the window, hidden; once its
// body holds something of the extension's, the frame reports where that draws and the app shows the frame there
// (taking the pointer only in that box), and hides it again when nothing of it is left.
import { drawnBox, type DrawnBox } from './drawn-box';

const QUIET_MS = 100;
const OURS = new Set(['SCRIPT', 'STYLE', 'LINK', 'TEMPLATE']);

function union(boxes: DrawnBox[]): DrawnBox | null {
  if (!boxes.length) return null;
  const left = Math.min(...boxes.map((b) => b.x));
  const top = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** Watches the body for what the extension put there besides `holder` (where its surfaces' roots wait); `report` hears where it draws. */
export function watchBodyLayer(win: Window & typeof globalThis, holder: Element, report: (box: DrawnBox | null) => void): () => void {
  const body = win.document.body;
  const theirs = () => [...body.children].filter((el) => el !== holder && !OURS.has(el.tagName));
  let told = 'null';
  let timer: number | undefined;
  const tell = () => {
    timer = undefined;
    const box = union(theirs().flatMap((el) => drawnBox(win, el) ?? []));
    const key = JSON.stringify(box);
    if (key === told) return;
    told = key;
    report(box);
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
