// The sanitizer for HTML an extension injects with ctx.dom (DOMPurify, as Lumiverse uses). HTML islands in messages
// go through DOMPurify too, with the same forbidden tags, inside their sandbox frames (workbench/island-boot.js).
import DOMPurify from 'dompurify';

export const FORBIDDEN_TAGS = ['iframe', 'frame', 'frameset', 'object', 'embed', 'form', 'script', 'base', 'meta', 'link', 'portal'];

/** A last check of what came back: a DOM that DOMPurify misjudges must not let a script through. */
function recheck(root: ParentNode): void {
  for (const element of root.querySelectorAll(FORBIDDEN_TAGS.join(','))) element.remove();
  for (const element of root.querySelectorAll('*')) {
    for (const attribute of [...element.attributes]) if (/^on/i.test(attribute.name)) element.removeAttribute(attribute.name);
  }
}

/**
 * Extension HTML made safe to place: no script, no frames, no forms, no event handlers. Where DOMPurify cannot
 * work (it says so with isSupported), the HTML is placed as text rather than trusted.
 */
export function sanitizeHtml(html: string, doc: Document = document): DocumentFragment {
  if (!DOMPurify.isSupported) {
    const text = doc.createDocumentFragment();
    text.append(doc.createTextNode(String(html)));
    return text;
  }
  const fragment = DOMPurify.sanitize(String(html), { FORBID_TAGS: FORBIDDEN_TAGS, ALLOW_DATA_ATTR: true, RETURN_DOM_FRAGMENT: true });
  recheck(fragment);
  return doc === fragment.ownerDocument ? fragment : (doc.importNode(fragment, true) as DocumentFragment);
}
