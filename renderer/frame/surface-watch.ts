// What a surface's frame tells the app about its content while the frame shows it: how tall it is (a place that
// fits its content is made that tall) and, for a chromeless float, where it draws (drawn-box.ts). Changes within
// a tenth of a second are told once (an animated panel must not flood the broker), and the watch ends with the
// frame: a watcher left on the root would keep the gone frame's whole window alive.
import { drawnBox, type DrawnBox } from './drawn-box';

const QUIET_MS = 100;

export interface SurfaceReports {
  height(height: number): void;
  /** Only for a surface whose drawn box the app uses. */
  drawn?(box: DrawnBox | null): void;
}

export function watchSurface(win: Window, root: Element, reports: SurfaceReports): () => void {
  let toldHeight = -1;
  let toldBox = '';
  let timer: number | undefined;
  const tell = () => {
    timer = undefined;
    const height = Math.ceil(root.scrollHeight);
    if (Math.abs(height - toldHeight) >= 2) {
      toldHeight = height;
      reports.height(height);
    }
    if (!reports.drawn) return;
    const box = drawnBox(win, root);
    const key = JSON.stringify(box);
    if (key === toldBox) return;
    toldBox = key;
    reports.drawn(box);
  };
  const soon = () => {
    if (timer === undefined) timer = win.setTimeout(tell, QUIET_MS);
  };
  const w = win as Window & typeof globalThis;
  const resized = new w.ResizeObserver(soon);
  resized.observe(root);
  const stops: Array<() => void> = [() => resized.disconnect()];
  if (reports.drawn) {
    const changed = new w.MutationObserver(soon);
    changed.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
    stops.push(() => changed.disconnect());
    // What shows without a change to the DOM: a hover or focus style, the end of a transition, a scroll.
    for (const event of ['resize', 'transitionend', 'animationend', 'scroll', 'pointerover', 'focusin']) {
      win.addEventListener(event, soon, true);
      stops.push(() => win.removeEventListener(event, soon, true));
    }
  }
  soon();
  return () => {
    for (const stop of stops) stop();
    if (timer !== undefined) win.clearTimeout(timer);
  };
}
