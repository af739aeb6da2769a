// Every section, in light and in dark, with something in it: the pictures the README shows. A test run writes them
// to tests/e2e/screenshots/gallery/; `UPDATE_DOCS_SCREENSHOT=1 npx playwright test tests/e2e/gallery.spec.ts`
// refreshes docs/screenshots/ (so an ordinary run leaves tracked files alone).
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { addLocalConnection, ROOT, type RunningHost, cli } from './host-process';
import { sharedHost } from './shared-host';
import { watchPage } from './page-watch';

const MODEL = 'gallery-model';
const MCP_FIXTURE = path.join(ROOT, 'tests', 'fixtures', 'mcp', 'stdio-server.mjs');
const SECTIONS = ['Council', 'Tools', 'Extensions', 'Sidecar', 'Connections', 'Workbench', 'MCP servers', 'Safety'] as const;
const OUT = process.env.UPDATE_DOCS_SCREENSHOT === '1' ? path.join(ROOT, 'docs', 'screenshots') : path.join(ROOT, 'tests', 'e2e', 'screenshots', 'gallery');

const slug = (section: string) => section.toLowerCase().replace(/\s+/g, '-');

test.describe('section gallery', () => {
  let host: RunningHost;

  sharedHost('gallery', {
    models: [MODEL, 'gallery-small'],
    prepare: (dir, llm) => {
      const connectionId = addLocalConnection(dir, llm!.origin, MODEL, 'Local LM Studio');
      cli(dir, 'sidecar', 'set', '--connection', connectionId, '--model', MODEL);
      cli(dir, 'council', 'add-member', '--pack', 'story-council', '--item', 'plot-enforcer', '--role', 'Plot Enforcer', '--chance', '100', '--tools', 'council:pacing_review');
      cli(dir, 'council', 'add-member', '--pack', 'story-council', '--item', 'continuity-keeper', '--role', 'Continuity', '--chance', '60', '--tools', 'knowledge-base:search_knowledge_base');
      cli(dir, 'mcp', 'add', 'notes', '--command', process.execPath, '--arg', MCP_FIXTURE, '--arg=--mode', '--arg', 'basic');
      const card = path.join(dir, 'mara.json');
      fs.writeFileSync(
        card,
        JSON.stringify({
          spec: 'chara_card_v2',
          data: {
            name: 'Mara',
            description: 'Keeper of the northern lighthouse.',
            first_mes: 'You made it up the stairs. The lamp needs oil before the storm.',
            character_book: { entries: [{ keys: ['lamp'], content: 'The lamp burns whale oil.' }] },
          },
        }),
      );
      cli(dir, 'sessions', 'import', card);
      fs.mkdirSync(OUT, { recursive: true });
    },
    ready: (shared) => ({ host } = shared),
  });

  test('every section in light and dark', async ({ page }) => {
    const problems = watchPage(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(host.url);
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
    // The imported session answers on the local connection.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workbench' }).click();
    await page.getByTestId('panel-workbench').getByLabel('Main connection').selectOption({ label: 'Local LM Studio' });
    // The imported chat has no reply yet, so Getting started still offers its last step: put away, as a person would.
    await page.getByTestId('first-run').getByRole('button', { name: 'Hide' }).click();
    await expect(page.getByTestId('first-run')).toHaveCount(0);
    for (const theme of ['Light', 'Dark'] as const) {
      await page.getByRole('radio', { name: theme }).check();
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme.toLowerCase());
      for (const section of SECTIONS) {
        await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: section }).click();
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(section);
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        await page.mouse.move(1270, 790);
        await page.evaluate(() => document.getAnimations().forEach((a) => a.finish()));
        const file = path.join(OUT, `${slug(section)}-${theme.toLowerCase()}.png`);
        await page.screenshot({ path: file });
        expect(fs.statSync(file).size).toBeGreaterThan(10_000);
      }
    }
    expect(problems).toEqual([]);
  });
});
