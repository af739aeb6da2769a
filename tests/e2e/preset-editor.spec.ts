// The preset editor in Chromium, with a frontend written as Workshop, VELLUM and APC are: the chat's preset imported
// and shown block by block, the extension's launcher in the editor's toolbar, its tab holding Lumiverse's Loom block
// editor on the open preset, an edit there saved into the preset (the app's editor shows it), and the extension's
// own metadata key kept across a reload.
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { cli, ROOT, type RunningHost } from './host-process';
import { sharedHost } from './shared-host';
import { startNewSession } from './new-session';

const FIXTURE = path.join(ROOT, 'tests', 'fixtures', 'extensions', 'lumiverse_preset_workshop');
const LOOM = {
  name: 'Loom Suite',
  blocks: [
    { id: 'main', name: 'Main Prompt', content: 'Be {{char}}.' },
    { id: 'hist', name: 'Chat History', marker: 'chat_history' },
  ],
};

test.describe('the preset editor with an extension written for it', () => {
  let host: RunningHost;

  sharedHost('preset', { prepare: (dir) => void cli(dir, 'extensions', 'install', FIXTURE, '--grant', 'requested'), ready: (shared) => ({ host } = shared) });

  test("its Loom block editor edits the chat's preset; its launcher keeps a count in its own metadata", async ({ page }) => {
    await page.goto(host.url);
    await page.getByRole('navigation').getByText('Workbench', { exact: true }).click();
    await startNewSession(page);
    await page.getByLabel('Lumiverse preset file').setInputFiles({ name: 'Loom Suite.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(LOOM)) });
    await page.getByRole('tab', { name: 'Preset' }).click();
    const editor = page.getByTestId('preset-editor');
    await expect(editor.getByRole('heading', { name: 'Loom Suite' })).toBeVisible();
    await expect(editor.locator('[data-block-id]')).toHaveCount(2);

    const tab = page.frameLocator('iframe[data-extension-id="lumiverse_preset_workshop"][data-surface-id^="preset-"]');
    await expect(tab.locator('#workshop-status')).toHaveText('Editing Loom Suite: 2 blocks; opened 0 times');
    await tab.getByRole('button', { name: 'Edit Main Prompt' }).press('Enter');
    await tab.getByRole('textbox').last().fill('Be {{char}}, briefly.');
    await tab.getByRole('button', { name: 'Save' }).press('Enter');
    await expect(tab.locator('#workshop-saved')).toHaveText('Saved');
    // The app's editor shows the preset as saved.
    await editor.getByRole('button', { name: 'Edit Main Prompt' }).click();
    await expect(editor.getByTestId('preset-block-form').getByRole('textbox', { name: /Text/ })).toHaveValue('Be {{char}}, briefly.');

    // Its launcher, in the editor's toolbar: a count in its own key of the preset's metadata, there after a reload.
    const launcher = page.frameLocator('iframe[data-extension-id="lumiverse_preset_workshop"][data-surface-id^="mount-"]');
    await launcher.getByRole('button', { name: 'Open Workshop' }).press('Enter');
    await expect(tab.locator('#workshop-status')).toHaveText('Editing Loom Suite: 2 blocks; opened 1 times');
    await page.reload();
    await page.getByRole('navigation').getByText('Workbench', { exact: true }).click();
    await page.getByRole('tab', { name: 'Preset' }).click();
    await expect(tab.locator('#workshop-status')).toHaveText('Editing Loom Suite: 2 blocks; opened 1 times');
  });
});
