// Search and backup in Chromium against two headless hosts: in the first, a search across chats opens the other
// session at the message found; its data is backed up from the sidebar (a real download), restored from the sidebar
// into a second host on a fresh data folder, and both folders then export the same backup.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { assertRendererBuilt, ROOT, startHost, type RunningHost, cli } from './host-process';


function sessionFile(dir: string, id: string, title: string, texts: string[], updatedAt: number): string {
  const file = path.join(dir, `${id}.json`);
  const messages = texts.map((content, i) => ({ id: `${id}-${i}`, role: i % 2 ? 'assistant' : 'user', content, createdAt: updatedAt + i }));
  fs.writeFileSync(file, JSON.stringify({ format: 'council-workbench/session', version: 1, id, title, createdAt: updatedAt, updatedAt, character: { name: 'Mira', description: '', personality: '', scenario: '' }, persona: { name: 'Ada', description: '' }, worldInfo: [], messages }));
  return file;
}

async function open(page: Page, host: RunningHost) {
  await page.goto(host.url);
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
}

test.describe('search and backup', () => {
  let first: RunningHost;
  let second: RunningHost;
  let dirs: string[] = [];

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    assertRendererBuilt();
    const [a, b, files] = ['cw-e2e-backup-a-', 'cw-e2e-backup-b-', 'cw-e2e-backup-files-'].map((p) => fs.mkdtempSync(path.join(os.tmpdir(), p))) as [string, string, string];
    dirs = [a, b, files];
    cli(a, 'sessions', 'import', sessionFile(files, 'tavern', 'Tavern night', ['Hello', 'Welcome in.'], 2000));
    cli(a, 'sessions', 'import', sessionFile(files, 'river', 'River crossing', ['When does the ferry leave?', 'At dawn.', 'And the last ferry back?', 'At dusk, if the wind allows.'], 1000));
    first = await startHost(a);
    second = await startHost(b);
  });

  test.afterAll(async () => {
    await first?.stop();
    await second?.stop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a search opens the message found; a backup restored into a fresh folder exports the same', async ({ page }) => {
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    await page.setViewportSize({ width: 1440, height: 900 });
    await open(page, first);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workbench' }).click();
    const workbench = page.getByTestId('panel-workbench');

    await workbench.getByLabel('Search chats').fill('last ferry');
    await workbench.getByLabel('Search chats').press('Enter');
    const hits = workbench.getByTestId('search-hit');
    await expect(hits).toHaveCount(1);
    await expect(hits.first()).toContainText('River crossing · message 3');
    await expect(hits.first().locator('mark')).toHaveText('last ferry');
    await hits.first().click();
    await expect(workbench.getByTestId('open-session')).toHaveAttribute('data-session-id', 'river');
    await expect(page.locator(':focus')).toHaveAttribute('data-message-id', 'river-2');
    await page.screenshot({ path: path.join(ROOT, 'tests', 'e2e', 'screenshots', 'search.png') });

    const data = page.getByTestId('backup');
    const download = page.waitForEvent('download');
    await data.getByRole('button', { name: 'Back up…' }).click();
    const file = path.join(dirs[2]!, (await download).suggestedFilename());
    await (await download).saveAs(file);
    await expect(data.getByRole('status')).toContainText('Saved council-workbench-backup-');

    // The second host, on a fresh data folder: restore from the sidebar.
    await open(page, second);
    const fresh = page.getByTestId('backup');
    await fresh.getByLabel('Backup file to restore').setInputFiles(file);
    await fresh.getByRole('button', { name: 'Restore', exact: true }).click();
    await expect(fresh.getByTestId('backup-restored')).toContainText('Restored 2 sessions, 0 packs and the settings.');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workbench' }).click();
    await expect(page.getByTestId('panel-workbench').getByTestId('session')).toHaveCount(2);

    const exported = (dir: string) => {
      const backup = JSON.parse(cli(dir, 'backup', 'export')) as Record<string, unknown>;
      return { ...backup, createdAt: 0 };
    };
    expect(exported(dirs[1]!)).toEqual(exported(dirs[0]!));
    expect(problems).toEqual([]);
  });
});
