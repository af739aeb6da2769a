// The extension's head styles, copied into every surface document. In Lumiverse's one page a style its code puts in
// the head styles everything it draws; here each surface is a document of its own, so each gets a copy of every
// <style> and stylesheet <link> there, kept up to date as they are added, changed and removed. CSS-in-JS libraries
// in production (emotion, styled-components) leave their <style> empty and add rules through the CSSOM, which no
// MutationObserver sees: a copy holds the original's rules as they are when it is made, and each later insertRule
// or deleteRule on an original is repeated on its copies.
export class HeadStyles {
  /** original → what it was when copied, and its copy in each surface document. */
  private readonly copies = new Map<Element, { source: string; copies: Map<Document, Element> }>();

  constructor(
    private readonly runtime: Document,
    /** Whether a head element is one of ours (not the extension's). */
    private readonly ours: (el: Element) => boolean,
    /** The surface documents shown now. */
    private readonly surfaces: () => Document[],
  ) {
    const win = runtime.defaultView as Window & typeof globalThis;
    new win.MutationObserver(() => this.sync()).observe(runtime.head, { childList: true, subtree: true, characterData: true, attributes: true });
    this.repeatRuleChanges(win);
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
      for (const doc of surfaces) {
        if (entry.copies.has(doc)) continue;
        const copy = copyOf(original, doc);
        doc.head.appendChild(copy);
        entry.copies.set(doc, copy);
      }
    }
  }

  /** The runtime window's insertRule and deleteRule, repeated on the copies of the sheet's <style>. */
  private repeatRuleChanges(win: Window & typeof globalThis): void {
    const proto = win.CSSStyleSheet.prototype;
    const insert = proto.insertRule;
    const remove = proto.deleteRule;
    const repeat = (sheet: CSSStyleSheet, change: (copy: CSSStyleSheet) => void) => {
      const entry = sheet.ownerNode ? this.copies.get(sheet.ownerNode as Element) : undefined;
      for (const [doc, copy] of entry?.copies ?? []) {
        const copied = (copy as HTMLStyleElement).sheet;
        try {
          if (copied) change(copied);
        } catch {
          // Out of step (a rule this document refuses): the copy is made again from the original's rules.
          copy.remove();
          entry!.copies.delete(doc);
          queueMicrotask(() => this.sync());
        }
      }
    };
    proto.insertRule = function (this: CSSStyleSheet, rule: string, index?: number) {
      const at = insert.call(this, rule, index);
      repeat(this, (copy) => copy.insertRule(rule, at));
      return at;
    };
    proto.deleteRule = function (this: CSSStyleSheet, index: number) {
      remove.call(this, index);
      repeat(this, (copy) => copy.deleteRule(index));
    };
  }
}

/** A surface document's copy: a stylesheet link as it is, a <style> with the rules its sheet holds now. */
function copyOf(original: Element, doc: Document): Element {
  const sheet = original instanceof (original.ownerDocument.defaultView as Window & typeof globalThis).HTMLStyleElement ? original.sheet : null;
  if (!sheet) return doc.importNode(original, true);
  const copy = doc.importNode(original, false);
  copy.textContent = [...sheet.cssRules].map((rule) => rule.cssText).join('\n');
  return copy;
}
