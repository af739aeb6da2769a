// The documents an extension's frontend draws into: the runtime frame's own (hidden but for what its code appends to
// its body: body-layer.ts), and one per surface
// (a drawer tab, a float widget, a modal…), each a frame of the same origin the app placed where the
// Workbench shows that surface. A surface's root is made at once in the runtime document (Lumiverse
// hands it back synchronously), kept in a hidden holder there, and moves into its frame when that frame
// attaches: the element keeps its listeners, `document.getElementById` finds what is in it wherever it
// is, and the extension's code keeps working on it as in Lumiverse's single page.
import { HeadStyles } from './head-styles';
import { InputListeners } from './input-listeners';

const BASE_CSS = `html, body { margin: 0; padding: 0; background: transparent; color: var(--lumiverse-text); font-family: var(--lumiverse-font-family, system-ui, sans-serif); font-size: 14px; }
body { overflow: auto; }
[data-spindle-extension-root] { min-height: 100%; box-sizing: border-box; }`;

export class FrameDocuments {
  private readonly roots = new Map<string, HTMLElement>();
  private readonly attached = new Map<string, Window>();
  private readonly styles = new Map<number, string>();
  private readonly styleElements = new Map<number, HTMLStyleElement[]>();
  private nextStyle = 1;
  private theme: Record<string, string> = {};
  private readonly waiting = new Map<string, Array<(win: Window) => void>>();
  /** Where roots wait while no frame shows them. */
  readonly holder: HTMLElement;
  /** Our own style elements in the runtime page's head (the rest there is the extension's). */
  private readonly ownStyles = new WeakSet<Element>();
  /** The extension's head styles, copied into each surface document (head-styles.ts). */
  private readonly headStyles: HeadStyles;
  /** Its code's input listeners on the runtime page, shared with each surface (input-listeners.ts). */
  readonly input = new InputListeners();

  constructor(private readonly runtime: Document) {
    this.prepare(runtime);
    this.holder = runtime.createElement('div');
    this.holder.hidden = true;
    runtime.body.appendChild(this.holder);
    this.extendRuntimeQueries();
    this.headStyles = new HeadStyles(runtime, (el) => this.ownStyles.has(el), () => this.documents().slice(1));
  }

  /** A surface's root: in the runtime document until its frame attaches. */
  root(surfaceId: string, extensionId: string): HTMLElement {
    const root = this.runtime.createElement('div');
    root.setAttribute('data-spindle-extension-root', '');
    root.setAttribute('data-extension-id', extensionId);
    this.roots.set(surfaceId, root);
    this.holder.appendChild(root);
    return root;
  }

  /** A surface frame loaded (frame-main.ts found this runtime): its root moves in. */
  attach(surfaceId: string, win: Window): boolean {
    const root = this.roots.get(surfaceId);
    if (!root) return false;
    this.attached.set(surfaceId, win);
    this.prepare(win.document);
    win.document.body.replaceChildren(root);
    this.input.attach(win);
    for (const resolve of this.waiting.get(surfaceId) ?? []) resolve(win);
    this.waiting.delete(surfaceId);
    return true;
  }

  /**
   * Its frame is going away (the app moved or closed the place): the root comes back to the runtime document
   * first. A document that shuts down drops the event listeners of every node still in it, so a root left
   * there would lose the listeners the extension put on it.
   */
  detach(surfaceId: string, win: Window): void {
    const root = this.roots.get(surfaceId);
    if (root && root.ownerDocument === win.document) this.holder.appendChild(root);
    if (this.attached.get(surfaceId) === win) this.attached.delete(surfaceId);
    this.input.detach(win);
    // Its document's copies of the head styles go with it (a closed frame's document is not kept for them).
    this.headStyles.sync();
  }

  /** The surface's window once it has attached. */
  whenAttached(surfaceId: string): Promise<Window> {
    const win = this.attached.get(surfaceId);
    if (win) return Promise.resolve(win);
    return new Promise((resolve) => this.waiting.set(surfaceId, [...(this.waiting.get(surfaceId) ?? []), resolve]));
  }

  forget(surfaceId: string): void {
    this.roots.get(surfaceId)?.remove();
    this.roots.delete(surfaceId);
    this.attached.delete(surfaceId);
    this.waiting.delete(surfaceId);
  }

  /** Every document of the extension, runtime first. */
  documents(): Document[] {
    const docs = [this.runtime];
    for (const win of this.attached.values()) {
      try {
        docs.push(win.document);
      } catch {
        // A frame the app removed meanwhile.
      }
    }
    return docs;
  }

  /** ctx.dom.addStyle: one stylesheet in every document of the extension, now and later. */
  addStyle(css: string): () => void {
    const id = this.nextStyle++;
    this.styles.set(id, css);
    this.styleElements.set(
      id,
      this.documents().map((doc) => this.styleElement(doc, css)),
    );
    return () => {
      this.styles.delete(id);
      for (const el of this.styleElements.get(id) ?? []) el.remove();
      this.styleElements.delete(id);
    };
  }

  /** The host theme's variables (--lumiverse-*), on every document. */
  setTheme(vars: Record<string, string>): void {
    this.theme = vars;
    for (const doc of this.documents()) this.applyTheme(doc);
  }

  themeVars(): Record<string, string> {
    return { ...this.theme };
  }

  query(selector: string): Element | null {
    for (const doc of this.documents()) {
      const found = doc.querySelector(selector);
      if (found) return found;
    }
    return null;
  }

  queryAll(selector: string): Element[] {
    return this.documents().flatMap((doc) => [...doc.querySelectorAll(selector)]);
  }

  private styleElement(doc: Document, css: string): HTMLStyleElement {
    const style = doc.createElement('style');
    style.textContent = css;
    if (doc === this.runtime) this.ownStyles.add(style);
    doc.head.appendChild(style);
    return style;
  }

  private prepare(doc: Document): void {
    this.styleElement(doc, BASE_CSS);
    this.applyTheme(doc);
    for (const [id, css] of this.styles) this.styleElements.get(id)?.push(this.styleElement(doc, css));
    if (doc !== this.runtime) this.headStyles.sync();
  }

  private applyTheme(doc: Document): void {
    for (const [name, value] of Object.entries(this.theme)) doc.documentElement.style.setProperty(name, value);
  }

  /**
   * `document.getElementById('x')` in the extension's code finds elements it put into its surfaces too,
   * as it would in Lumiverse's one page: the runtime document's lookups fall back to the surfaces.
   */
  private extendRuntimeQueries(): void {
    const doc = this.runtime;
    const own = { byId: doc.getElementById.bind(doc), one: doc.querySelector.bind(doc), all: doc.querySelectorAll.bind(doc) };
    const surfaces = () => this.documents().slice(1);
    Object.defineProperty(doc, 'getElementById', {
      configurable: true,
      value: (id: string) => own.byId(id) ?? surfaces().map((d) => d.getElementById(id)).find(Boolean) ?? null,
    });
    Object.defineProperty(doc, 'querySelector', {
      configurable: true,
      value: (selector: string) => own.one(selector) ?? surfaces().map((d) => d.querySelector(selector)).find(Boolean) ?? null,
    });
    Object.defineProperty(doc, 'querySelectorAll', {
      configurable: true,
      value: (selector: string) => [...own.all(selector), ...surfaces().flatMap((d) => [...d.querySelectorAll(selector)])],
    });
  }
}
