// HTML blocks in a reply (a card's status panel, a display rule's skin) drawn as HTML, in real Chromium against the
// real host: each in a sandbox frame (opaque origin, no network) as tall as what it draws, styled by its own <style>;
// and hostile blocks (security case H1) run nothing, fetch nothing, lead nowhere and cover nothing of the app,
// streamed and reopened from history. The person may see HTML as text instead.
import { expect, test, type Frame, type Page } from '@playwright/test';
import { ISLAND_CORPUS } from '../fixtures/xss-corpus';
import { startCanaryRig, openLocalChat, type CanaryRig } from './canary-rig';
import { watchPage } from './page-watch';

const MODEL = 'e2e-islands-model';
// Styled as whole-page skins are (html, body at 100%): the frame still fits what it draws.
const PANEL = '<style>html,body{height:100%}.hp{color:rgb(1, 2, 3);font-weight:700}</style>\n<div class="panel">\n\n<div class="hp">HP 42</div>\n<div class="note">She *winks*.\nThen **grins**.</div>\n<pre class="code">a *b* c\nd</pre><svg width="80" height="20"><text class="svg-text" y="15">1 *2* 3</text></svg><title>gone</title>\n<details open><summary>Inventory</summary><p>rope</p><p>lamp</p><p>bread</p></details>\n</div>';

/** The island frames of the page, with their documents' content delivered. */
async function islandFrames(page: Page, count: number): Promise<Frame[]> {
  const frames = page.locator('iframe[title="HTML in this message"]');
  await expect(frames).toHaveCount(count);
  const handles = await frames.elementHandles();
  const out: Frame[] = [];
  for (const handle of handles) {
    const frame = (await handle.contentFrame())!;
    // The sandbox page writes the island into itself once the app has handed it over.
    await expect.poll(() => frame.evaluate(() => document.readyState === 'complete' && document.body !== null && document.body.childElementCount > 0)).toBe(true);
    out.push(frame);
  }
  return out;
}

test.describe('HTML islands in messages', () => {
  let rig: CanaryRig;

  test.beforeAll(async () => {
    // CLI runs and a host start: on a loaded machine they can pass the default 60 s, so the setup has its own budget.
    test.setTimeout(180_000);
    rig = await startCanaryRig(MODEL, 'islands');
  });

  test.afterAll(async () => {
    await rig?.stop();
  });

  test('H1: a styled panel is drawn as tall as it is; hostile blocks run, fetch, follow and cover nothing', async ({ page }) => {
    const problems = watchPage(page);
    const { canaryOrigin } = rig;
    const hostile = ISLAND_CORPUS.map((payload, i) => `${payload.replaceAll('CANARY', canaryOrigin)}\nAfter block ${i}.`);
    const reply = ['*She checks her pack.*', PANEL, '"Ready," she says.', ...hostile].join('\n');
    rig.llm.enqueue({ text: reply.match(/[\s\S]{1,23}/g)! });

    const { host, canaryHits } = rig;
    const workbench = await openLocalChat(page, host);
    const box = workbench.getByLabel('Message');
    await box.fill('Show me your pack.');
    await box.press('Enter');
    const answer = workbench.locator('[data-testid="message"][data-role="assistant"]').last();
    await expect(answer.getByTestId('message-actions')).toBeVisible({ timeout: 20_000 });
    await expect(answer).toContainText('"Ready," she says.');
    await expect(answer).toContainText(`After block ${ISLAND_CORPUS.length - 1}.`);

    const check = async () => {
      const frames = await islandFrames(page, 1 + ISLAND_CORPUS.length);
      for (const element of await page.locator('iframe[title="HTML in this message"]').elementHandles()) {
        expect(await element.getAttribute('sandbox')).toBe('allow-scripts');
      }
      // The panel: its <style> reached its markup, and the frame is as tall as the panel, shrinking when it closes.
      const panel = frames[0]!;
      expect(await panel.locator('.hp').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(1, 2, 3)');
      // Its text reads as the chat's: actions and bold drawn, its line break kept.
      expect(await panel.locator('.note').evaluate((el) => [el.querySelector('em')?.textContent, el.querySelector('strong')?.textContent, el.querySelectorAll('br').length])).toEqual(['winks', 'grins', 1]);
      // Code and SVG text are left as written (no element put into them), and a title is dropped.
      expect(await panel.evaluate(() => [document.querySelector('.code')!.innerHTML, document.querySelector('.svg-text')!.innerHTML, document.querySelectorAll('title').length])).toEqual(['a *b* c\nd', '1 *2* 3', 0]);
      const frameElement = page.locator('iframe[title="HTML in this message"]').first();
      const contentHeight = () => panel.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
      const frameHeight = async () => Math.round((await frameElement.boundingBox())!.height);
      await expect.poll(async () => (await frameHeight()) - (await contentHeight())).toBe(0);
      const open = await frameHeight();
      await panel.locator('summary').click();
      await expect.poll(frameHeight).toBeLessThan(open);
      await expect.poll(async () => (await frameHeight()) - (await contentHeight())).toBe(0);
      await panel.locator('summary').click();
      await expect.poll(frameHeight).toBe(open);

      // Hostile blocks: nothing of them runs, in the app or in their frames, and nothing that runs or points is left.
      const unpwned = async () => {
        for (const frame of frames) expect(await frame.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
        expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
      };
      await unpwned();
      for (const frame of frames) {
        const left = await frame.evaluate(() => ({
          active: document.querySelectorAll('script, iframe, object, embed, form, meta, link, base').length,
          handlers: [...document.querySelectorAll('*')].flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => a.name)),
          pointers: [...document.querySelectorAll('*')].flatMap((el) =>
            [...el.attributes]
              .filter((a) => ['href', 'xlink:href', 'src', 'srcset', 'action', 'formaction', 'poster', 'background', 'ping', 'autoplay', 'target'].includes(a.name))
              .filter((a) => el.localName === 'a' || !/^data:/.test(a.value) || a.name === 'autoplay')
              .map((a) => `${el.localName} ${a.name}=${a.value.slice(0, 40)}`),
          ),
        }));
        expect(left).toEqual({ active: 0, handlers: [], pointers: [] });
      }
      const clicked: string[] = [];
      for (const frame of frames.slice(1)) {
        for (const link of await frame.locator('a').all()) {
          await link.click();
          clicked.push((await link.textContent()) ?? '');
        }
      }
      expect(clicked).toEqual(expect.arrayContaining(['js link', 'web link']));
      await unpwned();
      expect(page.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      expect(page.context().pages()).toHaveLength(1);
      for (const frame of frames) expect(frame.url()).toMatch(/\/__cw\/sandbox\.html$/);
      // The block that would cover the app covers only itself: the app's navigation is still what is under the pointer.
      const nav = page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workbench' });
      const at = (await nav.boundingBox())!;
      expect(await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest('nav') !== null, [at.x + at.width / 2, at.y + at.height / 2])).toBe(true);
    };
    await check();

    // Reopened from history after a reload: the same.
    await page.reload();
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workbench' }).click();
    await expect(answer.getByTestId('message-actions')).toBeVisible();
    await check();

    // Seen as text, by the person's choice: no frame, the markup as written.
    // From the keyboard (the chat below keeps moving as its frames settle); controlled by the saved setting, the box
    // turns once the host has it.
    const asMarkup = workbench.getByLabel('Show HTML as its markup, not drawn');
    await asMarkup.focus();
    await page.keyboard.press('Space');
    await expect(asMarkup).toBeChecked();
    await expect(page.locator('iframe[title="HTML in this message"]')).toHaveCount(0);
    await expect(answer).toContainText('<div class="hp">HP 42</div>');
    await page.keyboard.press('Space');
    await expect(asMarkup).not.toBeChecked();
    await islandFrames(page, 1 + ISLAND_CORPUS.length);

    expect(canaryHits).toEqual([]);
    // The loads past the sanitizer's CSS filter were refused by the sandbox's policy (and only those, only there).
    const refused = problems.filter((p) => p.startsWith('csp:') && p.includes(canaryOrigin));
    expect(refused.length).toBeGreaterThan(0);
    expect(problems.filter((p) => !refused.includes(p))).toEqual([]);
  });
});
