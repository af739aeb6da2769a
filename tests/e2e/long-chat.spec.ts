// A long chat in Chromium: the list is virtualized (only messages near the view are in the document); it opens at
// the end of its newest page and stays there while messages change height; older pages come in above as the view
// nears the top without moving what is on screen; the app's search replaces find in page and opens a message far back.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { SESSION_FORMAT, SESSION_PAGE, SESSION_VERSION } from '../../shared/types/chat';
import { assertRendererBuilt, startHost, type RunningHost, cli } from './host-process';

const COUNT = 200;

test.describe('a long chat', () => {
  let host: RunningHost;
  let dataDir: string;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    assertRendererBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-e2e-long-'));
    const now = Date.now();
    const messages = Array.from({ length: COUNT }, (_, i) => ({
      id: `m${i}`,
      role: i % 2 ? 'assistant' : 'user',
      content: i === 1 ? 'The lighthouse log names the keeper Ottoline Marsh.' : `Line ${i}: the lamp burns on through the storm.`,
      createdAt: now - (COUNT - i) * 1000,
    }));
    const session = (id: string, title: string, list: typeof messages, at: number) => {
      const file = path.join(dataDir, `${id}.json`);
      fs.writeFileSync(
        file,
        JSON.stringify({ format: SESSION_FORMAT, version: SESSION_VERSION, id, title, createdAt: at, updatedAt: at, character: { name: 'Keeper', description: '', personality: '', scenario: '' }, persona: { name: 'You', description: '' }, worldInfo: [], messages: list, titleSet: true }),
      );
      cli(dataDir, 'sessions', 'import', file);
    };
    session('second', 'Second chat', messages.slice(0, 60), now - 3_600_000);
    session('long', 'Long chat', messages, now);
    host = await startHost(dataDir);
  });

  /**
   * The Workbench opens the newest session, the long chat, by itself. (Clicking its row once it is open would have
   * the test driver scroll the view to reach the row first — something a person's click never does.)
   */
  async function openNewestChat(page: Page): Promise<void> {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(host.url);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workbench' }).click();
    await expect(page.getByTestId('open-session')).toHaveAttribute('data-session-id', 'long');
  }

  test.afterAll(async () => {
    await host?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('a long chat opens at its newest page; older pages come in above without moving the view; the search opens an early message and marks it', async ({ page }) => {
    await openNewestChat(page);
    const chat = page.getByTestId('chat');
    const main = page.locator('main#main');
    await expect.poll(() => main.evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight))).toBeLessThan(2);
    await expect(chat.locator(`[data-message-id="m${COUNT - 1}"]`)).toBeInViewport();
    await expect(page.getByTestId('earlier-messages')).toHaveText(`Show earlier messages (${COUNT - SESSION_PAGE} more)`);
    // Virtualized: of the page's 60 messages, only those near the view are in the document.
    const drawn = await chat.getByTestId('message').count();
    expect(drawn).toBeGreaterThan(3);
    expect(drawn).toBeLessThan(SESSION_PAGE);

    // Up to the top: the page before comes in above, and the first message stays where it was on screen. It is not
    // drawn yet when the scroll happens; the list's first row starts below the Earlier button, one gap further. Read
    // in the same task as the scroll: no page can come in between.
    const before = await main.evaluate((el) => {
      el.scrollTop = 0;
      const chat = el.querySelector<HTMLElement>('[data-testid="chat"]')!;
      return chat.querySelector('[data-testid="earlier-messages"]')!.getBoundingClientRect().bottom + parseFloat(getComputedStyle(chat).rowGap);
    });
    await expect(page.getByTestId('earlier-messages')).toHaveText(`Show earlier messages (${COUNT - 2 * SESSION_PAGE} more)`);
    const top = chat.locator(`[data-message-id="m${COUNT - SESSION_PAGE}"]`);
    // Within a pixel: rounding each of two fractional positions apart could make a still view look moved by one.
    await expect.poll(async () => Math.abs(((await top.boundingBox())?.y ?? -100) - before)).toBeLessThan(1);
    await expect(top).toBeInViewport();
    expect(await chat.getByTestId('message').count()).toBeLessThan(2 * SESSION_PAGE);

    // The app's own search, not the browser's find in page: it opens the second message, focused and marked.
    await page.getByLabel('Search chats').fill('Ottoline Marsh');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByTestId('search-hit').filter({ hasText: 'Long chat' }).click();
    const found = chat.locator('[data-message-id="m1"]');
    await expect(found).toBeFocused();
    await expect(chat.locator('.chat__slot[data-found] > [data-message-id="m1"]')).toHaveCount(1);
    await expect(found).toBeInViewport();
    await expect(page).toHaveURL(/#\/workbench\/long\/m1$/);
    await expect(page.getByTestId('later-messages')).toBeVisible();
  });

  test('the view stays at the end while messages around it change height, and a newly opened chat opens at its end', async ({ page }) => {
    await openNewestChat(page);
    const chat = page.getByTestId('chat');
    await expect(chat.locator(`[data-message-id="m${COUNT - 1}"]`)).toBeInViewport();
    const main = page.locator('main#main');
    const fromEnd = () => main.evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight));
    await expect.poll(fromEnd).toBeLessThan(2);
    // Messages drawn change height in the same frame, some shorter, the last one much taller (the list measures
    // them again and moves what is below): the view must stay at the end regardless.
    await chat.evaluate((el) => {
      const all = [...el.querySelectorAll<HTMLElement>('[data-testid="message"]')];
      for (const m of all.slice(0, -2)) m.style.height = '30px';
      all.at(-1)!.style.minHeight = '1500px';
    });
    await expect.poll(fromEnd, { message: 'still at the end after the heights changed' }).toBeLessThan(2);

    // Scrolled up in this chat, another one opens at its own end.
    await page.mouse.move(900, 400);
    await page.mouse.wheel(0, -600);
    await expect.poll(fromEnd).toBeGreaterThan(300);
    await page.getByRole('button', { name: /^Second chat/ }).click();
    await expect(page.getByTestId('open-session')).toHaveAttribute('data-session-id', 'second');
    await expect.poll(fromEnd, { message: 'the other chat opens at its end' }).toBeLessThan(2);
    await expect(chat.locator('[data-message-id="m59"]')).toBeInViewport();
  });

  test('Home and End reach the first and last message held even when they are not drawn; focus stays in the list as it scrolls', async ({ page }) => {
    await openNewestChat(page);
    const chat = page.getByTestId('chat');
    const message = (i: number) => chat.locator(`[data-message-id="m${i}"]`);
    await expect(message(COUNT - 1)).toBeInViewport();
    await message(COUNT - 1).focus();
    await expect(message(COUNT - SESSION_PAGE)).toHaveCount(0);
    await page.keyboard.press('Home');
    await expect(message(COUNT - SESSION_PAGE)).toBeFocused();
    await expect(message(COUNT - SESSION_PAGE)).toBeInViewport();
    await page.keyboard.press('ArrowDown');
    await expect(message(COUNT - SESSION_PAGE + 1)).toBeFocused();
    await page.keyboard.press('End');
    await expect(message(COUNT - 1)).toBeFocused();
    await expect(message(COUNT - 1)).toBeInViewport();

    // The focused message scrolled far out of view leaves the document; focus goes to a message drawn, not the page.
    const main = page.locator('main#main');
    await main.evaluate((el) => (el.scrollTop = Math.max(0, el.scrollTop - 4000)));
    await expect(message(COUNT - 1)).toHaveCount(0);
    await expect.poll(() => page.evaluate(() => (document.activeElement?.closest('[data-testid="chat"] .chat__slot') ?? null) !== null)).toBe(true);
  });
});
