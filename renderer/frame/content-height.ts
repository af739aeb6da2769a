// How tall a surface's content is, told to the app, so a place that fits its content (a settings tab on the
// extension's card) is as tall as what the extension drew. Changes within a tenth of a second are told once:
// an animated panel must not flood the broker.
const QUIET_MS = 100;

export function watchContentHeight(win: Window, root: Element, report: (height: number) => void): void {
  let told = -1;
  let timer: number | undefined;
  const tell = () => {
    timer = undefined;
    const height = Math.ceil(root.scrollHeight);
    if (Math.abs(height - told) < 2) return;
    told = height;
    report(height);
  };
  const Observer = (win as Window & typeof globalThis).ResizeObserver;
  new Observer(() => {
    if (timer === undefined) timer = win.setTimeout(tell, QUIET_MS);
  }).observe(root);
}
