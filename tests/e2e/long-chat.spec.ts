// A long chat in Chromium: messages out of view are not rendered until they come into view (content-visibility),
// and they are still in the document for the browser's own find in page and for a selection, as people expect.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
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
    const file = path.join(dataDir, 'long.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ format: SESSION_FORMAT, version: SESSION_VERSION, id: 'long', title: 'Long chat', createdAt: now, updatedAt: now, character: { name: 'Keeper', description: '', personality: '', scenario: '' }, persona: { name: 'You', description: '' }, worldInfo: [], messages, titleSet: true }),
    );
    cli(dataDir, 'sessions', 'import', file);
    host = await startHost(dataDir);
  });

  test.afterAll(async () => {
    await host?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('messages out of view skip rendering, and text search and a selection still reach the first one', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(host.url);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workbench' }).click();
    await page.getByRole('button', { name: /^Long chat/ }).first().click();
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
});
