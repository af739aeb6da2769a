// Lumiverse's message box for frontends written for it, in Chromium against browser mode: an extension granted generation
// (Scene-Director's way) puts its toolbar before the input row and it shows above the Workbench's box, in room of its own;
// the draft the person types reaches it, and its writes reach the box; Guide Response reads the draft, empties the box and
// presses Send on it, and a fresh reply comes with its direction in the prompt; its Retry regenerates.
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { LlmTestServer } from '../fixtures/llm-server';
import { addLocalConnection, cli, ROOT, type RunningHost } from './host-process';
import { sharedHost } from './shared-host';
import { startNewSession } from './new-session';

const FIXTURE = path.join(ROOT, 'tests', 'fixtures', 'extensions', 'lumiverse_composer');
const MODEL = 'e2e-composer-model';

test.describe("Lumiverse's message box, for a frontend written for it", () => {
  let host: RunningHost;
  let llm: LlmTestServer;
  let connectionId: string;

  sharedHost('composer', {
    models: [MODEL],
    prepare: (dir, llm) => {
      connectionId = addLocalConnection(dir, llm!.origin, MODEL);
      cli(dir, 'extensions', 'install', FIXTURE, '--grant', 'requested');
    },
    ready: (shared) => {
      ({ host } = shared);
      llm = shared.llm!;
    },
  });

  const runtime = (page: Page) => page.frameLocator('iframe.runtime-frame[data-extension-id="lumiverse_composer"]');
  /** What is under a point of the window: the extension's layer, or the app. */
  const hitAt = (page: Page, x: number, y: number) => page.evaluate(([px, py]) => (document.elementFromPoint(px!, py!)?.closest('iframe.runtime-frame') ? 'layer' : 'app'), [x, y]);

  test("its toolbar shows above the box in room of its own; the draft goes both ways; Guide Response nudges a reply with its direction; Retry regenerates; a button in each message's action bar works", async ({ page }) => {
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.goto(host.url);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workbench' }).click();
    const workbench = page.getByTestId('panel-workbench');
    await startNewSession(workbench);
    await workbench.getByLabel('Main connection').selectOption(connectionId);

    // Its toolbar, inserted before Lumiverse's input row, shows above the Workbench's box and covers none of it.
    const toolbar = runtime(page).locator('#sd-guide-toolbar');
    await expect(toolbar).toBeVisible();
    // Its strip at Lumiverse's chat toolbar mount point (checked below) comes in as its frame loads and moves the box's
    // parts: the places below are read once it has.
    await expect.poll(async () => (await page.getByTestId('composer').locator('iframe.surface-frame--composer').boundingBox())?.height ?? 0).toBeGreaterThan(20);
    const guide = toolbar.getByRole('button', { name: 'Guide Response' });
    await expect(guide).toBeDisabled();
    const box = workbench.getByLabel('Message');
    await expect.poll(async () => (await toolbar.boundingBox())!.y + (await toolbar.boundingBox())!.height).toBeLessThanOrEqual((await box.boundingBox())!.y);
    const bar = (await toolbar.boundingBox())!;
    expect(await hitAt(page, bar.x + 20, bar.y + bar.height / 2)).toBe('layer');
    const field = (await box.boundingBox())!;
    expect(await hitAt(page, field.x + field.width / 2, field.y + 8)).toBe('app');
    // What it pins outside the room (a corner badge above it) shows and takes the pointer there too.
    const badge = (await runtime(page).locator('#sd-badge').boundingBox())!;
    expect(badge.y + badge.height).toBeLessThanOrEqual(bar.y + 1);
    // Read where it is now: the layer follows the box within a frame of any move.
    await expect.poll(async () => {
      const now = (await runtime(page).locator('#sd-badge').boundingBox())!;
      return hitAt(page, now.x + now.width / 2, now.y + now.height / 2);
    }).toBe('layer');
    await page.mouse.click(field.x + field.width / 2, field.y + 8);
    await expect(box).toBeFocused();

    // The person's draft reaches its frame (Guide Response wakes up); its Write For Me reaches the person's box.
    await box.fill('A storm rolls in over the harbour.');
    await expect(guide).toBeEnabled();
    await toolbar.getByRole('button', { name: 'Write For Me' }).click();
    await expect(box).toHaveValue('I draw my sword and step into the light.');

    // First a reply to talk about.
    llm.enqueue({ text: ['The harbour ', 'is quiet.'] });
    await box.fill('Where are we?');
    await box.press('Enter');
    const replies = workbench.locator('[data-testid="message"][data-role="assistant"]');
    await expect(replies.last().getByTestId('message-text')).toHaveText('The harbour is quiet.', { timeout: 20_000 });
    await expect(workbench.getByRole('button', { name: 'Stop' })).toHaveCount(0, { timeout: 20_000 });
    // Its button in each message's action bar (found through Lumiverse's message list) shows under the message, and works.
    const replyId = (await replies.last().getAttribute('data-message-id'))!;
    const under = replies.last().frameLocator('iframe[data-extension-id="lumiverse_composer"][data-surface-id^="message-"]');
    await under.getByRole('button', { name: 'Refine' }).click();
    await expect(runtime(page).locator('#sd-status')).toHaveText(`Refine ${replyId}`);

    // Guide Response: the draft is the direction, the box is emptied, and Send on the empty box asks for a fresh reply.
    llm.enqueue({ text: ['Thunder ', 'cracks overhead.'] });
    await box.fill('A storm rolls in.');
    await expect(guide).toBeEnabled();
    await guide.click();
    await expect(runtime(page).locator('#sd-status')).toHaveText('Guided.');
    await expect(box).toHaveValue('');
    await expect(replies).toHaveCount(2, { timeout: 20_000 });
    await expect(replies.last().getByTestId('message-text')).toHaveText('Thunder cracks overhead.', { timeout: 20_000 });
    // No message from the person was added, and the prompt carried the direction (its interceptor's).
    await expect(workbench.locator('[data-testid="message"][data-role="user"]')).toHaveCount(1);
    const sent = (llm.generations.at(-1)!.body as { messages: Array<{ role: string; content: string }> }).messages;
    expect(sent.at(-1)).toEqual({ role: 'system', content: '[Scene direction for the next reply: A storm rolls in.]' });
    expect(sent.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['Where are we?']);
    await expect(workbench.getByRole('button', { name: 'Stop' })).toHaveCount(0, { timeout: 20_000 });

    // Retry (Auto-Retry's way: a click on Lumiverse's Regenerate) writes a new swipe of the last reply.
    llm.enqueue({ text: ['Lightning ', 'splits the mast.'] });
    await toolbar.getByRole('button', { name: 'Retry' }).click();
    await expect(replies.last().getByTestId('message-text')).toHaveText('Lightning splits the mast.', { timeout: 20_000 });
    await expect(replies.last().getByTestId('swipe-count')).toHaveText('2/2');

    // What it mounted at Lumiverse's chat toolbar (SceneMap's strip) shows at the box, as tall as it draws, and works;
    // it is no tab of the extensions' drawer.
    const strip = page.getByTestId('composer').locator('iframe.surface-frame--composer');
    await expect(strip).toHaveCount(1);
    await expect.poll(async () => (await strip.boundingBox())?.height ?? 0).toBeGreaterThan(20);
    await page.frameLocator('iframe.surface-frame--composer').getByRole('button', { name: 'Scene map' }).click();
    await expect(page.frameLocator('iframe.surface-frame--composer').getByRole('button', { name: 'Scene map (open)' })).toBeVisible();
    await expect(page.getByRole('tab', { name: /chat_toolbar/ })).toHaveCount(0);

    // Another section: Lumiverse's box is gone from its page, so is its toolbar; back in the chat, both return.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Council' }).click();
    await expect(runtime(page).locator('[data-component="InputArea"]')).toHaveCount(0);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workbench' }).click();
    await expect(toolbar).toBeVisible();
    expect(problems).toEqual([]);
  });
});
