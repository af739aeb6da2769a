// A long chat in Chromium: messages out of view are not rendered until they come into view (content-visibility),
// and they are still in the document for the browser's own find in page and for a selection, as people expect; the
// view opens at the chat's end and stays there while those messages are drawn.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { SESSION_FORMAT, SESSION_VERSION } from '../../shared/types/chat';
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

  test('messages out of view skip rendering, and text search and a selection still reach the first one', async ({ page }) => {
    await openNewestChat(page);
    const chat = page.getByTestId('chat');
    await expect(chat.getByTestId('message')).toHaveCount(COUNT);
    // The chat opens at its end; the second message is far above, out of view, and its rendering is skipped.
    await expect(chat.getByTestId('message').last()).toBeInViewport();
    const early = chat.getByTestId('message').nth(1);
    expect(await early.evaluate((el) => getComputedStyle(el).contentVisibility)).toBe('auto');
    await expect(early).not.toBeInViewport();
    // The browser's text search finds it; a selection of the whole chat holds its text.
    expect(await page.evaluate(() => (window as unknown as { find(text: string): boolean }).find('Ottoline Marsh'))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { find(text: string): boolean }).find('no such words anywhere'))).toBe(false);
    const selected = await chat.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const selection = getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
      return selection.toString();
    });
    expect(selected).toContain('Ottoline Marsh');
    expect(selected).toContain(`Line ${COUNT - 2}`);
  });

  test('the view stays at the end while messages around it change height, and a newly opened chat opens at its end', async ({ page }) => {
    await openNewestChat(page);
    const chat = page.getByTestId('chat');
    await expect(chat.getByTestId('message')).toHaveCount(COUNT);
    const main = page.locator('main#main');
    const fromEnd = () => main.evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight));
    await expect.poll(fromEnd).toBeLessThan(2);
    // As skipped messages are first drawn, some get shorter and others taller in the same frame. The browser's
    // scroll anchoring then moves the view to keep a message still; the view must stay at the end regardless.
    await chat.evaluate((el) => {
      const all = [...el.querySelectorAll<HTMLElement>('[data-testid="message"]')];
      for (const m of all.slice(-20, -10)) m.style.height = '30px';
      all.at(-1)!.style.minHeight = '1500px';
    });
    await expect.poll(fromEnd, { message: 'still at the end after the heights changed' }).toBeLessThan(2);

    // Scrolled to the top of this chat, another one opens at its own end.
    await page.mouse.move(900, 400);
    await page.mouse.wheel(0, -100_000);
    await expect.poll(() => main.evaluate((el) => el.scrollTop)).toBe(0);
    await page.getByRole('button', { name: /^Second chat/ }).click();
    await expect(chat.getByTestId('message')).toHaveCount(60);
    await expect.poll(fromEnd, { message: 'the other chat opens at its end' }).toBeLessThan(2);
    await expect(chat.getByTestId('message').last()).toBeInViewport();
  });
});
