// Takes WebRTC and WebTransport out of an extension frame's realm, and out of every same-origin frame it makes,
// before its code runs. CSP does not govern WebRTC. Where the browser enforces the frames' Connection-Allowlist
// header (shared/csp.ts; Chromium as shipped today), that header is what keeps packets in. This seal is the layer for
// browsers that do not enforce it yet (and for the desktop app beside its session proxy), and it keeps extension code
// off a path where Chromium crashes the whole window: WebRTC in an about:blank child of a page with that header.
//
// Resource hints too: a <link rel="preconnect"> opens a connection and a dns-prefetch looks a name up (either can
// carry text out in the name), and CSP governs neither. Where the header is not enforced (Debian's Chromium 150), a
// hint never reaches a document: its rel tokens are taken out of every link before it is placed (nodes, and HTML
// strings parsed first in an inert template), and a placed link cannot be given them (rel, relList, attributes).
// Left: an HTML string split across document.write calls in the middle of a link tag.
//
// Self-contained on purpose (no imports, nothing from module scope): the build also inlines its source into the
// sandbox page (renderer/public/sandbox.html), which may run inline script only.
export function sealNetwork(root: Window): void {
  const sealedDocs = new WeakSet<Document>();
  const NETWORK = /^(webkit)?RTC|^WebTransport/;
  const HINT = /^(preconnect|dns-prefetch|prefetch|prerender)$/i;
  const hintless = (rel: unknown) =>
    String(rel)
      .split(/\s+/)
      .filter((token) => token && !HINT.test(token))
      .join(' ');
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

  // Methods and setters whose arguments are HTML strings (by position; -1: every argument), parsed before placing.
  const HTML_ARGS: Record<string, number> = { innerHTML: 0, outerHTML: 0, setHTMLUnsafe: 0, insertAdjacentHTML: 1, write: -1, writeln: -1, execCommand: 2, srcdoc: 0 };
  const TEXT_ONLY = new Set(['innerText', 'outerText', 'src', 'data', 'contentWindow', 'contentDocument']);

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
    const elementProto = (global.Element as typeof Element).prototype;
    const setAttribute = elementProto.setAttribute;
    const removeAttribute = elementProto.removeAttribute;
    const templateHtml = Object.getOwnPropertyDescriptor(elementProto, 'innerHTML')!;
    const isLink = (node: unknown): node is Element => !!node && (node as Element).nodeType === 1 && (node as Element).localName === 'link';
    const unhint = (link: Element) => {
      const rel = link.getAttribute('rel');
      if (rel === null || hintless(rel) === rel.trim().split(/\s+/).join(' ')) return;
      const kept = hintless(rel);
      if (kept) setAttribute.call(link, 'rel', kept);
      else removeAttribute.call(link, 'rel');
    };
    const scrub = (node: unknown) => {
      if (!node || typeof node !== 'object') return;
      if (isLink(node)) unhint(node);
      const n = node as ParentNode & { nodeType?: number };
      if ((n.nodeType === 1 || n.nodeType === 9 || n.nodeType === 11) && typeof n.querySelectorAll === 'function') n.querySelectorAll('link[rel]').forEach(unhint);
    };
    // HTML parsed in an inert template (its links load nothing), scrubbed, and given on as markup.
    // Only markup that may hold a hint is parsed (a link, and a hint's name or an entity that could spell one); a
    // page's doctype is kept in front.
    const cleanHtml = (html: unknown) => {
      if (typeof html !== 'string' || !/<link/i.test(html) || !/preconnect|prefetch|prerender|&/i.test(html)) return html;
      const doctype = /^\s*<!doctype[^>]*>/i.exec(html)?.[0] ?? '';
      const template = doc.createElement('template');
      templateHtml.set!.call(template, html.slice(doctype.length));
      scrub((template as HTMLTemplateElement).content);
      return doctype + (templateHtml.get!.call(template) as string);
    };
    const cleanArgs = (key: string, args: unknown[]) => {
      if (TEXT_ONLY.has(key)) return args;
      if (key in HTML_ARGS) return args.map((arg, i) => (HTML_ARGS[key] === -1 || HTML_ARGS[key] === i ? cleanHtml(arg) : arg));
      args.forEach(scrub);
      return args;
    };
    // A placed link is given no hint: its rel, relList and attributes refuse the tokens.
    const linkProto = (global.HTMLLinkElement as typeof HTMLLinkElement | undefined)?.prototype;
    const relLists = new WeakSet<object>();
    const relDescriptor = linkProto && Object.getOwnPropertyDescriptor(linkProto, 'rel');
    if (linkProto && relDescriptor?.set) Object.defineProperty(linkProto, 'rel', { ...relDescriptor, set(value: unknown) { relDescriptor.set!.call(this, hintless(value)); } });
    const relListDescriptor = linkProto && Object.getOwnPropertyDescriptor(linkProto, 'relList');
    if (linkProto && relListDescriptor?.get) {
      Object.defineProperty(linkProto, 'relList', { ...relListDescriptor, get() { const list = relListDescriptor.get!.call(this) as object; relLists.add(list); return list; } });
      const tokens = (global.DOMTokenList as typeof DOMTokenList).prototype;
      for (const key of ['add', 'toggle', 'replace', 'value'] as const) {
        const d = Object.getOwnPropertyDescriptor(tokens, key);
        if (!d?.configurable) continue;
        // The tokens each call would add: add's all, replace's second, toggle's first.
        const added = (args: unknown[]) => (key === 'add' ? args : key === 'replace' ? args.slice(1, 2) : args.slice(0, 1));
        if (typeof d.value === 'function') {
          Object.defineProperty(tokens, key, {
            ...d,
            value(this: object, ...args: unknown[]) {
              if (relLists.has(this) && added(args).some((token) => HINT.test(String(token)))) return false;
              return (d.value as (...a: unknown[]) => unknown).apply(this, args);
            },
          });
        }
        else if (d.set) Object.defineProperty(tokens, key, { ...d, set(this: object, value: unknown) { d.set!.call(this, relLists.has(this) ? hintless(value) : value); } });
      }
    }
    const attributeGuard = (name: unknown, value: unknown, owner: unknown) => (isLink(owner) && String(name).toLowerCase() === 'rel' ? hintless(value) : value);
    for (const key of ['setAttribute', 'setAttributeNS'] as const) {
      const original = elementProto[key] as (...a: unknown[]) => unknown;
      Object.defineProperty(elementProto, key, { value(this: Element, ...args: unknown[]) { const last = args.length - 1; args[last] = attributeGuard(args[last - 1], args[last], this); return original.apply(this, args); }, writable: true, configurable: true });
    }
    // An attribute node given to a link (or to its attributes map) loses its hint before it is set.
    const attrProto = (global.Attr as typeof Attr).prototype;
    const attrValue = Object.getOwnPropertyDescriptor(attrProto, 'value')!;
    for (const key of ['value', 'nodeValue', 'textContent'] as const) {
      const d = Object.getOwnPropertyDescriptor(attrProto, key) ?? Object.getOwnPropertyDescriptor((global.Node as typeof Node).prototype, key);
      if (!d?.set || !d.configurable) continue;
      Object.defineProperty(attrProto, key, { ...d, set(this: Attr, value: unknown) { d.set!.call(this, attributeGuard(this.name, value, this.ownerElement)); } });
    }
    const owners = new WeakMap<object, Element>();
    const attributes = Object.getOwnPropertyDescriptor(elementProto, 'attributes');
    if (attributes?.get) Object.defineProperty(elementProto, 'attributes', { ...attributes, get(this: Element) { const map = attributes.get!.call(this) as object; owners.set(map, this); return map; } });
    const mapProto = (global.NamedNodeMap as typeof NamedNodeMap).prototype;
    for (const [proto, keys, ownerOf] of [
      [elementProto, ['setAttributeNode', 'setAttributeNodeNS'], (self: object) => self],
      [mapProto, ['setNamedItem', 'setNamedItemNS'], (self: object) => owners.get(self)],
    ] as const) {
      for (const key of keys) {
        const original = (proto as unknown as Record<string, (...a: unknown[]) => unknown>)[key];
        if (typeof original !== 'function') continue;
        Object.defineProperty(proto, key, {
          value(this: object, attr: Attr) {
            if (attr && typeof attr === 'object' && 'name' in attr) attrValue.set!.call(attr, attributeGuard(attr.name, attr.value, ownerOf(this)));
            return original.call(this, attr);
          },
          writable: true,
          configurable: true,
        });
      }
    }
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
    // Each placing call: its nodes and HTML freed of hints first, the frames it made sealed after.
    const around = (key: string, fn: (...args: unknown[]) => unknown) =>
      function (this: unknown, ...args: unknown[]) {
        try {
          return fn.apply(this, cleanArgs(key, args));
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
        if (typeof d.value === 'function') Object.defineProperty(proto, key, { ...d, value: around(key, d.value as (...args: unknown[]) => unknown) });
        else if (d.get || d.set) {
          const get = d.get;
          Object.defineProperty(proto, key, {
            ...d,
            ...(get ? { get: (key.startsWith('content') ? function (this: unknown) { sealChildren(); return get.call(this); } : get) } : {}),
            ...(d.set ? { set: around(key, d.set as (...args: unknown[]) => unknown) } : {}),
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
