// The cw-ext:// scheme: each extension's frontend frames, from an origin of its own (cw-ext://e-<label>),
// serving only our frame and sandbox pages and that extension's files (electron/core/extensions/frontend-files.ts).
import fs from 'node:fs/promises';
import { protocol } from 'electron';
import { frameContentSecurityPolicy, frameNetworkHeaders, sandboxContentSecurityPolicy } from '../../shared/csp';
import { FRAME_SCHEME, SANDBOX_PAGE } from '../../shared/frames/frame-origin';
import { frameFile } from '../core/extensions/frontend-files';
import { APP_HOST, APP_SCHEME } from './app-origin';
import { contentTypeFor } from './app-files';

const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

export function handleFrameProtocol(
  rendererRoot: string,
  folderOf: (label: string) => string | null,
  imagesOf: (label: string) => string | null,
  avatarOf: (label: string, imageId: string) => string | null,
): void {
  protocol.handle(FRAME_SCHEME, async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return new Response('Not found', { status: 404 });
    }
    const sandbox = url.pathname === SANDBOX_PAGE;
    const csp = sandbox ? sandboxContentSecurityPolicy([APP_ORIGIN, `${FRAME_SCHEME}:`]) : frameContentSecurityPolicy([APP_ORIGIN]);
    const headers = { 'Content-Security-Policy': csp, ...frameNetworkHeaders(sandbox ? 'sandbox' : 'frame'), 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' };
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('Method not allowed', { status: 405, headers });
    const file = frameFile(url.hostname, url.pathname, rendererRoot, folderOf, imagesOf, avatarOf);
    if (!file) return new Response('Not found', { status: 404, headers });
    try {
      const body = request.method === 'HEAD' ? null : await fs.readFile(file);
      return new Response(body, { status: 200, headers: { ...headers, 'Content-Type': contentTypeFor(file) } });
    } catch {
      return new Response('Not found', { status: 404, headers });
    }
  });
}
