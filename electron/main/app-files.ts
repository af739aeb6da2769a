// Pure rules for serving the built renderer over app://: path containment, content types, security headers.
import path from 'node:path';
import { contentSecurityPolicy } from '../../shared/csp';
import { FRAME_SCHEME } from '../../shared/frames/frame-origin';

export { contentTypeFor } from '../../shared/content-types';

/** Headers on every app:// response, including errors. */
export function securityHeaders(contentType: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    // Extensions' frontends load in frames of their own cw-ext://e-<label> origins (frame-protocol.ts).
    'Content-Security-Policy': contentSecurityPolicy({ frameSrc: [`${FRAME_SCHEME}:`] }),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  };
}

/** True when `candidate` is `root` itself or lies under it (compared as resolved paths, segment by segment). */
export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(path.resolve(root), path.resolve(candidate));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * Maps a URL pathname (still percent-encoded) to a file under `root`, or null when it would leave
 * `root` or is malformed. `/` serves index.html. Encoded separators and NUL are refused outright.
 */
export function resolveRequestPath(root: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\') || /%2f|%5c/i.test(pathname)) return null;
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const resolvedRoot = path.resolve(root);
  const resolved = path.resolve(resolvedRoot, relative);
  if (resolved === resolvedRoot || !isInside(resolvedRoot, resolved)) return null;
  return resolved;
}
