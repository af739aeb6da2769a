// The shell in Chromium against the real headless host: connection, navigation, theme, notices, token handling.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket } from 'ws';
import { SECTIONS, type SectionId } from '../../renderer/src/app/sections';
import { assertRendererBuilt, ROOT, startHost, type RunningHost } from './host-process';
import { watchPage } from './page-watch';

const XSS = '<img src=x onerror=window.__pwned=1>';
const BUNDLED_EXTENSIONS = ['Dice and Stats', 'Knowledge Base', 'Scratchpad'];


/** Fails the test on any page error or CSP violation: the shell must run under the served CSP as is. */

async function expectConnected(page: Page): Promise<void> {
  const status = page.getByTestId('connection-status');
  await expect(status).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
  await expect(status).toContainText('Connected');
}

/** Sections the headless host fills from the start: it loads the bundled extensions and their tools. */
const POPULATED: Partial<Record<SectionId, (panel: Locator) => Promise<void>>> = {
  extensions: async (panel) => {
    await expect(panel.getByTestId('extension')).toHaveCount(BUNDLED_EXTENSIONS.length);
    for (const name of BUNDLED_EXTENSIONS) await expect(panel.getByRole('heading', { name, exact: true })).toBeVisible();
  },
  tools: async (panel) => {
    // Workers register their tools a moment after the host starts.
    await expect(panel.locator('button.tool-row[data-qualified-name="knowledge-base:search_knowledge_base"]')).toBeVisible({ timeout: 20_000 });
  },
};

async function expectSection(page: Page, index: number): Promise<void> {
  const spec = SECTIONS[index]!;
  const nav = page.getByRole('navigation', { name: 'Sections' });
  await expect(nav.getByRole('button', { name: spec.label })).toHaveAttribute('aria-current', 'page');
  await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(spec.label);
  const panel = page.getByTestId(`panel-${spec.id}`);
  const populated = POPULATED[spec.id];
  if (populated) return populated(panel);
  await expect(panel.getByRole('heading', { name: spec.empty.title })).toBeVisible();
  await expect(panel.getByText(spec.empty.body)).toBeVisible();
  for (const step of spec.empty.steps) await expect(panel.getByText(step)).toBeVisible();
}

function freshDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

test.describe('shell against the headless host', () => {
  test.describe.configure({ mode: 'serial' });
  let host: RunningHost;
  let dataDir: string;

  test.beforeAll(async () => {
    assertRendererBuilt();
    // A fixed name (emptied first) keeps docs/screenshot.png identical from run to run: the path shows in it.
    dataDir = path.join(os.tmpdir(), 'council-workbench-e2e', 'data');
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
    host = await startHost(dataDir);
  });

  test.afterAll(async () => {
    await host?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('connects, shows host status, and visits every section by click and by keyboard', async ({ page }) => {
    const problems = watchPage(page);
    // Nothing the page asks for is missing.
    const missing: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) missing.push(response.url());
    });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(host.url);
    await expect(page).toHaveTitle('Council Workbench');
    await expectConnected(page);
    // A desktop browser asks for the page's icon (headless Chromium does not): the page names one, and it is served.
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(icon).toBeTruthy();
    expect((await page.request.get(new URL(icon!, page.url()).href)).status()).toBe(200);
    // The content column keeps the scrollbar's room in every section, so it does not shift between a short
    // section and a long one (headless Chromium hides scrollbars, so the style is what can be checked here).
    expect(await page.locator('main#main').evaluate((el) => getComputedStyle(el).scrollbarGutter)).toBe('stable');

    // The token left the address bar but survives a reload (this origin's localStorage).
    expect(page.url()).not.toContain('token=');
    await expect(page.getByTestId('data-dir')).toContainText(dataDir);
    await expect(page.getByTestId('settings-version')).toHaveText('Settings v1');
    await expect(page.getByTestId('host-mode')).toContainText('Browser');

    const nav = page.getByRole('navigation', { name: 'Sections' });
    await expect(nav.getByRole('button')).toHaveCount(SECTIONS.length);
    await expectSection(page, 0);

    // By mouse, in order.
    for (let i = 0; i < SECTIONS.length; i++) {
      await nav.getByRole('button', { name: SECTIONS[i]!.label }).click();
      await expectSection(page, i);
    }

    // A reload keeps the place: the address names the section last shown.
    expect(new URL(page.url()).hash).toBe(`#/${SECTIONS.at(-1)!.id}`);
    await page.reload();
    await expectConnected(page);
    await expectSection(page, SECTIONS.length - 1);

    // By keyboard: the skip link comes first, then the navigation; arrows move, Enter activates.
    // (A reload, here at the Council's address, starts keyboard focus at the top of the document; the token survives it.)
    await page.evaluate(() => history.replaceState(null, '', '#/council'));
    await page.reload();
    await expectConnected(page);
    await expectSection(page, 0);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Tab');
    await expect(nav.getByRole('button', { name: SECTIONS[0]!.label })).toBeFocused();
    for (let i = 1; i < SECTIONS.length; i++) {
      await page.keyboard.press('ArrowDown');
      await expect(nav.getByRole('button', { name: SECTIONS[i]!.label })).toBeFocused();
      await page.keyboard.press(i % 2 ? 'Enter' : 'Space');
      await expectSection(page, i);
    }
    // Tab also walks the list, and a focused item shows a focus ring.
    await page.keyboard.press('Home');
    await page.keyboard.press('Tab');
    const second = nav.getByRole('button', { name: SECTIONS[1]!.label });
    await expect(second).toBeFocused();
    const outline = await second.evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(outline).not.toBe('none');
    await page.keyboard.press('Enter');
    await expectSection(page, 1);

    // Ctrl+digit jumps straight to a section.
    await page.keyboard.press('Control+3');
    await expectSection(page, 2);
    await page.keyboard.press('Control+6');
    await expectSection(page, 5);

    // The skip link moves focus to the main region.
    await page.reload();
    await expectConnected(page);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(page.locator('main#main')).toBeFocused();

    await nav.getByRole('button', { name: 'Tools' }).click();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.mouse.move(640, 700);
    fs.mkdirSync(path.join(ROOT, 'tests', 'e2e', 'screenshots'), { recursive: true });
    await page.screenshot({ path: path.join(ROOT, 'tests', 'e2e', 'screenshots', 'shell.png') });
    // The README's picture is refreshed on request only, so a test run leaves tracked files alone.
    if (process.env.UPDATE_DOCS_SCREENSHOT === '1') await page.screenshot({ path: path.join(ROOT, 'docs', 'screenshot.png') });
    expect(missing).toEqual([]);
    expect(problems).toEqual([]);
  });

  test('the theme switch stores ui.theme through the host and the page follows it', async ({ page }) => {
    const problems = watchPage(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(host.url);
    await expectConnected(page);
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'system');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();

    await page.getByRole('radio', { name: 'Dark' }).check();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    expect(await background()).not.toBe(light);
    await expect
      .poll(() => JSON.parse(fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8')).ui.theme)
      .toBe('dark');

    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.mouse.move(640, 700);
    // The colour transitions end before the picture is taken.
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
    await page.screenshot({ path: path.join(ROOT, 'tests', 'e2e', 'screenshots', 'shell-dark.png') });

    // Host truth: a reload reads it back.
    await page.reload();
    await expectConnected(page);
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();

    // "System" follows the OS preference again.
    await page.getByRole('radio', { name: 'System' }).check();
    await expect(html).toHaveAttribute('data-theme', 'system');
    expect(await background()).toBe(light);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await background()).not.toBe(light);
    expect(problems).toEqual([]);
  });

  test('a wrong token shows "Not authorized" and tells the user what to do', async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${host.origin}/#token=${'0'.repeat(host.token.length)}`);
    const status = page.getByTestId('connection-status');
    await expect(status).toHaveAttribute('data-state', 'unauthorized', { timeout: 15_000 });
    await expect(status).toContainText('Not authorized');
    await expect(page.getByTestId('connection-banner')).toContainText('#token=');
    await context.close();
  });

  test('a page without a token, in a browser that never had one, is not authorized and says why', async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${host.origin}/`);
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'unauthorized', { timeout: 15_000 });
    await expect(page.getByTestId('connection-banner')).toContainText('no access token');
    await context.close();
  });

  test('once opened with its token, the address works without it: a second tab, and a reload after the tab was closed', async ({ browser }) => {
    const context = await browser.newContext();
    const first = await context.newPage();
    await first.goto(`${host.origin}/#token=${host.token}`);
    await expect(first.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
    expect(first.url()).not.toContain(host.token);
    // The token stays in this origin's storage; no cookie holds it.
    expect(await context.cookies()).toEqual([]);
    const second = await context.newPage();
    await second.goto(`${host.origin}/`);
    await expect(second.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
    await first.close();
    await second.reload();
    await expect(second.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
    await context.close();
  });

  test('K1: every cookie the browser sends to another local port, replayed on the app without Origin, opens nothing', async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${host.origin}/#token=${host.token}`);
    await expectConnected(page);
    // Another web page on this machine, on another port: it records what the browser sends it.
    const cookies: string[] = [];
    const other = http.createServer((req, res) => {
      if (req.headers.cookie) cookies.push(req.headers.cookie);
      res.end('<!doctype html><title>other</title>');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const otherPage = await context.newPage();
      await otherPage.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`);
      await otherPage.goto(`http://localhost:${(other.address() as AddressInfo).port}/`);
      const replayed = [...cookies, ...(await context.cookies()).map((c) => `${c.name}=${c.value}`)];
      const status = (cookie: string) =>
        new Promise<number>((resolve) => {
          const ws = new WebSocket(`${host.origin.replace('http', 'ws')}/ws`, { headers: { Cookie: cookie } });
          ws.on('open', () => (ws.close(), resolve(101)));
          ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
          ws.on('error', () => resolve(0));
        });
      for (const cookie of replayed) expect(await status(cookie)).toBe(401);
    } finally {
      other.close();
      await context.close();
    }
  });

  // Last in this group: it stops the host.
  test('losing the host shows in the status bar, and calls fail with a visible error instead of hanging', async ({ page }) => {
    await page.goto(host.url);
    await expectConnected(page);
    await host.stop();
    const status = page.getByTestId('connection-status');
    await expect(status).toHaveAttribute('data-state', 'disconnected', { timeout: 10_000 });
    await expect(status).toContainText('Disconnected');

    await page.getByRole('radio', { name: 'Dark' }).click(); // not check(): it reverts at once when the host refuses
    const error = page.getByTestId('notice').filter({ hasText: 'Could not change the theme' });
    await expect(error).toBeVisible({ timeout: 15_000 });
    await expect(error).toHaveAttribute('data-code', 'HOST_SHUTDOWN');
    await expect(page.getByRole('radio', { name: 'System' })).toBeChecked();
  });
});

test.describe('a corrupt settings file', () => {
  let host: RunningHost;
  let base: string;
  let dataDir: string;

  test.beforeAll(async () => {
    assertRendererBuilt();
    base = freshDir('cw-e2e-corrupt-');
    // The data folder's own name is host text that ends up in the notice and the status bar.
    dataDir = path.join(base, XSS);
    fs.mkdirSync(dataDir);
    fs.writeFileSync(path.join(dataDir, 'settings.json'), `{"version": 1, "ui": ${XSS}`);
    host = await startHost(dataDir);
  });

  test.afterAll(async () => {
    await host?.stop();
    if (base) fs.rmSync(base, { recursive: true, force: true });
  });

  test('shows the recovery notice as text, and dismissing it asks the host', async ({ page }) => {
    const problems = watchPage(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(host.url);
    await expectConnected(page);

    const notice = page.getByTestId('notice').filter({ hasText: 'Settings file recovered' });
    await expect(notice).toBeVisible();
    await expect(notice).toHaveAttribute('data-code', 'SETTINGS_RECOVERED');
    await expect(notice).toContainText('not valid JSON');
    await expect(notice).toContainText(XSS);
    await expect(page.getByTestId('data-dir')).toContainText(XSS);
    await expect(page.locator('img')).toHaveCount(0);
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    await page.screenshot({ path: path.join(ROOT, 'tests', 'e2e', 'screenshots', 'shell-notice.png') });

    // The quarantined file is still there, where the notice says.
    expect(fs.readdirSync(dataDir).some((f) => f.startsWith('settings.json.corrupt-'))).toBe(true);

    await notice.getByRole('button', { name: /Dismiss/ }).click();
    await expect(notice).toHaveCount(0);
    // Dismissed on the host, not just hidden here.
    await page.reload();
    await expectConnected(page);
    await expect(page.getByText('Settings v1')).toBeVisible();
    await expect(page.getByTestId('notice')).toHaveCount(0);
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    expect(problems).toEqual([]);
  });
});
