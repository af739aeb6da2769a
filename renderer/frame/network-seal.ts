// Takes WebRTC and WebTransport out of an extension frame's realm, and out of every same-origin frame it makes,
// before its code runs. CSP does not govern WebRTC. Where the browser enforces the frames' Connection-Allowlist
// header (shared/csp.ts; Chromium as shipped today), that header is what keeps packets in. This seal is the layer for
// browsers that do not enforce it yet (and for the desktop app beside its session proxy), and it keeps extension code
// off a path where Chromium crashes the whole window: WebRTC in an about:blank child of a page with that header.
//
// Self-contained on purpose (no imports, nothing from module scope): the build also inlines its source into the
// sandbox page (renderer/public/sandbox.html), which may run inline script only.
export function sealNetwork(root: Window): void {
  const sealedDocs = new WeakSet<Document>();
  const NETWORK = /^(webkit)?RTC|^WebTransport/;
  // Every way a page puts nodes (and so frames) into its document; wrapped so its frames are sealed right after.
  const INSERTING: Record<string, string[]> = {
    Node: ['appendChild', 'insertBefore', 'replaceChild'],
    Element: ['append', 'prepend', 'after', 'before', 'replaceWith', 'replaceChildren', 'insertAdjacentElement', 'insertAdjacentHTML', 'innerHTML', 'outerHTML', 'setHTMLUnsafe', 'moveBefore'],
    CharacterData: ['after', 'before', 'replaceWith'],
    Document: ['write', 'writeln', 'append', 'prepend', 'replaceChildren', 'execCommand'],
    ShadowRoot: ['innerHTML', 'setHTMLUnsafe', 'append', 'prepend', 'replaceChildren'],
    Range: ['insertNode', 'surroundContents'],
    HTMLElement: ['innerText', 'outerText'],
    HTMLIFrameElement: ['src', 'srcdoc', 'contentWindow', 'contentDocument'],
    HTMLObjectElement: ['data', 'contentWindow', 'contentDocument'],
    HTMLEmbedElement: ['src'],
  };

  const seal = (win: Window): void => {
    let doc: Document;
    try {
      doc = win.document;
    } catch {
      return; // another origin's frame: not reachable from here, and our own frames seal themselves
    }
    if (sealedDocs.has(doc)) return;
    sealedDocs.add(doc);
    const global = win as unknown as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(win)) {
      if (NETWORK.test(name)) {
        try {
          delete global[name];
        } catch {
          // a non-configurable global stays; the Connection-Allowlist header still holds it
        }
      }
    }
    const sealChildren = () => {
      for (let i = 0; i < win.length; i++) seal(win[i] as Window);
    };
    const after = <T extends (...args: never[]) => unknown>(fn: T) =>
      function (this: unknown, ...args: Parameters<T>) {
        try {
          return fn.apply(this, args);
        } finally {
          sealChildren();
        }
      };
    for (const [ctor, keys] of Object.entries(INSERTING)) {
      const proto = (global[ctor] as { prototype?: object } | undefined)?.prototype;
      if (!proto) continue;
      for (const key of keys) {
        const d = Object.getOwnPropertyDescriptor(proto, key);
        if (!d?.configurable) continue;
        if (typeof d.value === 'function') Object.defineProperty(proto, key, { ...d, value: after(d.value as (...args: never[]) => unknown) });
        else if (d.get || d.set) {
          const get = d.get;
          Object.defineProperty(proto, key, {
            ...d,
            ...(get ? { get: (key.startsWith('content') ? function (this: unknown) { sealChildren(); return get.call(this); } : get) } : {}),
            ...(d.set ? { set: after(d.set as (...args: never[]) => unknown) } : {}),
          });
        }
      }
    }
    // The backstop for a path not listed: frames found after the fact, and each frame's new page once it loads.
    new (global.MutationObserver as typeof MutationObserver)(sealChildren).observe(doc, { childList: true, subtree: true });
    doc.addEventListener('load', sealChildren, true);
    sealChildren();
  };
  seal(root);
}
