// Runs inside an HTML island's sandbox frame (opaque origin, no network; HtmlIsland.tsx), after DOMPurify's own
// script: the island's HTML is sanitized here, where its inline styles are allowed, and never parsed in the app's
// page (whose policy refuses inline styles). Nothing of it runs or points anywhere: no script, frame, form or
// handler; links keep their text but lead nowhere; only inline images and an SVG's own #ids stay as sources; CSS
// loads nothing. The expression is called with the island's HTML and the tags the app forbids.
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- the file is one expression, called by island-document.ts
(function (raw, forbidden) {
  'use strict';
  var purify = window.DOMPurify;
  if (!purify || !purify.isSupported) return;
  var INLINE_SOURCE = /^(data:|blob:|#)/i;
  var SOURCES = ['src', 'href', 'xlink:href', 'poster', 'background', 'action', 'formaction', 'ping', 'srcset', 'cite', 'longdesc'];
  function inlineCss(css) {
    return css.replace(/@import\b[^;]*;?/gi, '').replace(/url\(\s*(['"]?)\s*(?!data:|#)[^)]*\)/gi, 'none');
  }
  purify.addHook('uponSanitizeElement', function (node, data) {
    if (data.tagName === 'style') node.textContent = inlineCss(node.textContent || '');
  });
  purify.addHook('afterSanitizeAttributes', function (node) {
    SOURCES.forEach(function (name) {
      var value = node.getAttribute(name);
      if (value !== null && (node.localName === 'a' || node.localName === 'area' || !INLINE_SOURCE.test(value.trim()))) node.removeAttribute(name);
    });
    node.removeAttribute('target');
    var style = node.getAttribute('style');
    if (style !== null) node.setAttribute('style', inlineCss(style));
  });
  var clean = purify.sanitize(raw, { FORBID_TAGS: forbidden, FORBID_ATTR: ['srcdoc'], ALLOW_DATA_ATTR: true, FORCE_BODY: true, RETURN_DOM_FRAGMENT: true });
  // A last check of what came back (a DOM that DOMPurify misjudges must not let a script through).
  clean.querySelectorAll(forbidden.join(',')).forEach(function (el) { el.remove(); });
  clean.querySelectorAll('*').forEach(function (el) {
    Array.prototype.slice.call(el.attributes).forEach(function (a) { if (/^on/i.test(a.name)) el.removeAttribute(a.name); });
  });
  document.body.appendChild(clean);
  // The page keeps no sanitizer and no script of ours once the island is placed (it holds none of its own).
  delete window.DOMPurify;
  document.querySelectorAll('script').forEach(function (el) { el.remove(); });
})
