// A reply full of hostile markup, in real Chromium against the real host (security cases X1–X3): streamed and
// reopened from history it is text — nothing runs, no element is made from it, no image or link in it is fetched
// or followed, and clicking where a link would be goes nowhere.
import { expect, test } from '@playwright/test';
import { XSS } from '../fixtures/xss-corpus';
import { startCanaryRig, openLocalChat, type CanaryRig } from './canary-rig';
import { watchPage } from './page-watch';

const MODEL = 'e2e-hostile-model';

test.describe('hostile model output', () => {
  let rig: CanaryRig;

  test.beforeAll(async () => {
    // CLI runs and a host start: on a loaded machine they can pass the default 60 s, so the setup has its own budget.
    test.setTimeout(180_000);
    rig = await startCanaryRig(MODEL, 'hostile');
  });

  test.afterAll(async () => {
    await rig?.stop();
  });

  test('X1, X2, X3: streamed and reopened, the corpus is text; no image is fetched, no link followed', async ({ page }) => {
    const problems = watchPage(page);
    const { canaryOrigin } = rig;
    const reply = `${XSS}\n![pixel](${canaryOrigin}/markdown.png)\n<img src="${canaryOrigin}/html.png">\n<a href="${canaryOrigin}/link">go</a>`;
    // Streamed in small pieces, so a payload arrives split across deltas too.
    rig.llm.enqueue({ text: reply.match(/[\s\S]{1,17}/g)! });

    const { host, canaryHits } = rig;
    const workbench = await openLocalChat(page, host);
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
