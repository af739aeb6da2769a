// A reply full of hostile markup, in real Chromium against the real host (security cases X1–X3): streamed and
// reopened from history it is text — nothing runs, no element is made from it, no image or link in it is fetched
// or followed, and clicking where a link would be goes nowhere.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { XSS } from '../fixtures/xss-corpus';
import { LlmTestServer } from '../fixtures/llm-server';
import { assertRendererBuilt, startHost, type RunningHost, cli } from './host-process';
import { startNewSession } from './new-session';
import { watchPage } from './page-watch';

const MODEL = 'e2e-hostile-model';

test.describe('hostile model output', () => {
  let host: RunningHost;
  let llm: LlmTestServer;
  let canary: http.Server;
  let canaryHits: string[];
  let canaryOrigin: string;
  let dataDir: string;

  test.beforeAll(async () => {
    // CLI runs and a host start: on a loaded machine they can pass the default 60 s, so the setup has its own budget.
    test.setTimeout(180_000);
    assertRendererBuilt();
    llm = await LlmTestServer.start({ models: [MODEL] });
    canaryHits = [];
    canary = http.createServer((req, res) => {
      canaryHits.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/png' }).end();
    });
    await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
    canaryOrigin = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-e2e-hostile-'));
    cli(dataDir, 'connections', 'add', '--type', 'openai-compatible', '--base-url', `${llm.origin}/v1`, '--model', MODEL, '--name', 'Local', '--json');
    host = await startHost(dataDir);
  });

  test.afterAll(async () => {
    await host?.stop();
    await llm?.close();
    await new Promise((resolve) => canary?.close(resolve));
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('X1, X2, X3: streamed and reopened, the corpus is text; no image is fetched, no link followed', async ({ page }) => {
    const problems = watchPage(page);
    const reply = `${XSS}\n![pixel](${canaryOrigin}/markdown.png)\n<img src="${canaryOrigin}/html.png">\n<a href="${canaryOrigin}/link">go</a>`;
    // Streamed in small pieces, so a payload arrives split across deltas too.
    llm.enqueue({ text: reply.match(/[\s\S]{1,17}/g)! });

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(host.url);
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workbench' }).click();
    const workbench = page.getByTestId('panel-workbench');
    await startNewSession(workbench);
    await workbench.getByLabel('Main connection').selectOption({ label: 'Local' });
    const box = workbench.getByLabel('Message');
    await box.fill('Say something dangerous.');
    await box.press('Enter');
    const answer = workbench.locator('[data-testid="message"][data-role="assistant"]').last().getByTestId('message-text');
    await expect(answer).toHaveText(reply, { timeout: 20_000 });

    const check = async () => {
      const messages = workbench.getByTestId('message');
      // Outside the message's own action buttons (their icons are the app's), no element came from the text.
      await expect(messages.locator(':is(img, a, iframe, svg, script, details):not([data-testid="message-actions"] *)')).toHaveCount(0);
      await expect(messages.getByTestId('message-actions').locator('img, a, iframe, script, details')).toHaveCount(0);
      expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
      // Clicking where the javascript: link would be does nothing: same page, no popup.
      const before = page.url();
      await answer.click({ position: { x: 20, y: 5 } });
      expect(page.url()).toBe(before);
      expect(page.context().pages()).toHaveLength(1);
    };
    await check();

    // Reopened from history after a reload: the same.
    await page.reload();
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workbench' }).click();
    await expect(answer).toHaveText(reply);
    await check();
    expect(canaryHits).toEqual([]);
    expect(problems).toEqual([]);
  });
});
