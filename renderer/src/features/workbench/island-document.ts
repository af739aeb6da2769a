// The document an HTML island's sandbox frame is handed: a standards-mode page (in quirks mode a page is never
// shorter than its frame, so the frame could not shrink to what it draws) with the chat's base styles, DOMPurify and
// island-boot.js, which sanitizes the island's HTML inside the frame and places it.
import purifySource from 'dompurify/dist/purify.min.js?raw';
import { FORBIDDEN_TAGS } from '../../../frame/sanitize-html';
import bootSource from './island-boot.js?raw';

/** Under the island's own styles: no page margin, nothing scrolls (the frame grows), the chat's line height. */
const BASE = ':where(html){overflow:hidden;line-height:1.55}:where(html,body){margin:0}:where(body){display:flow-root;overflow-wrap:anywhere}';

/** Script text to place inside <script>: it may not end or reopen the element. */
function inlineScript(source: string): string {
  if (/<\/?script/i.test(source)) throw new Error('A script with a <script> tag in it cannot be placed inline.');
  return source.replace(/\/\/# sourceMappingURL=\S*\s*$/, '');
}

const HEAD = `<!doctype html><style>${BASE}</style><script>${inlineScript(purifySource)}</script>`;
const BOOT = inlineScript(bootSource.trim());

/** The sandbox document for one island; its HTML travels as a JSON string, every `<` escaped, so it is never markup. */
export function islandDocument(html: string): string {
  const args = [JSON.stringify(html), JSON.stringify(FORBIDDEN_TAGS)].map((json) => json.replace(/</g, '\\u003c')).join(',');
  return `${HEAD}<body><script>${BOOT}(${args});</script></body>`;
}
