// A frontend written for Lumiverse's own page, in Chromium against browser mode: its fetch of Lumiverse's REST API is
// answered within its permissions, its route follows the open chat, the panel it appends to the page's body shows
// (taking the pointer only where it draws), its head stylesheets (CSS-in-JS rules too) style its drawer tab, its
// listeners on its page's document and window hear its tab, its Copy button writes the clipboard, a file it streams with tus over XMLHttpRequest reaches its
// backend, and rain it draws over the whole page (taking no pointer) leaves the app answering.
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { cli, ROOT, type RunningHost } from './host-process';
import { sharedHost } from './shared-host';
import { startNewSession } from './new-session';

const FIXTURE = path.join(ROOT, 'tests', 'fixtures', 'extensions', 'lumiverse_page');

test.describe("a frontend written for Lumiverse's page", () => {
  let host: RunningHost;

  sharedHost('page', { prepare: (dir) => void cli(dir, 'extensions', 'install', FIXTURE, '--grant', 'requested'), ready: (shared) => ({ host } = shared) });

  const panel = (page: Page) => page.frameLocator('iframe.runtime-frame[data-extension-id="lumiverse_page"]').locator('#bio-panel');

  test('its API reads, its route, its body panel and head styles work as on Lumiverse; a tus upload reaches its backend; its rain leaves the app answering', async ({ page }) => {
    await page.goto(host.url);
    await page.getByRole('navigation').getByText('Workbench', { exact: true }).click();
    const chatId = await startNewSession(page);
    // The route follows the open chat, and the API says the same chat is active.
    await expect(panel(page)).toContainText(`Chat room for ${chatId}`);
    await expect(panel(page)).toContainText(`Active chat: ${chatId}`);
    await expect(panel(page)).toContainText('System: Council Workbench');
    // Without the chats permission, Lumiverse's error shape; a route the Workbench does not have, the same.
    await expect(panel(page)).toContainText('Chats: 403 PERMISSION_DENIED: chats');
    await expect(panel(page)).toContainText('Presets: 404 Not available in the Council Workbench: GET /api/v1/presets');
    // Its fetch of a data: or blob: URL reads what it holds (no network in either).
    await expect(panel(page)).toContainText('Local reads: 3 tracks, kept');
    // The sprite its backend keeps (spindle.images) shows from its url on the frame's origin.
    await expect(panel(page)).toContainText('Sprite shown, 1×1');
    // The panel shows where it draws, and the app's navigation beside it still answers.
    const frame = page.locator('iframe.runtime-frame[data-extension-id="lumiverse_page"]');
    await expect(frame).toHaveClass(/runtime-frame--layer/);
    // It takes the pointer on its panel and on its badge in another corner, and nowhere between them.
    const runtime = page.frameLocator('iframe.runtime-frame[data-extension-id="lumiverse_page"]');
    const layerAt = (x: number, y: number) => page.evaluate(([px, py]) => (document.elementFromPoint(px!, py!)?.closest('iframe.runtime-frame') ? 'layer' : 'app'), [x, y]);
    const centre = async (box: { x: number; y: number; width: number; height: number } | null) => [box!.x + box!.width / 2, box!.y + box!.height / 2] as const;
    await expect.poll(async () => layerAt(...(await centre(await runtime.locator('#bio-badge').boundingBox())))).toBe('layer');
    expect(await layerAt(...(await centre(await runtime.locator('#bio-panel').boundingBox())))).toBe('layer');
    const viewport = page.viewportSize()!;
    expect(await layerAt(viewport.width / 2, viewport.height / 2)).toBe('app');
    // A real click between them (right of the badge, left of the panel), on the composer, reaches the app.
    const composer = page.getByLabel('Message');
    const field = (await composer.boundingBox())!;
    const x = Math.min(field.x + field.width - 10, viewport.width / 2);
    expect(x).toBeGreaterThan((await runtime.locator('#bio-badge').boundingBox())!.x);
    const outsidePresses = async () => Number(/Outside presses: (\d+)/.exec((await panel(page).textContent()) ?? '')?.[1] ?? 0);
    const before = await outsidePresses();
    await page.mouse.click(x, field.y + field.height / 2);
    await expect(composer).toBeFocused();
    // Its click-outside listener (a popover's, as Mode Toggles closes one) heard that press, and only that one.
    await expect.poll(outsidePresses).toBe(before + 1);
    await page.getByRole('navigation', { name: 'Sections' }).getByText('Council', { exact: true }).click({ timeout: 5000 });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Council');
    // The press that left the chat was told too; in another section (where grants and keys are) it hears nothing.
    await expect.poll(outsidePresses).toBe(before + 2);
    await page.getByRole('heading', { level: 1 }).click();
    await page.getByRole('navigation', { name: 'Sections' }).getByText('Extensions', { exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Extensions');
    await page.getByRole('navigation', { name: 'Sections' }).getByText('Council', { exact: true }).click();
    await page.getByRole('navigation').getByText('Workbench', { exact: true }).click();
    // Back in the chat, two presses more: each told once, after (in order) whatever the others would have told.
    for (const told of [before + 3, before + 4]) {
      await page.mouse.click(x, field.y + field.height / 2);
      await expect.poll(outsidePresses).toBe(told);
    }
    await page.getByRole('navigation').getByText('Workbench', { exact: true }).click();
    // Its head stylesheet reaches its drawer tab's frame.
    const drawerTab = page.frameLocator('iframe[data-extension-id="lumiverse_page"][data-surface-id^="drawer-"]');
    await expect(drawerTab.locator('.bio-note')).toHaveCSS('color', 'rgb(1, 2, 3)');
    // So do rules added through the CSSOM (CSS-in-JS in production), and those it adds and deletes later.
    await expect(drawerTab.locator('.bio-speedy')).toHaveCSS('color', 'rgb(4, 5, 6)');
    await expect(drawerTab.locator('.bio-media')).toHaveCSS('color', 'rgb(10, 11, 12)');
    await expect(drawerTab.locator('.bio-late')).not.toHaveCSS('color', 'rgb(7, 8, 9)');
    await drawerTab.getByRole('button', { name: 'Restyle' }).click();
    await expect(drawerTab.locator('.bio-late')).toHaveCSS('color', 'rgb(7, 8, 9)');
    await expect(drawerTab.locator('.bio-speedy')).not.toHaveCSS('color', 'rgb(4, 5, 6)');
    // Changes inside the @media and on a rule's own style reach it too.
    await expect(drawerTab.locator('.bio-media')).toHaveCSS('color', 'rgb(13, 14, 15)');
    await expect(drawerTab.locator('.bio-media')).toHaveCSS('background-color', 'rgb(16, 17, 18)');
    // Its listeners on its page's document and window hear what the person does in its tab, as on Lumiverse's page.
    await drawerTab.getByRole('button', { name: 'Delegated' }).click();
    await expect(drawerTab.locator('.bio-heard')).toHaveText('Heard a click on the document');
    await page.keyboard.press('Escape');
    await expect(drawerTab.locator('.bio-heard')).toHaveText('Heard Escape on the window');
    // Its Copy button: its code runs in a frame that never has focus, yet the person's click in its tab lets the app
    // write the text (the click activates the window too), as a focused page would.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(host.url).origin });
    await drawerTab.getByRole('button', { name: 'Copy note' }).click();
    await expect(drawerTab.locator('.bio-copied')).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Field notes, copied.');
    // A 700 KB file over tus, in parts; its backend reads it back and deletes it.
    await panel(page).getByRole('button', { name: 'Upload notes' }).click();
    // Its progress moved as each part went (the first 512 KB, then the whole).
    await expect(panel(page)).toContainText(`Uploaded ${700 * 1024 + 12} bytes (progress saw ${700 * 1024 + 12} in 2 steps)`);
    await expect(panel(page)).toContainText(`Backend read ${700 * 1024 + 12} bytes of notes.txt ("Field notes."), deleted true, gone true`);
    // Another chat opened: the route and the active chat follow (route listeners heard a popstate).
    const next = await startNewSession(page);
    expect(next).not.toBe(chatId);
    await expect(panel(page)).toContainText(`Chat room for ${next}`);
    await expect(panel(page)).toContainText(`Active chat: ${next}`);

    // Rain over the whole page that takes no pointer (pointer-events: none), as ambient-weather extensions draw it.
    await panel(page).getByRole('button', { name: 'Close panel' }).click();
    await drawerTab.getByRole('button', { name: 'Badge' }).click();
    await expect(frame).not.toHaveClass(/runtime-frame--layer/);
    await drawerTab.getByRole('button', { name: 'Rain' }).click();
    // Alone, it shows over the app, and the app under it answers: the middle of the window and a real click there.
    await expect(frame).toHaveCSS('visibility', 'visible');
    expect(await layerAt(viewport.width / 2, viewport.height / 2)).toBe('app');
    await expect(frame).toHaveClass(/runtime-frame--passive/);
    // Over the chat only: in another section (where grants and keys are) it is not shown.
    await page.getByRole('navigation', { name: 'Sections' }).getByText('Extensions', { exact: true }).click();
    await expect(frame).toHaveCSS('visibility', 'hidden');
    await page.getByRole('navigation').getByText('Workbench', { exact: true }).click();
    await expect(frame).toHaveCSS('visibility', 'visible');
    await page.getByRole('navigation').getByText('Workbench', { exact: true }).focus();
    const box = (await composer.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect(composer).toBeFocused();
    // Weather hung in Lumiverse's ChatView covers the chat as it shows, and no more (the stand-in is placed there).
    await drawerTab.getByRole('button', { name: 'Weather' }).click();
    await expect(drawerTab.locator('.bio-sky')).toHaveText('Weather in the chat view (with its body)');
    const chatBox = await page.evaluate(() => {
      const a = document.querySelector('[data-testid="chat"]')!.getBoundingClientRect();
      const b = document.getElementById('main')!.getBoundingClientRect();
      return { x: Math.max(a.left, b.left), y: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) };
    });
    await expect.poll(async () => {
      const w = await runtime.locator('.bio-weather').boundingBox();
      return w ? [w.x - chatBox.x, w.y - chatBox.y, w.x + w.width - chatBox.right, w.y + w.height - chatBox.bottom].every((d) => Math.abs(d) <= 1) : false;
    }).toBe(true);
    // In another section no chat shows: its ChatView is gone, as on Lumiverse's page away from a chat.
    await page.getByRole('navigation', { name: 'Sections' }).getByText('Council', { exact: true }).click();
    await expect(runtime.locator('[data-component="ChatView"]')).toHaveCount(0);
    await page.getByRole('navigation').getByText('Workbench', { exact: true }).click();
    await expect(runtime.locator('[data-component="ChatView"]')).toHaveCount(1);
    // With the badge back, the frame takes the pointer on the badge only (the rain is not shown then): never over the app.
    await drawerTab.getByRole('button', { name: 'Badge' }).click();
    await expect(frame).not.toHaveClass(/runtime-frame--passive/);
    await expect(frame).toHaveClass(/runtime-frame--layer/);
    await expect.poll(async () => layerAt(...(await centre(await runtime.locator('#bio-badge').boundingBox())))).toBe('layer');
    expect(await layerAt(viewport.width / 2, viewport.height / 2)).toBe('app');

    // Its page's alert() shows as a toast with its name (a frame shows no dialog over the app).
    await drawerTab.getByRole('button', { name: 'Alert' }).click();
    const toast = page.getByTestId('extension-toast');
    await expect(toast).toHaveText(/Bio Panel\s*Nothing was saved: the host said 404\./);
    await toast.getByRole('button', { name: 'Dismiss' }).click();
    await expect(toast).toHaveCount(0);
    // Its "Open settings" (spindle:open-settings on its window, as Lumiverse's page hears it) takes the person there.
    await drawerTab.getByRole('button', { name: 'Open settings' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Extensions');
  });
});
