// The Content-Security-Policy every door serves the renderer with: nothing remote, no inline script, no eval.

export function contentSecurityPolicy(options: { connectSrc?: string[]; frameSrc?: string[] } = {}): string {
  const connect = ["'self'", ...(options.connectSrc ?? [])].join(' ');
  return [
    // Extensions' frontends, each in frames of its own origin (shared/frames/frame-origin.ts).
    ...(options.frameSrc?.length ? [`frame-src ${options.frameSrc.join(' ')}`] : []),
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The policy of an extension's frame documents: its own files only (script from its origin, inline styles
 * as extension UIs write them), no network (connect-src only data: and blob:), framed only by the app.
 */
export function frameContentSecurityPolicy(appOrigins: string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    // No network; a data: or blob: URL it holds may be read (a backup file it was handed), which reaches nothing.
    'connect-src data: blob:',
    // Its own pages only: a data: document (opaque) cannot be sealed, and a blob: one only once it has loaded.
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${appOrigins.join(' ')}`,
  ].join('; ');
}

/**
 * The sandbox page's policy (HTML an extension renders in a message widget or a sandbox frame): its inline
 * script and styles, images and fonts inline only, no network, never eval.
 */
export function sandboxContentSecurityPolicy(ancestors: string[]): string {
  return [
    "default-src 'none'",
    "script-src 'unsafe-inline'",
    "style-src 'unsafe-inline'",
    'img-src data: blob:',
    'media-src data: blob:',
    'font-src data:',
    "connect-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors.join(' ')}`,
  ].join('; ');
}

/**
 * Headers beside the policy of every document an extension's code runs in (its frames, the sandbox page). CSP does
 * not govern WebRTC, DNS prefetch or preconnect; Connection-Allowlist does, and blocks WebRTC whenever it is present
 * (Chromium enforces it for the document, its local-scheme children and its workers). A frame may reach its own
 * origin (its files); the sandbox page nothing.
 */
export function frameNetworkHeaders(page: 'frame' | 'sandbox'): Record<string, string> {
  return {
    'Connection-Allowlist': page === 'frame' ? '(response-origin)' : '()',
    'X-DNS-Prefetch-Control': 'off',
  };
}
