// Takes WebRTC and WebTransport out of an extension frame's realm, and out of every same-origin frame it makes,
// before its code runs. CSP does not govern WebRTC. Where the browser enforces the frames' Connection-Allowlist
// header (shared/csp.ts; Chromium 156), that header is what keeps packets in. This seal is the layer for browsers
// that do not enforce it (Debian's Chromium 150; the desktop app beside its session proxy), and it keeps extension
// code off a path where Chromium crashes the whole window: WebRTC in an about:blank child of a page with that header.
//
// Resource hints too: a <link rel="preconnect"> opens a connection and a dns-prefetch looks a name up (either can
// carry text out in the name), and CSP governs neither. Without the header, a hint never reaches a document: its rel
// tokens are taken out of every link before it is placed (nodes, srcdoc, and HTML strings parsed first in an inert
// template), and a placed link cannot be given them (rel, relList, attributes and attribute nodes). Left: an HTML
// string split across separate document.write calls in the middle of a link tag.
//
// The page's code runs after the seal and may replace any built-in (RegExp.prototype.exec, WeakSet.prototype.has,
// Function.prototype.apply, a getter…): the seal keeps its own copies of all it uses, taken before, and calls them
// with Reflect.apply; it uses no regular expression, iterator or array method once the page runs.
//
// Self-contained on purpose (no imports, nothing from module scope): the build also inlines its source into the
// sandbox page (renderer/public/sandbox.html), which may run inline script only.
export function sealNetwork(root: Window): void {
  type Fn = (...args: unknown[]) => unknown;
  const O = Object;
  const describe = O.getOwnPropertyDescriptor;
  const define = O.defineProperty;
  const ownNames = O.getOwnPropertyNames;
  const apply = Reflect.apply;
  const Str = String;
  const weakSetHas = WeakSet.prototype.has;
  const weakSetAdd = WeakSet.prototype.add;
  const weakMapGet = WeakMap.prototype.get;
  const weakMapSet = WeakMap.prototype.set;
  const lower = String.prototype.toLowerCase;
  const indexOf = String.prototype.indexOf;
  const slice = String.prototype.slice;
  const startsWith = String.prototype.startsWith;
  const call = (fn: unknown, self: unknown, ...args: unknown[]) => apply(fn as Fn, self, args);
  const lc = (x: unknown) => call(lower, Str(x)) as string;

  const sealedDocs = new WeakSet<Document>();
  // Shared by every realm the seal covers: a child frame's prototypes applied to this page's objects meet the same.
  const relLists = new WeakSet<object>();
  const owners = new WeakMap<object, Element>();
  // Tables without a prototype: a property the page adds to Object.prototype is not in them.
  const table = <T>(entries: Record<string, T>): Record<string, T> => O.assign(O.create(null) as Record<string, T>, entries);
  const HINTS = table({ preconnect: true, 'dns-prefetch': true, prefetch: true, prerender: true });
  const NETWORK_PREFIXES = ['RTC', 'webkitRTC', 'WebTransport'];
  const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\f' || c === '\r';
  /** `rel` without its hint tokens, and whether it had any. */
  const hintless = (rel: unknown): { kept: string; had: boolean } => {
    const text = Str(rel);
    let kept = '';
    let had = false;
    let token = '';
    for (let i = 0; i <= text.length; i++) {
      const c = i < text.length ? text[i]! : ' ';
      if (!isSpace(c)) {
        token += c;
        continue;
      }
      if (token && HINTS[lc(token)] === true) had = true;
      else if (token) kept = kept ? `${kept} ${token}` : token;
      token = '';
    }
    return { kept, had };
  };
  // Every way a page puts nodes (and so frames) into its document; wrapped so what it places is freed of hints first
  // and its frames are sealed right after.
  const INSERTING: Array<[string, string[]]> = [
    ['Node', ['appendChild', 'insertBefore', 'replaceChild']],
    ['Element', ['append', 'prepend', 'after', 'before', 'replaceWith', 'replaceChildren', 'insertAdjacentElement', 'insertAdjacentHTML', 'innerHTML', 'outerHTML', 'setHTMLUnsafe', 'moveBefore']],
    ['CharacterData', ['after', 'before', 'replaceWith']],
    ['Document', ['write', 'writeln', 'append', 'prepend', 'replaceChildren', 'execCommand', 'body']],
    ['ShadowRoot', ['innerHTML', 'setHTMLUnsafe', 'append', 'prepend', 'replaceChildren']],
    ['Range', ['insertNode', 'surroundContents']],
    ['HTMLElement', ['innerText', 'outerText']],
    ['HTMLTableElement', ['caption', 'tHead', 'tFoot']],
    ['HTMLIFrameElement', ['src', 'srcdoc', 'contentWindow', 'contentDocument']],
    ['HTMLObjectElement', ['data', 'contentWindow', 'contentDocument']],
    ['HTMLEmbedElement', ['src']],
  ];
  // Arguments that are HTML strings (by position; -1: all of them, joined: one document.write call's markup).
  const HTML_ARGS = table<number>({ innerHTML: 0, outerHTML: 0, setHTMLUnsafe: 0, insertAdjacentHTML: 1, write: -1, writeln: -1, execCommand: 2, srcdoc: 0 });
  const NO_NODES = table({ innerText: true, outerText: true, src: true, data: true, contentWindow: true, contentDocument: true });
  // Only the node being placed, not the one it goes before or replaces.
  const FIRST_ONLY = table({ insertBefore: true, replaceChild: true });

  const seal = (win: Window): void => {
    let doc: Document;
    try {
      doc = win.document;
    } catch {
      return; // another origin's frame: not reachable from here, and our own frames seal themselves
    }
    if (call(weakSetHas, sealedDocs, doc)) return;
    call(weakSetAdd, sealedDocs, doc);
    const global = win as unknown as Record<string, { prototype?: object } | undefined>;
    const proto = (name: string) => global[name]?.prototype as Record<string, unknown> | undefined;
    const getter = (p: object | undefined, key: string) => (p ? describe(p, key)?.get : undefined);
    const elementProto = proto('Element')!;
    const nodeProto = proto('Node')!;
    const fns = {
      setAttribute: elementProto.setAttribute as Fn,
      removeAttribute: elementProto.removeAttribute as Fn,
      getAttribute: elementProto.getAttribute as Fn,
      qsaElement: elementProto.querySelectorAll as Fn,
      qsaDocument: proto('Document')!.querySelectorAll as Fn,
      qsaFragment: proto('DocumentFragment')!.querySelectorAll as Fn,
      createElement: proto('Document')!.createElement as Fn,
      nodeType: getter(nodeProto, 'nodeType')!,
      localName: getter(elementProto, 'localName')!,
      listLength: getter(proto('NodeList'), 'length')!,
      templateContent: getter(proto('HTMLTemplateElement'), 'content')!,
      innerHTML: describe(elementProto, 'innerHTML')!,
      attrName: getter(proto('Attr'), 'name')!,
      attrOwner: getter(proto('Attr'), 'ownerElement')!,
      attrValue: describe(proto('Attr')!, 'value')!,
      windowLength: getter(win, 'length') ?? describe(win, 'length')?.get,
    };
    const typeOf = (node: unknown) => (node && typeof node === 'object' ? (call(fns.nodeType, node) as number) : 0);
    const isLink = (node: unknown): node is Element => typeOf(node) === 1 && call(fns.localName, node) === 'link';
    const attr = (el: Element, name: string) => call(fns.getAttribute, el, name) as string | null;

    /** Takes the hint tokens out of a link's rel; true when it had any. */
    const unhint = (link: Element): boolean => {
      const rel = attr(link, 'rel');
      if (rel === null) return false;
      const { kept, had } = hintless(rel);
      if (!had) return false;
      if (kept) call(fns.setAttribute, link, 'rel', kept);
      else call(fns.removeAttribute, link, 'rel');
      return true;
    };
    /** Every link and srcdoc frame in `node` (and `node` itself) freed of hints; how many it changed. */
    const scrub = (node: unknown): number => {
      const type = typeOf(node);
      if (type !== 1 && type !== 9 && type !== 11) return 0;
      let changed = type === 1 && isLink(node) && unhint(node) ? 1 : 0;
      const qsa = type === 1 ? fns.qsaElement : type === 9 ? fns.qsaDocument : fns.qsaFragment;
      const links = call(qsa, node, 'link[rel]') as NodeListOf<Element>;
      const count = call(fns.listLength, links) as number;
      for (let i = 0; i < count; i++) if (unhint(links[i]!)) changed++;
      const frames = call(qsa, node, 'iframe[srcdoc]') as NodeListOf<Element>;
      const frameCount = call(fns.listLength, frames) as number;
      for (let i = 0; i < frameCount; i++) {
        const srcdoc = attr(frames[i]!, 'srcdoc')!;
        const clean = cleanHtml(srcdoc);
        if (clean !== srcdoc) {
          call(fns.setAttribute, frames[i], 'srcdoc', clean);
          changed++;
        }
      }
      return changed;
    };
    const hasText = (text: string) => {
      for (let i = 0; i < text.length; i++) if (!isSpace(text[i]!)) return true;
      return false;
    };
    /** HTML with a hint in it, parsed in an inert template, scrubbed and given on as markup (its doctype kept in front); any other as it was. */
    const cleanHtml = (html: unknown): unknown => {
      if (typeof html !== 'string') return html;
      const lowered = lc(html);
      if ((call(indexOf, lowered, '<link') as number) < 0) return html;
      const start = call(indexOf, lowered, '<!doctype') as number;
      const doctype = start >= 0 && !hasText(call(slice, html, 0, start) as string) ? (call(slice, html, 0, (call(indexOf, html, '>', start) as number) + 1) as string) : '';
      const template = call(fns.createElement, doc, 'template') as HTMLTemplateElement;
      call(fns.innerHTML.set!, template, call(slice, html, doctype.length));
      if (scrub(call(fns.templateContent, template)) === 0) return html;
      return doctype + (call(fns.innerHTML.get!, template) as string);
    };
    const cleanArgs = (key: string, args: unknown[]): unknown[] => {
      if (NO_NODES[key] === true) return args;
      const html = HTML_ARGS[key];
      if (html === -1) {
        let joined = '';
        for (let i = 0; i < args.length; i++) joined += Str(args[i]);
        return [cleanHtml(joined)];
      }
      if (html !== undefined) {
        if (args.length > html) args[html] = cleanHtml(args[html]);
        return args;
      }
      for (let i = 0; i < (FIRST_ONLY[key] === true ? 1 : args.length); i++) scrub(args[i]);
      return args;
    };

    // A placed link is given no hint: its rel, relList, attributes and attribute nodes refuse the tokens.
    const linkProto = proto('HTMLLinkElement');
    const relSet = linkProto && describe(linkProto, 'rel')?.set;
    if (linkProto && relSet) define(linkProto, 'rel', { ...describe(linkProto, 'rel'), set(value: unknown) { call(relSet, this, hintless(value).kept); } });
    const relListGet = getter(linkProto, 'relList');
    if (linkProto && relListGet) {
      define(linkProto, 'relList', { ...describe(linkProto, 'relList'), get() { const list = call(relListGet, this) as object; call(weakSetAdd, relLists, list); return list; } });
      const tokens = proto('DOMTokenList')!;
      const tokenKeys = ['add', 'toggle', 'replace', 'value'];
      for (let k = 0; k < tokenKeys.length; k++) {
        const key = tokenKeys[k]!;
        const d = describe(tokens, key);
        if (!d?.configurable) continue;
        if (typeof d.value === 'function') {
          const original = d.value as Fn;
          define(tokens, key, {
            ...d,
            value(this: object, ...args: unknown[]) {
              if (call(weakSetHas, relLists, this)) {
                // The tokens the call would add: add's all, replace's second, toggle's first.
                const from = key === 'replace' ? 1 : 0;
                const to = key === 'add' ? args.length : from + 1;
                for (let i = from; i < to && i < args.length; i++) if (hintless(args[i]).had) return false;
              }
              return apply(original, this, args);
            },
          });
        } else if (d.set) {
          const set = d.set;
          define(tokens, key, { ...d, set(this: object, value: unknown) { call(set, this, call(weakSetHas, relLists, this) ? hintless(value).kept : value); } });
        }
      }
    }
    /** The value an attribute of `owner` named `name` may take: a link's rel without hints, a srcdoc without any. */
    const guarded = (name: string, value: unknown, owner: unknown) => {
      const n = lc(name);
      if (n === 'rel' && isLink(owner)) return hintless(value).kept;
      if (n === 'srcdoc') return cleanHtml(Str(value));
      return value;
    };
    const setters = ['setAttribute', 'setAttributeNS'];
    for (let k = 0; k < setters.length; k++) {
      const key = setters[k]!;
      const original = elementProto[key] as Fn;
      define(elementProto, key, {
        value(this: Element, ...args: unknown[]) {
          const last = args.length - 1;
          if (last >= 1) {
            // The name read once, as the string it is set under (an object could answer differently each time).
            args[last - 1] = Str(args[last - 1]);
            args[last] = guarded(args[last - 1] as string, args[last], this);
          }
          return apply(original, this, args);
        },
        writable: true,
        configurable: true,
      });
    }
    // An attribute node's value set directly (value on Attr, nodeValue and textContent on Node).
    const values: Array<[object, string]> = [[proto('Attr')!, 'value'], [nodeProto, 'nodeValue'], [nodeProto, 'textContent']];
    for (let k = 0; k < values.length; k++) {
      const p = values[k]![0];
      const key = values[k]![1];
      const d = describe(p, key);
      if (!d?.set || !d.configurable) continue;
      const set = d.set;
      define(p, key, { ...d, set(this: Node, value: unknown) { call(set, this, typeOf(this) === 2 ? guarded(call(fns.attrName, this) as string, value, call(fns.attrOwner, this)) : value); } });
    }
    const attributesGet = getter(elementProto, 'attributes');
    if (attributesGet) define(elementProto, 'attributes', { ...describe(elementProto, 'attributes'), get(this: Element) { const map = call(attributesGet, this) as object; call(weakMapSet, owners, map, this); return map; } });
    const nodeSetters: Array<[Record<string, unknown>, string[], (self: object) => unknown]> = [
      [elementProto, ['setAttributeNode', 'setAttributeNodeNS'], (self: object) => self],
      [proto('NamedNodeMap')!, ['setNamedItem', 'setNamedItemNS'], (self: object) => call(weakMapGet, owners, self)],
    ];
    for (let k = 0; k < nodeSetters.length; k++) {
      const p = nodeSetters[k]![0];
      const keys = nodeSetters[k]![1];
      const ownerOf = nodeSetters[k]![2];
      for (let j = 0; j < keys.length; j++) {
        const key = keys[j]!;
        const original = p[key];
        if (typeof original !== 'function') continue;
        define(p, key, {
          value(this: object, node: Attr) {
            if (typeOf(node) === 2) call(fns.attrValue.set!, node, guarded(call(fns.attrName, node) as string, call(fns.attrValue.get!, node), ownerOf(this)));
            return call(original, this, node);
          },
          writable: true,
          configurable: true,
        });
      }
    }

    const names = ownNames(win);
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      let network = false;
      for (let j = 0; j < NETWORK_PREFIXES.length; j++) if (call(startsWith, name, NETWORK_PREFIXES[j])) network = true;
      if (!network) continue;
      try {
        delete (global as Record<string, unknown>)[name];
      } catch {
        // a non-configurable global stays; the Connection-Allowlist header still holds it
      }
    }
    const sealChildren = () => {
      const count = fns.windowLength ? (call(fns.windowLength, win) as number) : win.length;
      for (let i = 0; i < count; i++) seal(win[i] as Window);
    };
    // Each placing call: what it places freed of hints first, the frames it made sealed after.
    const around = (key: string, fn: Fn) =>
      function (this: unknown, ...args: unknown[]) {
        try {
          return apply(fn, this, cleanArgs(key, args));
        } finally {
          sealChildren();
        }
      };
    for (let i = 0; i < INSERTING.length; i++) {
      const p = proto(INSERTING[i]![0]);
      const keys = INSERTING[i]![1];
      if (!p) continue;
      for (let j = 0; j < keys.length; j++) {
        const key = keys[j]!;
        const d = describe(p, key);
        if (!d?.configurable) continue;
        if (typeof d.value === 'function') define(p, key, { ...d, value: around(key, d.value as Fn) });
        else if (d.get || d.set) {
          const get = d.get;
          define(p, key, {
            ...d,
            ...(get ? { get: key === 'contentWindow' || key === 'contentDocument' ? function (this: unknown) { sealChildren(); return call(get, this); } : get } : {}),
            ...(d.set ? { set: around(key, d.set as Fn) } : {}),
          });
        }
      }
    }
    // The backstop for a path not listed: frames found after the fact, and each frame's new page once it loads.
    new (global.MutationObserver as unknown as typeof MutationObserver)(sealChildren).observe(doc, { childList: true, subtree: true });
    doc.addEventListener('load', sealChildren, true);
    sealChildren();
  };
  seal(root);
}
