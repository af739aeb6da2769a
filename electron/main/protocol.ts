// The app:// scheme: registered as privileged before ready, then serves out/renderer and nothing else.
import fs from 'node:fs/promises';
import { protocol } from 'electron';
import { APP_HOST, APP_SCHEME } from './app-origin';
import { FRAME_SCHEME } from '../../shared/frames/frame-origin';
import { contentTypeFor, isInside, resolveRequestPath, securityHeaders } from './app-files';

/** Must run before app 'ready': a standard, secure scheme gets a real origin, fetch and storage. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
    // Extensions' frontend frames: a standard scheme, so each cw-ext://e-<label> host is an origin of its own.
    { scheme: FRAME_SCHEME, privileges: { standard: true, secure: true } },
  ]);
}

function respond(status: number, body: BodyInit | null, contentType: string): Response {
  return new Response(body, { status, headers: securityHeaders(contentType) });
}

/** Serves files from `rendererRoot` only; every response carries the CSP and nosniff headers. */
export function handleAppProtocol(rendererRoot: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const notFound = () => respond(404, 'Not found', 'text/plain; charset=utf-8');
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return notFound();
    }
    if (url.host !== APP_HOST) return notFound();
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return respond(405, 'Method not allowed', 'text/plain; charset=utf-8');
    }
    const file = resolveRequestPath(rendererRoot, url.pathname);
    if (!file) return notFound();
    try {
      // A symlink inside the root must not lead outside it.
      const [realRoot, realFile] = await Promise.all([fs.realpath(rendererRoot), fs.realpath(file)]);
      if (!isInside(realRoot, realFile) || !(await fs.stat(realFile)).isFile()) return notFound();
      const body = request.method === 'HEAD' ? null : await fs.readFile(realFile);
      return respond(200, body, contentTypeFor(realFile));
    } catch {
      return notFound();
    }
  });
}
