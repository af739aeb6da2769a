// Every section, in light and in dark, with something in it: the pictures the README shows. A test run writes them
// to tests/e2e/screenshots/gallery/; `UPDATE_DOCS_SCREENSHOT=1 npx playwright test tests/e2e/gallery.spec.ts`
// refreshes docs/screenshots/ (so an ordinary run leaves tracked files alone).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { LlmTestServer } from '../fixtures/llm-server';
import { addLocalConnection, assertRendererBuilt, ROOT, startHost, type RunningHost, cli } from './host-process';
import { watchPage } from './page-watch';

const MODEL = 'gallery-model';
const MCP_FIXTURE = path.join(ROOT, 'tests', 'fixtures', 'mcp', 'stdio-server.mjs');
const SECTIONS = ['Council', 'Tools', 'Extensions', 'Sidecar', 'Connections', 'Workbench', 'MCP servers', 'Safety'] as const;
const OUT = process.env.UPDATE_DOCS_SCREENSHOT === '1' ? path.join(ROOT, 'docs', 'screenshots') : path.join(ROOT, 'tests', 'e2e', 'screenshots', 'gallery');

const slug = (section: string) => section.toLowerCase().replace(/\s+/g, '-');

test.describe('section gallery', () => {
  let host: RunningHost;
  let llm: LlmTestServer;
  let dataDir: string;

  test.beforeAll(async () => {
    // CLI runs and a host start: on a loaded machine they can pass the default 60 s, so the setup has its own budget.
    test.setTimeout(180_000);
    assertRendererBuilt();
    llm = await LlmTestServer.start({ models: [MODEL, 'gallery-small'] });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-e2e-gallery-'));
    const connectionId = addLocalConnection(dataDir, llm.origin, MODEL, 'Local LM Studio');
    cli(dataDir, 'sidecar', 'set', '--connection', connectionId, '--model', MODEL);
    cli(dataDir, 'council', 'add-member', '--pack', 'story-council', '--item', 'plot-enforcer', '--role', 'Plot Enforcer', '--chance', '100', '--tools', 'council:pacing_review');
    cli(dataDir, 'council', 'add-member', '--pack', 'story-council', '--item', 'continuity-keeper', '--role', 'Continuity', '--chance', '60', '--tools', 'knowledge-base:search_knowledge_base');
    cli(dataDir, 'mcp', 'add', 'notes', '--command', process.execPath, '--arg', MCP_FIXTURE, '--arg=--mode', '--arg', 'basic');
    const card = path.join(dataDir, 'mara.json');
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
    cli(dataDir, 'sessions', 'import', card);
    host = await startHost(dataDir);
    fs.mkdirSync(OUT, { recursive: true });
  });

  test.afterAll(async () => {
    await host?.stop();
    await llm?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
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
