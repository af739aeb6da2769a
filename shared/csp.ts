// The Content-Security-Policy every door serves the renderer with: nothing remote, no inline script, no eval.

export function contentSecurityPolicy(options: { connectSrc?: string[] } = {}): string {
  const connect = ["'self'", ...(options.connectSrc ?? [])].join(' ');
  return [
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
