// A frontend written against Lumiverse's frontend extensibility v2 (as Cubby and Connection-Folders are), in Chromium
// against browser mode: it lists the app's places at once and opens one, keeps its folders with ctx.settings across
// a reload, follows the open chat with ctx.state, keeps a note in the character card from its character editor tab,
// and its unguarded component override does not end its setup (it is listed on its card instead).
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { SECTIONS } from '../../renderer/src/app/sections';
import { cli, ROOT, type RunningHost } from './host-process';
import { sharedHost } from './shared-host';
import { startNewSession } from './new-session';

const FIXTURE = path.join(ROOT, 'tests', 'fixtures', 'extensions', 'lumiverse_tab_folders');

test.describe('a frontend written for frontend v2', () => {
  let host: RunningHost;

  sharedHost('v2', { prepare: (dir) => void cli(dir, 'extensions', 'install', FIXTURE, '--grant', 'requested'), ready: (shared) => ({ host } = shared) });

  const folders = (page: Page) => page.frameLocator('iframe[data-extension-id="lumiverse_tab_folders"][data-surface-id^="drawer-"]');

  test('lists the places, opens one, keeps its folders across a reload and follows the open chat', async ({ page }) => {
    await page.goto(host.url);
    await page.getByRole('navigation').getByText('Workbench', { exact: true }).click();
    const tab = folders(page);
    // Every section of the app is a place it lists (its own tab it leaves out, as Cubby does).
    await expect(tab.locator('#folders-status')).toHaveText(`${SECTIONS.length} tabs; pinned: none`);
    await expect(tab.locator('#folders-chat')).toHaveText('No chat open');
    const chatId = await startNewSession(page);
    await expect(tab.locator('#folders-chat')).toHaveText(`Open chat: ${chatId}`);
    // Its folders are its settings: kept on the host, there again after the window reloads. A folder is named in a
    // form: its submit event fires in the frame (Enter in the field), as it never did without allow-forms.
    await tab.getByLabel('Folder name').fill('Daily');
    await tab.getByLabel('Folder name').press('Enter');
    await expect(tab.locator('#folders-names')).toHaveText('Folders: Daily');
    await tab.getByRole('button', { name: 'Pin Connections' }).click();
    await expect(tab.locator('#folders-status')).toHaveText(`${SECTIONS.length} tabs; pinned: connections`);
    await page.reload();
    await page.getByRole('navigation').getByText('Workbench', { exact: true }).click();
    await expect(folders(page).locator('#folders-status')).toHaveText(`${SECTIONS.length} tabs; pinned: connections`);
    await expect(folders(page).locator('#folders-names')).toHaveText('Folders: Daily');
    // Its character editor tab shows under the session's Character & world, and saves into the card's extensions.
    await page.getByRole('tab', { name: 'Character & world' }).click();
    const note = page.frameLocator('iframe[data-extension-id="lumiverse_tab_folders"][data-surface-id^="character-"]');
    await expect(note.locator('#note-shown')).toHaveText(`Editing ${chatId}: null`);
    // By keyboard: the cards above it (world books) may still grow and move the frame under a pointer's click.
    await note.getByRole('button', { name: 'Save note' }).press('Enter');
    await expect(note.locator('#note-shown')).toHaveText(`Editing ${chatId}: {"note":"harbor"}`);
    await page.reload();
    await page.getByRole('navigation').getByText('Workbench', { exact: true }).click();
    await page.getByRole('tab', { name: 'Character & world' }).click();
    await expect(note.locator('#note-shown')).toHaveText(`Editing ${chatId}: {"note":"harbor"}`);
    await page.getByRole('tab', { name: 'Chat' }).click();
    // Its inline onclick is refused by the frame's policy, quietly in the page; its card says so.
    await folders(page).getByRole('button', { name: 'Legacy button' }).click();
    await expect(folders(page).locator('#folders-legacy')).toHaveText('Legacy button');
    // A click in its tab opens the place it names: the person was using it, so the window moves without asking.
    await folders(page).getByRole('button', { name: 'Open Safety' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Safety');
    // The override it did not check for is listed on its card; its setup went on.
    await page.getByRole('navigation').getByText('Extensions', { exact: true }).click();
    await expect(page.getByTestId('extension-frontend-inert')).toContainText('ui.registerComponentOverride(ConnectionsPicker)');
    await expect(page.getByTestId('extension-frontend-refusals')).toContainText("its frame's policy blocked an inline event handler (onclick=…): add listeners in code");
  });
});
