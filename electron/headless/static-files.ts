// Serves the built renderer from one folder: no path escapes, fixed content types, CSP on every response.
import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { contentTypeFor } from '../../shared/content-types';

export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const resolved = path.resolve(root, relative);
  if (resolved !== root && !resolved.startsWith(root + path.sep)) return null;
  return resolved;
}

export function serveStatic(root: string, req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): void {
  serveFile(resolveStaticPath(root, req.url ?? '/'), req, res, headers);
}

/** Serves one resolved file (null or not a file: 404), GET and HEAD only. */
export function serveFile(file: string | null, req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, headers).end();
    return;
  }
  if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    res.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
    return;
  }
  const type = contentTypeFor(file);
  res.writeHead(200, { ...headers, 'Content-Type': type, 'Cache-Control': 'no-cache' });
  if (req.method === 'HEAD') res.end();
  else fs.createReadStream(file).pipe(res);
}
