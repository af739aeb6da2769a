// Where an extension's frontend frames come from: an origin of its own, never the app's.
//
// Browser mode: `http://e-<label>.localhost:<port>` — browsers resolve every *.localhost name to the
// loopback address, so each extension gets a distinct origin (and site, so Chromium runs its frames
// out of the app's process) on the same local server. Desktop: `cw-ext://e-<label>`, a privileged
// scheme the main process serves. The label is derived from the extension id (ids may hold "_", which
// host names should not, and may be longer than a DNS label).

export const FRAME_SCHEME = 'cw-ext';

/** 32-bit FNV-1a over UTF-16 code units, from a given basis. */
export function fnv1a(text: string, basis: number): number {
  let hash = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** `e-` and 16 hex digits: a host-name label for the extension's frames. */
export function frameLabel(extensionId: string): string {
  const a = fnv1a(extensionId, 0x811c9dc5).toString(16).padStart(8, '0');
  const b = fnv1a(`${extensionId}\u0000frames`, 0x01000193).toString(16).padStart(8, '0');
  return `e-${a}${b}`;
}

export const FRAME_LABEL_PATTERN = /^e-[0-9a-f]{16}$/;

/** The origin the extension's frames load from, given where the app itself is served. */
export function frameOrigin(extensionId: string, app: { protocol: string; port: string }): string {
  const label = frameLabel(extensionId);
  // Browser mode serves plain http on the loopback interface only (as the app itself is).
  // eslint-disable-next-line @microsoft/sdl/no-insecure-url
  return app.protocol === 'http:' ? `http://${label}.localhost:${app.port}` : `${FRAME_SCHEME}://${label}`;
}

/** Paths on a frame origin: our frame page and its assets under /__cw/, the extension's own files under /__ext/. */
export const FRAME_PAGE = '/__cw/frame.html';
/** The sandbox page (renderer/public/sandbox.html) for HTML an extension hands over: opaque origin, inline script only. */
export const SANDBOX_PAGE = '/__cw/sandbox.html';
export const EXTENSION_FILES = '/__ext/';
