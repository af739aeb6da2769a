// The extension's head styles, copied into every surface document. In Lumiverse's one page a style its code puts in
// the head styles everything it draws; here each surface is a document of its own, so each gets a copy of every
// <style> and stylesheet <link> there, in the same order, kept up to date as they are added, changed and removed.
// CSS-in-JS libraries in production (emotion, styled-components, JSS) leave their <style> empty and change its rules
// through the CSSOM, which no MutationObserver sees: a copy holds the original's rules as they are when it is made,
// a later insertRule or deleteRule on the sheet is repeated on the copies, and any other change of its rules (inside
// an @media, a keyframe, a rule's style) has the copies written again from the original's rules.
type Win = Window & typeof globalThis;

export class HeadStyles {
  /** original → what it was when copied, and its copy in each surface document. */
  private readonly copies = new Map<Element, { source: string; copies: Map<Document, Element> }>();
  /** Originals whose copies are written again at the next microtask. */
  private readonly stale = new Set<Element>();

  constructor(
    private readonly runtime: Document,
    /** Whether a head element is one of ours (not the extension's). */
    private readonly ours: (el: Element) => boolean,
    /** The surface documents shown now. */
    private readonly surfaces: () => Document[],
  ) {
    const win = runtime.defaultView as Win;
    new win.MutationObserver(() => this.sync()).observe(runtime.head, { childList: true, subtree: true, characterData: true, attributes: true });
    this.watchRules(win);
  }

  /** Brings every surface document's copies up to date (added, changed, removed). */
  sync(): void {
    const surfaces = this.surfaces();
    const originals = [...this.runtime.head.querySelectorAll('style, link[rel~="stylesheet"]')].filter((el) => !this.ours(el));
    for (const [original, entry] of this.copies) {
      if (originals.includes(original)) continue;
      for (const copy of entry.copies.values()) copy.remove();
      this.copies.delete(original);
    }
    for (const original of originals) {
      const source = `${original.outerHTML}${original.textContent ?? ''}`;
      let entry = this.copies.get(original);
      if (entry && entry.source !== source) {
        for (const copy of entry.copies.values()) copy.remove();
        entry = undefined;
      }
      if (!entry) this.copies.set(original, (entry = { source, copies: new Map() }));
      for (const [doc, copy] of entry.copies) {
        if (surfaces.includes(doc)) continue;
        entry.copies.delete(doc);
        copy.remove();
      }
    }
    // New copies go before the copy of the next original, so the cascade keeps the head's order.
    for (const doc of surfaces) {
      for (let i = originals.length - 1, next: Element | null = null; i >= 0; i--) {
        const entry = this.copies.get(originals[i]!)!;
        let copy = entry.copies.get(doc);
        if (!copy) {
          copy = copyOf(originals[i]!, doc);
          doc.head.insertBefore(copy, next);
          entry.copies.set(doc, copy);
        }
        next = copy;
      }
    }
  }

  /** Changes of the runtime page's rules, repeated on the copies or marking them stale. */
  private watchRules(win: Win): void {
    const sheetOf = (target: CSSStyleSheet | CSSRule | CSSStyleDeclaration | null): CSSStyleSheet | null => {
      if (!target) return null;
      if (target instanceof win.CSSStyleSheet) return target;
      if (target instanceof win.CSSRule) return target.parentStyleSheet;
      return sheetOf((target as CSSStyleDeclaration).parentRule);
    };
    const touched = (target: CSSStyleSheet | CSSRule | CSSStyleDeclaration) => this.markStale(sheetOf(target));
    const sheet = win.CSSStyleSheet.prototype;
    const insert = sheet.insertRule;
    const remove = sheet.deleteRule;
    const repeat = (original: CSSStyleSheet, change: (copy: CSSStyleSheet) => void) => {
      const entry = original.ownerNode ? this.copies.get(original.ownerNode as Element) : undefined;
      for (const copy of entry?.copies.values() ?? []) {
        const copied = (copy as HTMLStyleElement).sheet;
        try {
          if (copied) change(copied);
        } catch {
          // Refused by the copy's document: written again below.
        }
        if (copied?.cssRules.length !== original.cssRules.length) this.markStale(original);
      }
    };
    sheet.insertRule = function (this: CSSStyleSheet, rule: string, index?: number) {
      const at = insert.call(this, rule, index);
      repeat(this, (copy) => copy.insertRule(rule, at));
      return at;
    };
    sheet.deleteRule = function (this: CSSStyleSheet, index: number) {
      remove.call(this, index);
      repeat(this, (copy) => copy.deleteRule(index));
    };
    after(sheet, 'addRule', touched);
    after(sheet, 'removeRule', touched);
    after(win.CSSGroupingRule?.prototype, 'insertRule', touched);
    after(win.CSSGroupingRule?.prototype, 'deleteRule', touched);
    after(win.CSSKeyframesRule?.prototype, 'appendRule', touched);
    after(win.CSSKeyframesRule?.prototype, 'deleteRule', touched);
    // A rule's own style (JSS sets its dynamic values so); an element's inline style has no parent rule.
    after(win.CSSStyleDeclaration.prototype, 'setProperty', (style) => style.parentRule && touched(style));
    after(win.CSSStyleDeclaration.prototype, 'removeProperty', (style) => style.parentRule && touched(style));
  }

  /** The sheet's copies are written again from its rules, once, after whatever else changes now. */
  private markStale(sheet: CSSStyleSheet | null): void {
    const owner = sheet?.ownerNode as Element | null | undefined;
    if (!owner || !this.copies.has(owner)) return;
    if (!this.stale.size) queueMicrotask(() => this.rewrite());
    this.stale.add(owner);
  }

  private rewrite(): void {
    for (const original of this.stale) {
      const text = rulesOf(original);
      for (const copy of this.copies.get(original)?.copies.values() ?? []) if (text !== null) copy.textContent = text;
    }
    this.stale.clear();
  }
}

/** Runs `then` on the object after each call of its method (the method's own work and answer unchanged). */
function after<T extends object>(proto: T | undefined, name: string, then: (self: T) => unknown): void {
  if (!proto) return;
  const method = (proto as Record<string, unknown>)[name];
  if (typeof method !== 'function') return;
  (proto as Record<string, unknown>)[name] = function (this: T, ...args: unknown[]) {
    const result: unknown = method.apply(this, args);
    then(this);
    return result;
  };
}

/** The rules a <style>'s sheet holds now, as text; null for anything else. */
function rulesOf(original: Element): string | null {
  const sheet = original instanceof (original.ownerDocument.defaultView as Win).HTMLStyleElement ? original.sheet : null;
  return sheet ? [...sheet.cssRules].map((rule) => rule.cssText).join('\n') : null;
}

/** A surface document's copy: a stylesheet link as it is, a <style> with the rules its sheet holds now. */
function copyOf(original: Element, doc: Document): Element {
  const text = rulesOf(original);
  if (text === null) return doc.importNode(original, true);
  const copy = doc.importNode(original, false);
  copy.textContent = text;
  return copy;
}
