// What the person does in one of an extension's surfaces reaches the listeners its code put on its runtime page's
// document or window, as on Lumiverse's one page, where every surface is in that document: a click handled where it
// bubbles to the document (`document.addEventListener('click', (e) => e.target.closest(…))`), Escape on the window,
// the first click or key that starts a countdown. Each such listener is added to each surface's document or window
// too, so the event's target is the element the person used. Only its own surfaces: nothing of the app's reaches it.

/** Events of the person's input, which bubble (or are sent) to a document and its window. */
const INPUT_EVENTS = new Set([
  'click', 'dblclick', 'auxclick', 'contextmenu', 'mousedown', 'mouseup', 'mousemove', 'mouseover', 'mouseout',
  'pointerdown', 'pointerup', 'pointermove', 'pointerover', 'pointerout', 'pointercancel', 'wheel',
  'touchstart', 'touchmove', 'touchend', 'touchcancel', 'keydown', 'keyup', 'keypress', 'input', 'change', 'submit',
  'focusin', 'focusout', 'dragstart', 'dragenter', 'dragover', 'dragleave', 'drop', 'dragend', 'copy', 'cut', 'paste',
]);

type Where = 'document' | 'window';
type Options = boolean | AddEventListenerOptions | undefined;
interface Entry {
  where: Where;
  type: string;
  listener: EventListenerOrEventListenerObject;
  options: Options;
}

const capture = (options: Options | EventListenerOptions) => (typeof options === 'boolean' ? options : Boolean(options?.capture));
const targetIn = (win: Window, where: Where): EventTarget => (where === 'document' ? win.document : win);

export class InputListeners {
  private readonly entries: Entry[] = [];
  private readonly windows = new Set<Window>();

  /** From now on, input listeners added to `runtime`'s document or window are shared with the surfaces. */
  install(runtime: Window): void {
    this.share(runtime.document, 'document');
    this.share(runtime, 'window');
  }

  /** A surface's frame attached: it gets every input listener kept. */
  attach(win: Window): void {
    this.windows.add(win);
    for (const entry of this.entries) this.each([win], (w) => targetIn(w, entry.where).addEventListener(entry.type, entry.listener, entry.options));
  }

  detach(win: Window): void {
    this.windows.delete(win);
  }

  private share(target: EventTarget, where: Where): void {
    const add = target.addEventListener.bind(target);
    const remove = target.removeEventListener.bind(target);
    Object.defineProperty(target, 'addEventListener', {
      configurable: true,
      value: (type: string, listener: EventListenerOrEventListenerObject | null, options?: Options) => {
        add(type, listener, options);
        if (!listener || !INPUT_EVENTS.has(type)) return;
        this.entries.push({ where, type, listener, options });
        this.each(this.windows, (w) => targetIn(w, where).addEventListener(type, listener, options));
      },
    });
    Object.defineProperty(target, 'removeEventListener', {
      configurable: true,
      value: (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions) => {
        remove(type, listener, options);
        const at = this.entries.findIndex((e) => e.where === where && e.type === type && e.listener === listener && capture(e.options) === capture(options));
        if (at < 0) return;
        this.entries.splice(at, 1);
        this.each(this.windows, (w) => targetIn(w, where).removeEventListener(type, listener, options));
      },
    });
  }

  /** `act` on each window still there (a frame the app removed meanwhile is skipped). */
  private each(windows: Iterable<Window>, act: (win: Window) => void): void {
    for (const win of windows) {
      try {
        act(win);
      } catch {
        this.windows.delete(win);
      }
    }
  }
}
