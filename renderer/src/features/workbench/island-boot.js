// Runs inside an HTML island's sandbox frame (opaque origin, no network; HtmlIsland.tsx), after DOMPurify's own
// script: the island's HTML is sanitized here, where its inline styles are allowed, and never parsed in the app's
// page (whose policy refuses inline styles). Nothing of it runs or points anywhere: no script, frame, form or
// handler; links keep their text but lead nowhere; only inline images and an SVG's own #ids stay as sources; CSS
// loads nothing (the sandbox's policy is the guard; this keeps loads from being tried). Text in it reads as the chat
// reads it, as Lumiverse renders Markdown in its islands: **bold**, *actions*, line breaks. The expression is called
// with the island's HTML and the tags the app forbids.
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- the file is one expression, called by island-document.ts
(function (raw, forbidden) {
  'use strict';
  var purify = window.DOMPurify;
  if (!purify || !purify.isSupported) return;
  var INLINE_SOURCE = /^(data:|blob:|#)/i;
  // Attributes that point somewhere: kept only as inline data (an image, an SVG's own #id); links and these never.
  var SOURCES = ['src', 'href', 'xlink:href', 'poster', 'background', 'srcset'];
  var NEVER = ['action', 'formaction', 'ping', 'cite', 'longdesc', 'autoplay', 'target'];
  function inlineCss(css) {
    return css.replace(/@import\b[^;]*;?/gi, '').replace(/url\(\s*(['"]?)\s*(?!data:|#)[^)]*\)/gi, 'none');
  }
  // Text the pass leaves as written: code, forms' text, styles, titles, SVG and MathML (HTML elements cannot go there).
  var VERBATIM = 'pre,code,kbd,samp,textarea,option,select,style,title,svg,math,script';
  // Emphasis as Markdown reads it: no space just inside the stars (so 2 * 3 * 4 stays arithmetic).
  var EMPHASIS = /\*\*(?!\s)([^*\n]+?)(?<!\s)\*\*|\*(?!\s)([^*\n]+?)(?<!\s)\*/g;
  function markText(root) {
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    var texts = [];
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      var parent = node.parentNode;
      var verbatim = parent && parent.nodeType === 1 && parent.closest(VERBATIM);
      if (!verbatim && /\S/.test(node.data) && (/\*/.test(node.data) || /\S[^\n]*\n[\s\S]*\S/.test(node.data))) texts.push(node);
    }
    texts.forEach(function (text) {
      var out = document.createDocumentFragment();
      text.data.replace(/^\s*\n|\n\s*$/g, '').split('\n').forEach(function (line, i) {
        if (i > 0) out.appendChild(document.createElement('br'));
        var at = 0;
        line.replace(EMPHASIS, function (match, strong, em, offset) {
          if (offset > at) out.appendChild(document.createTextNode(line.slice(at, offset)));
          var el = document.createElement(strong !== undefined ? 'strong' : 'em');
          el.textContent = strong !== undefined ? strong : em;
          out.appendChild(el);
          at = offset + match.length;
          return match;
        });
        if (at < line.length) out.appendChild(document.createTextNode(line.slice(at)));
      });
      text.parentNode.replaceChild(out, text);
    });
  }
  purify.addHook('uponSanitizeElement', function (node, data) {
    if (data.tagName === 'style') node.textContent = inlineCss(node.textContent || '');
  });
  purify.addHook('afterSanitizeAttributes', function (node) {
    SOURCES.forEach(function (name) {
      var value = node.getAttribute(name);
      if (value !== null && (node.localName === 'a' || node.localName === 'area' || !INLINE_SOURCE.test(value.trim()))) node.removeAttribute(name);
    });
    NEVER.forEach(function (name) { node.removeAttribute(name); });
    var style = node.getAttribute('style');
    if (style !== null) node.setAttribute('style', inlineCss(style));
  });
  // A whole page (a card written as a document): its head's styles and its body, as one island.
  var html = String(raw).replace(/<!doctype[^>]*>|<\/?(?:html|head|body)\b[^<>]*>/gi, '');
  var clean = purify.sanitize(html, { FORBID_TAGS: forbidden.concat(['title']), FORBID_ATTR: ['srcdoc'], ALLOW_DATA_ATTR: true, FORCE_BODY: true, RETURN_DOM_FRAGMENT: true });
  // A last check of what came back (a DOM that DOMPurify misjudges must not let a script through).
  clean.querySelectorAll(forbidden.join(',')).forEach(function (el) { el.remove(); });
  clean.querySelectorAll('*').forEach(function (el) {
    Array.prototype.slice.call(el.attributes).forEach(function (a) { if (/^on/i.test(a.name)) el.removeAttribute(a.name); });
  });
  markText(clean);
  // What the sandbox page measures the frame's height by.
  var root = document.createElement('div');
  root.setAttribute('data-fit-root', '');
  root.style.display = 'flow-root';
  root.appendChild(clean);
  document.body.appendChild(root);
  // The page keeps no sanitizer and no script of ours once the island is placed (it holds none of its own).
  delete window.DOMPurify;
  document.querySelectorAll('script').forEach(function (el) { el.remove(); });
})
