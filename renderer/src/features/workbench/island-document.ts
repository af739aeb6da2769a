// The document an HTML island's sandbox frame is handed: a standards-mode page (in quirks mode a page is never
// shorter than its frame, so the frame could not shrink to what it draws) with the chat's base styles, DOMPurify and
// island-boot.js, which sanitizes the island's HTML inside the frame and places it.
import purifySource from 'dompurify/dist/purify.min.js?raw';
import { FORBIDDEN_TAGS } from '../../../frame/sanitize-html';
import bootSource from './island-boot.js?raw';

/** Under the island's own styles: no page margin, nothing scrolls (the frame grows), the chat's font size and line height. */
const BASE = ':where(html){overflow:hidden;font-size:14px;line-height:1.55}:where(html,body){margin:0}:where(body){display:flow-root;overflow-wrap:anywhere}';

/** Script text to place inside <script>, or null when it would end or reopen the element (never met so far). */
function inlineScript(source: string): string | null {
  return /<\/?script/i.test(source) ? null : source.replace(/\/\/# sourceMappingURL=\S*\s*$/, '');
}

const PURIFY = inlineScript(purifySource);
const BOOT = inlineScript(bootSource.trim());

/**
 * The sandbox document for one island, or null when the scripts cannot be placed inline (the island is then shown as
 * text). Its HTML travels as a JSON string, every `<` escaped, so it is never markup.
 */
export function islandDocument(html: string): string | null {
  if (PURIFY === null || BOOT === null) return null;
  const args = [JSON.stringify(html), JSON.stringify(FORBIDDEN_TAGS)].map((json) => json.replace(/</g, '\\u003c')).join(',');
  return `<!doctype html><style>${BASE}</style><script>${PURIFY}</script><body><script>${BOOT}(${args});</script></body>`;
}
