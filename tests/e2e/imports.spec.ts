// Bringing a character card in, in Chromium against the real headless host: drop a PNG card on the Workbench, pick
// one of its greetings, see the character, its picture and its world info, send a turn whose world info fires (the
// main request to the local LLM server carries the entry), and export it back as a PNG card.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { pngTextChunks, solidPng, withPngTextChunks } from '../../electron/core/imports/png-text';
import { LlmTestServer } from '../fixtures/llm-server';
import { addLocalConnection, ROOT, type RunningHost } from './host-process';
import { sharedHost } from './shared-host';
import { watchPage } from './page-watch';

const MODEL = 'e2e-card-model';
const LAMP_LORE = 'The lighthouse lamp burns whale oil and is lit at dusk.';
const CARD = {
  spec: 'chara_card_v3',
  spec_version: '3.0',
  data: {
    name: 'Mara',
    description: 'Keeper of the northern lighthouse.',
    personality: 'Dry, patient.',
    scenario: 'A storm is coming in.',
    first_mes: 'You made it up the stairs.',
    alternate_greetings: ['Late again, and soaked.', 'The storm is early tonight.'],
    character_book: {
      entries: [
        { keys: ['lamp'], content: LAMP_LORE, enabled: true, insertion_order: 10 },
        { keys: ['harbor'], content: 'The harbor chain is raised at night.', enabled: true, insertion_order: 20 },
      ],
    },
  },
};

test.describe('importing a character card in the Workbench', () => {
  let host: RunningHost;
  let llm: LlmTestServer;
  let connectionId: string;

  sharedHost('imports', {
    models: [MODEL],
    prepare: (dir, llm) => {
      connectionId = addLocalConnection(dir, llm!.origin, MODEL);
    },
    ready: (shared) => {
      ({ host } = shared);
      llm = shared.llm!;
    },
  });

  test('drop a PNG card, pick a greeting, see the character and its world info, and a turn whose world info fires', async ({ page }) => {
    const problems = watchPage(page);
    const picture = solidPng(48, [0xc0, 0x60, 0x30]);
    const card = withPngTextChunks(picture, { ccv3: Buffer.from(JSON.stringify(CARD)).toString('base64') });

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(host.url);
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workbench' }).click();
    const workbench = page.getByTestId('panel-workbench');

    // Drop the card file on the (empty) Workbench.
    const dataTransfer = await page.evaluateHandle(
      ({ b64, name }) => {
        const binary = atob(b64);
        const bytes = new Uint8Array(binary.length);
        for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], name, { type: 'image/png' }));
        return transfer;
      },
      { b64: card.toString('base64'), name: 'mara.png' },
    );
    const zone = workbench.getByTestId('workbench-drop');
    await zone.dispatchEvent('dragover', { dataTransfer });
    await zone.dispatchEvent('drop', { dataTransfer });

    // The preview: who it is, the picture, the greetings to choose from, the world info.
    const form = workbench.getByTestId('import-form');
    const preview = form.getByTestId('import-preview');
    await expect(preview).toContainText('Mara');
    await expect(preview).toContainText('Character card · 2 world-info entries · 3 greetings');
    await expect(preview.getByRole('img', { name: "Mara's picture" })).toBeVisible();
    await expect(preview.getByRole('radio')).toHaveCount(3);
    await preview.getByRole('radio', { name: /Alternate 2/ }).check();
    await form.getByRole('button', { name: 'Import Mara' }).click();

    // The new session: the character, its picture, the chosen greeting as the first reply.
    await expect(workbench.getByTestId('session-title')).toHaveText('Mara');
    await expect(workbench.getByTestId('character-picture')).toBeVisible();
    const first = workbench.locator('[data-testid="message"][data-role="assistant"]').first();
    await expect(first.getByTestId('message-text')).toHaveText('The storm is early tonight.');
    // The card's picture beside the character's message too.
    expect(await first.getByTestId('message-avatar').locator('img').getAttribute('src')).toBe(await workbench.getByTestId('character-picture').getAttribute('src'));
    await workbench.getByRole('tab', { name: 'Character & world' }).click();
    await expect(workbench.getByLabel('Character name')).toHaveValue('Mara');
    await expect(workbench.getByText(LAMP_LORE)).toBeVisible();
    await workbench.getByRole('tab', { name: 'Chat' }).click();

    // A turn that names the lamp: its entry goes into the main request, the harbor's does not.
    await workbench.getByLabel('Main connection').selectOption(connectionId);
    llm.enqueue({ text: ['The lamp ', 'is lit.'] });
    const box = workbench.getByLabel('Message');
    await box.fill('Is the lamp lit yet?');
    await box.press('Enter');
    const reply = workbench.locator('[data-testid="message"][data-role="assistant"]').last();
    await expect(reply.getByTestId('message-text')).toHaveText('The lamp is lit.', { timeout: 20_000 });
    expect(llm.generations).toHaveLength(1);
    const request = JSON.stringify(llm.generations[0]!.body);
    expect(request).toContain(LAMP_LORE);
    expect(request).not.toContain('harbor chain');
    expect(request).toContain('Keeper of the northern lighthouse.');

    // Back out as a PNG card with the same picture.
    await workbench.getByLabel('Export format').selectOption('card-v3-png');
    const downloading = page.waitForEvent('download');
    await workbench.getByRole('button', { name: 'Export', exact: true }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('Mara.card-v3.png');
    const saved = fs.readFileSync((await download.path())!);
    expect(withPngTextChunks(saved, {}, ['chara', 'ccv3']).equals(picture)).toBe(true);
    expect(JSON.parse(Buffer.from(pngTextChunks(saved).get('ccv3')!, 'base64').toString())).toMatchObject({ data: { name: 'Mara', alternate_greetings: CARD.data.alternate_greetings } });
    await page.screenshot({ path: path.join(ROOT, 'tests', 'e2e', 'screenshots', 'card-import.png') });
    expect(problems).toEqual([]);
  });

  test('the Packs tab: import a LumiHub pack, asked to replace or keep both on the second import, export it as LumiHub, remove it', async ({ page }) => {
    const problems = watchPage(page);
    const lumihub = {
      packName: 'Harbor Watch',
      packAuthor: 'Ines',
      version: '2',
      coverUrl: 'https://example.invalid/cover.png',
      lumiaItems: [
        { lumiaName: 'Old Tamsin', lumiaDefinition: 'Harbor master.', lumiaPersonality: 'Gruff.', lumiaBehavior: 'Counts ships.', genderIdentity: 0, avatarUrl: 'https://example.invalid/t.png' },
        { lumiaName: 'Pell', lumiaDefinition: 'Ferryman.', genderIdentity: 3 },
      ],
      loomItems: [{ loomName: 'Sea shanty narration', loomContent: 'Sing it.' }],
      packExtras: [],
    };
    const file = { name: 'harbor-watch.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(lumihub)) };

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(host.url);
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Council' }).click();
    await page.getByRole('tab', { name: 'Packs' }).click();
    const tab = page.getByTestId('packs-tab');
    const bundled = await tab.getByTestId('pack').count();
    expect(bundled).toBeGreaterThan(0);

    await tab.getByLabel('Pack file').setInputFiles(file);
    await expect(tab.getByTestId('pack-imported')).toContainText('Imported Harbor Watch: 2 member personas, 1 loom item kept.');
    const row = tab.locator('[data-testid="pack"][data-id="harbor-watch"]');
    await expect(row).toContainText('Harbor Watch v2 · by Ines');
    await expect(row).toContainText('2 personas: Old Tamsin, Pell · 1 loom item kept (Sea shanty narration)');
    await expect(row).toContainText('Yours');

    // The same pack again: asked, not refused; keep both gives a second pack under its own id.
    await tab.getByLabel('Pack file').setInputFiles(file);
    const conflict = tab.getByTestId('pack-conflict');
    await expect(conflict).toContainText('already installed');
    await conflict.getByRole('button', { name: 'Keep both' }).click();
    await expect(tab.getByTestId('pack')).toHaveCount(bundled + 2);
    await expect(conflict).toHaveCount(0);

    // Export in LumiHub's shape: the file comes back as it came (links, loom items, an "any" gender as written).
    await row.getByLabel('Export format for Harbor Watch').selectOption('lumihub');
    const downloading = page.waitForEvent('download');
    await row.getByRole('button', { name: 'Export Harbor Watch' }).click();
    const exported = JSON.parse(fs.readFileSync((await (await downloading).path())!, 'utf8')) as typeof lumihub;
    expect(exported).toEqual(lumihub);
    // No remote image was loaded for the avatar link (the CSP would refuse it; the page never asks).
    expect(await page.locator('img[src^="https:"]').count()).toBe(0);

    // Remove: asked first, then gone.
    await row.getByRole('button', { name: 'Remove Harbor Watch…' }).click();
    await row.getByTestId('confirm-remove').getByRole('button', { name: 'Remove' }).click();
    await expect(row).toHaveCount(0);
    await expect(tab.getByTestId('pack')).toHaveCount(bundled + 1);
    await page.screenshot({ path: path.join(ROOT, 'tests', 'e2e', 'screenshots', 'packs.png') });
    expect(problems).toEqual([]);
  });
});
