// The headless server's own guards: loopback only, token, Origin and Host checks, static files and CSP.
// The contract over the WebSocket (calls, refusals, events) is in tests/integration/contract/both-doors.test.ts.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startHeadlessServer, type HeadlessServer } from '../../../electron/headless/server';
import { resolveStaticPath } from '../../../electron/headless/static-files';
import { silentLogger } from '../../../electron/core/ports';
import { testHost } from '../../helpers/node-host';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

let server: HeadlessServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  cleanupTempDirs();
});

async function start(): Promise<HeadlessServer> {
  const rendererDir = tempDir('cw-renderer-');
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
  server = await startHeadlessServer({ host: await testHost(), rendererDir, log: silentLogger });
  return server;
}

/** Resolves with the HTTP status the upgrade was refused with, or 101 when it was accepted. */
function tryConnect(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(-1));
  });
}

describe('headless server', () => {
  it('listens on 127.0.0.1 only and prints a tokenized URL', async () => {
    const s = await start();
    expect(s.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${s.port}/#token=[0-9a-f]{48}$`));
    // Another loopback address on the same port is not served.
    const reached = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.2', port: s.port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    expect(reached).toBe(false);
  });

  it('refuses a WebSocket without the token, with a wrong token, a foreign Origin or a foreign Host', async () => {
    const s = await start();
    const origin = { Origin: `http://127.0.0.1:${s.port}` };
    expect(await tryConnect(`ws://127.0.0.1:${s.port}/ws`, origin)).toBe(401);
    expect(await tryConnect(`ws://127.0.0.1:${s.port}/ws?token=${'0'.repeat(48)}`, origin)).toBe(401);
    expect(await tryConnect(`ws://127.0.0.1:${s.port}/ws?token=${s.token}`, { Origin: 'http://evil.example' })).toBe(403);
    expect(await tryConnect(`ws://127.0.0.1:${s.port}/ws?token=${s.token}`, { Origin: `http://127.0.0.1:${s.port}.evil.example` })).toBe(403);
    expect(await tryConnect(`ws://127.0.0.1:${s.port}/ws?token=${s.token}`, { ...origin, Host: `evil.example:${s.port}` })).toBe(421);
    expect(await tryConnect(`ws://127.0.0.1:${s.port}/ws?token=${s.token}`, origin)).toBe(101);
  });

  it('K1: no cookie opens the app: a connection with the token sets none, and any cookie without the token is refused', async () => {
    const s = await start();
    const origin = { Origin: `http://127.0.0.1:${s.port}` };
    const setCookie = await new Promise<string[] | undefined>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${s.port}/ws?token=${s.token}`, { headers: origin });
      ws.on('upgrade', (res) => resolve(res.headers['set-cookie']));
      ws.on('open', () => ws.close());
      ws.on('error', reject);
    });
    expect(setCookie).toBeUndefined();
    // The cookie the old browser session was, replayed with no Origin (as another local page's server would): refused.
    for (const cookie of [`cw_session_${s.port}=${s.token}`, `token=${s.token}`, `session=${s.token}; theme=dark`]) {
      expect(await tryConnect(`ws://127.0.0.1:${s.port}/ws`, { Cookie: cookie })).toBe(401);
      expect(await tryConnect(`ws://127.0.0.1:${s.port}/ws`, { ...origin, Cookie: cookie })).toBe(401);
    }
  });

  it('refuses plain HTTP with a foreign Host (DNS rebinding) and serves with a strict CSP', async () => {
    const s = await start();
    const get = (host: string) =>
      new Promise<http.IncomingMessage>((resolve) => {
        http.get({ host: '127.0.0.1', port: s.port, path: '/', headers: { Host: host } }, (res) => {
          res.resume();
          resolve(res);
        });
      });
    expect((await get(`attacker.example:${s.port}`)).statusCode).toBe(421);
    const ok = await get(`127.0.0.1:${s.port}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-security-policy']).toContain("script-src 'self'");
    expect(ok.headers['content-security-policy']).not.toContain('unsafe');
  });

  it('never serves files outside the renderer folder', () => {
    const root = '/srv/app';
    expect(resolveStaticPath(root, '/../etc/passwd')).toBeNull();
    expect(resolveStaticPath(root, '/assets/app.js')).toBe('/srv/app/assets/app.js');
    expect(resolveStaticPath(root, '/%2e%2e/%2e%2e/etc/passwd')).toBeNull();
    expect(resolveStaticPath(root, '/assets/%00x.js')).toBeNull();
    expect(resolveStaticPath(root, '/')).toBe('/srv/app/index.html');
  });
});
