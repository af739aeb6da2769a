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
  capture: boolean;
  options: Options;
  /** What is added to each target: the listener, or for a `once` one a stand-in that takes it out everywhere. */
  added: EventListenerOrEventListenerObject;
  /** Its signal's abort, heard until the entry goes. */
  ended?: { signal: AbortSignal; drop: () => void };
}

const captureOf = (options: Options | EventListenerOptions) => (typeof options === 'boolean' ? options : Boolean(options?.capture));
const targetIn = (win: Window, where: Where): EventTarget => (where === 'document' ? win.document : win);
const call = (listener: EventListenerOrEventListenerObject, self: unknown, event: Event) =>
  typeof listener === 'function' ? listener.call(self, event) : listener.handleEvent(event);

export class InputListeners {
  private readonly entries: Entry[] = [];
  private readonly windows = new Set<Window>();
  /** The runtime page's own adding and removing, by where. */
  private readonly natives = new Map<Where, { add: EventTarget['addEventListener']; remove: EventTarget['removeEventListener'] }>();

  /** From now on, input listeners added to `runtime`'s document or window are shared with the surfaces. */
  install(runtime: Window): void {
    this.share(runtime.document, 'document');
    this.share(runtime, 'window');
  }

  /** A surface's frame attached: it gets every input listener kept. */
  attach(win: Window): void {
    this.windows.add(win);
    for (const entry of this.entries) this.each([win], (w) => targetIn(w, entry.where).addEventListener(entry.type, entry.added, entry.options));
  }

  detach(win: Window): void {
    this.windows.delete(win);
  }

  private share(target: EventTarget, where: Where): void {
    const native = { add: target.addEventListener.bind(target), remove: target.removeEventListener.bind(target) };
    this.natives.set(where, native);
    Object.defineProperty(target, 'addEventListener', {
      configurable: true,
      value: (type: string, listener: EventListenerOrEventListenerObject | null, options?: Options) => {
        const signal = typeof options === 'object' ? options.signal : undefined;
        // Already there: the platform keeps one, so nothing changes (a once one stays once).
        if (listener && this.find(where, type, listener, captureOf(options))) return;
        // Not input, nothing to call, or already ended: the page's own answer.
        if (!listener || !INPUT_EVENTS.has(type) || signal?.aborted) return native.add(type, listener, options);
        const entry: Entry = { where, type, listener, capture: captureOf(options), options, added: listener };
        if (typeof options === 'object' && options.once) {
          // Once in all its documents: the first that hears it takes it out of the others.
          entry.added = (event: Event) => {
            this.drop(entry);
            call(listener, event.currentTarget, event);
          };
        }
        if (signal) {
          entry.ended = { signal, drop: () => this.drop(entry) };
          signal.addEventListener('abort', entry.ended.drop, { once: true });
        }
        this.entries.push(entry);
        native.add(type, entry.added, options);
        this.each(this.windows, (w) => targetIn(w, where).addEventListener(type, entry.added, options));
      },
    });
    Object.defineProperty(target, 'removeEventListener', {
      configurable: true,
      value: (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions) => {
        const entry = listener ? this.find(where, type, listener, captureOf(options)) : undefined;
        if (entry) this.drop(entry);
        else native.remove(type, listener, options);
      },
    });
  }

  private find(where: Where, type: string, listener: EventListenerOrEventListenerObject, capture: boolean): Entry | undefined {
    return this.entries.find((e) => e.where === where && e.type === type && e.listener === listener && e.capture === capture);
  }

  /** Out of the page and every surface, and forgotten. */
  private drop(entry: Entry): void {
    const at = this.entries.indexOf(entry);
    if (at < 0) return;
    this.entries.splice(at, 1);
    entry.ended?.signal.removeEventListener('abort', entry.ended.drop);
    this.natives.get(entry.where)?.remove(entry.type, entry.added, entry.capture);
    this.each(this.windows, (w) => targetIn(w, entry.where).removeEventListener(entry.type, entry.added, entry.capture));
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
