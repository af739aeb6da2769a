// Browser mode: the built renderer and the host contract over WebSocket, on 127.0.0.1 only, behind a per-start token.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { contentSecurityPolicy, frameContentSecurityPolicy, frameNetworkHeaders, sandboxContentSecurityPolicy } from '../../shared/csp';
import { SANDBOX_PAGE } from '../../shared/frames/frame-origin';
import { frameFile } from '../core/extensions/frontend-files';
import { MAX_WS_MESSAGE_BYTES } from '../../shared/limits';
import type { HostEvent } from '../../shared/contract/events';
import { serve } from '../../shared/rpc/serve';
import { TOKEN_PARAM, WS_PATH } from '../../shared/ws-protocol';
import type { Host } from '../core/host';
import type { Logger } from '../core/ports';
import { serveFile, serveStatic } from './static-files';
import { wsSocketTransport } from './ws-socket-transport';

/** Frames above this close the socket (our page refuses to send one: ws-transport.ts); below it the dispatcher applies each method's own cap. */
const MAX_FRAME_BYTES = MAX_WS_MESSAGE_BYTES;
const BIND_ADDRESS = '127.0.0.1';
// Browser mode is plain http on the loopback interface only.
// eslint-disable-next-line @microsoft/sdl/no-insecure-url
const HTTP = 'http://';

export interface HeadlessServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

/** Host and Origin must name this server exactly: that is what defeats DNS rebinding. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

/** A browser page's Origin must be exactly our own http origin (no path, no credentials). */
export function isOwnOrigin(origin: string, hosts: Set<string>): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  return parsed.protocol === 'http:' && hosts.has(parsed.host) && parsed.origin === origin;
}

export async function startHeadlessServer(options: {
  host: Host;
  rendererDir: string;
  port?: number;
  log: Logger;
  token?: string;
}): Promise<HeadlessServer> {
  const token = options.token ?? crypto.randomBytes(24).toString('hex');
  let port = 0;
  const securityHeaders = () => ({
    'Content-Security-Policy': contentSecurityPolicy({ connectSrc: [`ws://127.0.0.1:${port}`, `ws://localhost:${port}`], frameSrc: [`${HTTP}*.localhost:${port}`] }),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
  });

  const appOrigins = () => [`${HTTP}127.0.0.1:${port}`, `${HTTP}localhost:${port}`];
  const frameHeaders = (pathname: string) => ({
    // The sandbox page runs an extension's inline HTML, opaque-origin, from an extension frame or a message.
    'Content-Security-Policy':
      pathname === SANDBOX_PAGE ? sandboxContentSecurityPolicy([...appOrigins(), `${HTTP}*.localhost:${port}`]) : frameContentSecurityPolicy(appOrigins()),
    ...frameNetworkHeaders(pathname === SANDBOX_PAGE ? 'sandbox' : 'frame'),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Resource-Policy': 'same-origin',
  });

  const server = http.createServer((req, res) => {
    // An extension's frame origin: e-<label>.localhost on this port (frame-origin.ts), its files only.
    const frameHost = /^(e-[0-9a-f]{16})\.localhost:(\d+)$/.exec(req.headers.host ?? '');
    if (frameHost && Number(frameHost[2]) === port) {
      const pathname = new URL(req.url ?? '/', `${HTTP}frame`).pathname;
      const file = frameFile(
        frameHost[1]!,
        pathname,
        options.rendererDir,
        (label) => options.host.extensions.frames.frontendFolder(label),
        (label) => options.host.extensions.frames.imagesFolder(label),
        (label, imageId) => options.host.extensions.frames.avatarFile(label, imageId),
      );
      serveFile(file, req, res, frameHeaders(pathname));
      return;
    }
    if (!allowedHosts(port).has(req.headers.host ?? '')) {
      res.writeHead(421, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Misdirected request');
      return;
    }
    serveStatic(options.rendererDir, req, res, securityHeaders());
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const clients = new Set<WebSocket>();

  server.on('upgrade', (req, socket, head) => {
    const refuse = (status: number, reason: string) => {
      options.log.warn(`headless: refused a WebSocket (${reason})`);
      socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    const hosts = allowedHosts(port);
    if (!hosts.has(req.headers.host ?? '')) return refuse(421, 'Misdirected Request');
    const origin = req.headers.origin;
    if (origin !== undefined && !isOwnOrigin(origin, hosts)) return refuse(403, 'Forbidden');
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== WS_PATH) return refuse(404, 'Not Found');
    // Only the token the page sends explicitly opens the app. No cookie does: a browser sends cookies to every port
    // of a host, so another local page could replay one (the page keeps the token in its own origin's storage).
    if (!safeEqual(url.searchParams.get(TOKEN_PARAM) ?? '', token)) return refuse(401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws));
  });

  wss.on('connection', (ws: WebSocket) => {
    clients.add(ws);
    ws.on('close', () => clients.delete(ws));
    ws.on('error', () => clients.delete(ws));
    // The page hears every event without asking (its store follows the host from the first one).
    serve(wsSocketTransport<HostEvent>(ws), {
      call: (method, input, bytes) => options.host.api.call(method, input, { origin: 'ws' }, bytes),
      events: (listener) => options.host.onEvent(listener),
      pushEvents: true,
      invalid: 'Expected {kind:"invoke", id, method, input}.',
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, BIND_ADDRESS, () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  return {
    port,
    token,
    url: `http://127.0.0.1:${port}/#${TOKEN_PARAM}=${token}`,
    async close() {
      for (const client of clients) client.terminate();
      wss.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Kept-alive HTTP connections go too: one could still answer the page's "is the host there?" probe while the
      // host stops, and the page would then take the refused reconnect for a refused token.
      server.closeAllConnections();
      await closed;
    },
  };
}
