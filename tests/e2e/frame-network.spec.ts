// N1 (containment round three): no packet leaves an extension's frames. A zero-permission extension's frontend tries
// every way CSP does not govern — WebRTC (STUN and TURN, UDP and TCP) from its page, a child frame and a sandbox
// frame as message widgets use; a worker; WebTransport, beacons, link hints, payment and credential APIs, popups of
// mailto:/custom schemes, navigations — carrying the chat text it would steal. A UDP listener, a TCP listener and
// Chromium's own net log (DNS lookups) say what arrived: nothing. A control page without the frames' headers, in the
// same browser, shows the same listeners and log do see WebRTC packets, requests and lookups.
import dgram from 'node:dgram';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test, type Browser } from '@playwright/test';
import config from '../../playwright.config';
import { frameNetworkHeaders } from '../../shared/csp';
import { assertRendererBuilt, cli, ROOT, startHost, type RunningHost } from './host-process';

const MARKER = 'my private plan: bring the ledger';

/** What reached this machine's listeners: UDP datagrams, TCP connections and the HTTP requests on them. */
async function listeners() {
  const udp = dgram.createSocket('udp4');
  const seen = { datagrams: [] as string[], connections: 0, requests: [] as string[] };
  udp.on('message', (msg) => seen.datagrams.push(msg.toString('latin1')));
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  const tcp = http.createServer((req, res) => {
    seen.requests.push(req.url ?? '');
    res.end('ok');
  });
  tcp.on('connection', () => seen.connections++);
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  return {
    seen,
    udpPort: udp.address().port,
    tcpPort: (tcp.address() as AddressInfo).port,
    reset: () => Object.assign(seen, { datagrams: [], connections: 0, requests: [] }),
    close: () => (udp.close(), tcp.close()),
  };
}

/**
 * The URLs Chromium preconnected to on `port` (its net log's stream jobs marked is_preconnect): those of a navigation
 * a frame asked for (navigate-…), and any other (a link hint, a request) — which must be none.
 */
function navigationPreconnects(netLog: string, port: number): { navigations: string[]; others: string[] } {
  const log = JSON.parse(netLog) as { events: Array<{ params?: { url?: string; is_preconnect?: boolean } }> };
  const urls = log.events.flatMap((e) => (typeof e.params?.url === 'string' && e.params.url.includes(`127.0.0.1:${port}/`) ? [{ url: e.params.url, preconnect: e.params.is_preconnect === true }] : []));
  const path = (url: string) => new URL(url).pathname;
  return {
    navigations: urls.filter((u) => u.preconnect && /^\/navigate-/.test(path(u.url))).map((u) => path(u.url)),
    others: urls.filter((u) => !u.preconnect || !/^\/navigate-/.test(path(u.url))).map((u) => u.url),
  };
}

/** Chromium as the e2e config launches it, writing its net log (every DNS job and socket it opens) to `netLog`. */
function launch(netLog: string): Promise<Browser> {
  const options = config.use?.launchOptions ?? {};
  return chromium.launch({ ...options, args: [...(options.args ?? []), `--log-net-log=${netLog}`, '--net-log-capture-mode=Everything'] });
}

test.describe('N1: an extension frame sends no packet anywhere', () => {
  let host: RunningHost;
  let dataDir: string;
  let net: Awaited<ReturnType<typeof listeners>>;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    assertRendererBuilt();
    net = await listeners();
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-e2e-exfil-'));
    fs.cpSync(path.join(ROOT, 'tests', 'fixtures', 'extensions', 'lumiverse_exfiltrator'), folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'src', 'targets.json'), JSON.stringify({ udp: net.udpPort, tcp: net.tcpPort, marker: MARKER }));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-e2e-exfil-data-'));
    cli(dataDir, 'extensions', 'install', folder);
    host = await startHost(dataDir);
  });

  test.afterAll(async () => {
    await host?.stop();
    net?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('N1: WebRTC, WebTransport, beacons, link hints, payment, credentials, popups and navigations: nothing arrives, nothing is looked up', async () => {
    test.setTimeout(120_000);
    const netLog = path.join(dataDir, 'netlog.json');
    const browser = await launch(netLog);
    const page = await browser.newPage();
    await page.goto(host.url);
    // Its frame, its worker and its sandbox frame report once every probe has run.
    const logFile = path.join(dataDir, 'logs', 'extensions', 'lumiverse_exfiltrator.log');
    const reports = () =>
      (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean) : [])
        .map((line) => (JSON.parse(line) as { text: string }).text)
        .filter((text) => text.startsWith('frontend '))
        .map((text) => JSON.parse(text.slice('frontend '.length)) as { from: string; results: Record<string, string> });
    await expect.poll(() => reports().map((r) => r.from).sort(), { timeout: 60_000 }).toEqual(['frame', 'sandbox', 'worker']);
    const results = Object.fromEntries(reports().map((r) => [r.from, r.results]));
    const major = Number(browser.version().split('.')[0]);
    await browser.close();

    // Nothing reached the listeners: no datagram, no request.
    expect(net.seen.datagrams).toHaveLength(0);
    expect(net.seen.requests).toEqual([]);
    // Nor a connection, where Chromium enforces the frames' Connection-Allowlist (156 does). Where it does not (Debian's
    // 150), Chromium itself opens a TCP connection to where a frame asks to navigate before the frame's policy refuses
    // the navigation (a preconnect of the browser's, which no script in the frame can stop: a frame's location is not
    // for it to wrap); then those are the only ones, and no byte of a request is sent on them.
    const preconnects = navigationPreconnects(fs.readFileSync(netLog, 'utf8'), net.tcpPort);
    if (major >= 156) expect(net.seen.connections).toBe(0);
    else {
      test.info().annotations.push({ type: 'Connection-Allowlist', description: `not enforced by Chromium ${major}: ${net.seen.connections} connection(s) from its navigation preconnects (${preconnects.navigations.join(', ')})` });
      expect(preconnects.others).toEqual([]);
    }
    // Every probe ran (or was refused by the browser); none delivered anything.
    expect(Object.keys(results.frame!)).toEqual(expect.arrayContaining(['rtc', 'rtcChildFrame', 'webTransport', 'sendBeacon', 'link-preconnect', 'link-dns-prefetch', 'link-hint-paths', 'payment', 'credentials', 'openMailto', 'openCustomScheme', 'navigateChild', 'formSubmit']));
    expect(Object.keys(results.sandbox!)).toEqual(Object.keys(results.frame!));
    // No link keeps a hint, by whatever way it was given one, the page's built-ins replaced or not (the seal's work;
    // Chromium acts on none of these hints here), and a child frame made with them replaced has no WebRTC.
    expect(results.frame!['link-hint-paths']).toBe('ran:added');
    // Its forms work as forms (the submit event fires, in the frame and in a sandbox frame), and still send nothing.
    for (const where of ['frame', 'sandbox'] as const) expect(results[where]!.formSubmit, where).toBe('ran:submit fired');
    expect(results.frame!['link-hint-bypasses']).toBe('ran:placed 7 of 7');
    for (const where of ['frame', 'sandbox']) {
      expect(results[where]!['hint-links'], where).toBe('ran:0');
      expect(results[where]!['patched-builtins'], where).toMatch(/^(ran:undefined|threw:SecurityError)$/);
    }
    expect(results.frame!['patched-builtins']).toBe('ran:undefined');
    expect(results.worker).toMatchObject({ rtcInWorker: 'undefined' });
    // Popups (mailto:, a custom scheme, http) are not opened from a frame without allow-popups.
    for (const where of ['frame', 'sandbox']) {
      for (const name of ['openMailto', 'openCustomScheme', 'openHttp']) expect(results[where]![name], `${where} ${name}`).toBe('ran:null');
      // The seal takes WebRTC out of the frame and the frames it makes (the header holds where a seal would not).
      for (const name of ['rtc', 'rtcChildFrame']) expect(results[where]![name], `${where} ${name}`).toMatch(/^threw:(TypeError|SecurityError)$/);
    }
    const log = fs.readFileSync(netLog, 'utf8');
    // (Where the header is not enforced, the TCP port is named by those navigation preconnects, and only by them: above.)
    for (const needle of ['leak-dns-', `:${net.udpPort}`, ...(major >= 156 ? [`:${net.tcpPort}`] : [])]) expect(log.includes(needle), `the net log names ${needle}`).toBe(false);
  });

  test('N1, control: a page without the frames’ network headers reaches the listeners and a name it asks for shows in the net log; whether the headers alone stop it is the browser’s, reported', async () => {
    const sockets = { headers: dgram.createSocket('udp4'), none: dgram.createSocket('udp4') };
    const got = { headers: 0, none: 0 };
    for (const [name, socket] of Object.entries(sockets) as Array<[keyof typeof got, dgram.Socket]>) {
      socket.on('message', () => got[name]++);
      await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    }
    const serve = (udpPort: number, headers: Record<string, string>) =>
      http.createServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html', ...headers });
        res.end(`<!doctype html><img src="http://leak-dns-control.example/x.png"><script>
          const pc = new RTCPeerConnection({ iceServers: [{ urls: 'turn:127.0.0.1:${udpPort}?transport=udp', username: 'control', credential: 'x' }] });
          pc.createDataChannel('x');
          pc.createOffer().then((o) => pc.setLocalDescription(o)).then(() => (document.title = 'offered'));
        </script>`);
      });
    const pages = { headers: serve(sockets.headers.address().port, frameNetworkHeaders('frame')), none: serve(sockets.none.address().port, {}) };
    const netLog = path.join(dataDir, 'netlog-control.json');
    const browser = await launch(netLog);
    const browserVersion = `Chromium ${browser.version()}`;
    try {
      for (const [name, server] of Object.entries(pages) as Array<[keyof typeof got, http.Server]>) {
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        const page = await browser.newPage();
        await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
        await expect(page, name).toHaveTitle('offered');
      }
      // Both offers are made and gathering runs in both; the page without the headers reaches its listener (which
      // also bounds how long the other had to send), the page with them never does.
      await expect.poll(() => got.none, { timeout: 15_000 }).toBeGreaterThan(0);
    } finally {
      await browser.close();
      for (const server of Object.values(pages)) server.close();
      for (const socket of Object.values(sockets)) socket.close();
    }
    // Whether this Chromium enforces the header: Chromium 156 does (no packet), Debian's 150 does not (the seal alone
    // holds the frames there, which the test above shows). Said in the report, not asserted: it is the browser's.
    test.info().annotations.push({ type: 'Connection-Allowlist', description: got.headers === 0 ? `enforced by ${browserVersion}` : `not enforced by ${browserVersion}: ${got.headers} datagrams from the page with the headers` });
    // A name the page asks for shows in the net log, the log the frame test reads for its hints' names. (This
    // headless Chromium acts on no preconnect or dns-prefetch hint, even on an unrestricted page: for hints the
    // frame test shows only that nothing arrived.)
    expect(fs.readFileSync(netLog, 'utf8').includes('leak-dns-control.example'), 'the control page’s name was looked up').toBe(true);
  });
});
