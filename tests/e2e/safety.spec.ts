// Safe tool use in Chromium against the real headless host (browser mode asks a person): Try it on notes:create_note
// raises the approval dialog with a diff preview; Reject with a message shows the rejection; Approve once writes the note.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ROOT, type RunningHost } from './host-process';
import { sharedHost } from './shared-host';
import { watchPage } from './page-watch';

const XSS = '<img src=x onerror=window.__pwned=1>';
const SCREENSHOTS = path.join(ROOT, 'tests', 'e2e', 'screenshots');



async function openTool(page: Page, host: RunningHost, qualifiedName: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Tools' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tools');
  await page.getByRole('searchbox', { name: 'Search tools' }).fill(qualifiedName.split(':')[1]!);
  await page.locator(`button.tool-row[data-qualified-name="${qualifiedName}"]`).click();
  await expect(page.getByTestId('tool-details').locator('code.tool-details__qname')).toHaveText(qualifiedName);
  void host;
}

async function runWithJson(page: Page, args: Record<string, unknown>): Promise<void> {
  const details = page.getByTestId('tool-details');
  const json = details.locator('textarea[data-raw-json]');
  if (!(await json.isVisible())) await details.getByRole('switch', { name: 'Edit as JSON' }).check();
  await json.fill(JSON.stringify(args, null, 2));
  await details.getByTestId('try-it-run').click();
}

test.describe('approvals against the headless host', () => {
  test.describe.configure({ mode: 'serial' });
  let host: RunningHost;
  let dataDir: string;

  sharedHost('safety', { ready: (shared) => ({ host, dataDir } = shared) });

  test('reject with a message, then approve once: the note is written only after approval', async ({ page }) => {
    const problems = watchPage(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(host.url);
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });

    await openTool(page, host, 'notes:create_note');
    const details = page.getByTestId('tool-details');
    const args = { page: 'Plans/Trip', content: `# Trip\n\n- pack the tent\n- buy stove fuel\n- ${XSS}\n` };

    // 1. Reject with a message.
    await runWithJson(page, args);
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible({ timeout: 10_000 });
    await expect(dialog.getByTestId('approval-qname')).toHaveText('notes:create_note');
    await expect(dialog.getByTestId('approval-who')).toHaveText('Try it (Tools section)');
    await expect(dialog.getByTestId('approval-diff')).toContainText('+- pack the tent');
    await expect(dialog.getByTestId('diff-created')).toHaveText('new file');
    await expect(dialog.getByTestId('approval-args')).toContainText('"page": "Plans/Trip"');
    await expect(dialog.getByTestId('approval-countdown')).toContainText('left');
    expect(await dialog.locator('img').count()).toBe(0);
    // Escape does not answer.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Escape does not answer');
    await dialog.getByLabel(/Message if you reject/).fill('Put trips under Travel/ instead');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await expect(dialog).toBeHidden();
    await expect(details.getByTestId('tool-error')).toHaveAttribute('data-code', 'APPROVAL_REJECTED');
    await expect(details.getByTestId('rejection-note')).toContainText('Put trips under Travel/ instead');
    expect(fs.existsSync(path.join(dataDir, 'notes', 'Plans', 'Trip.md'))).toBe(false);

    // 2. Try again, approve once.
    await details.getByTestId('try-it-run').click();
    await expect(dialog).toBeVisible({ timeout: 10_000 });
    await expect(dialog.getByTestId('approval-diff')).toContainText(XSS);
    await dialog.getByTestId('approval-diff').locator('pre').evaluate((el) => (el.scrollTop = 0));
    await page.screenshot({ path: path.join(SCREENSHOTS, 'approval.png') });
    await dialog.getByRole('button', { name: 'Approve once' }).click();
    await expect(dialog).toBeHidden();
    await expect(details.getByTestId('tool-result')).toBeVisible({ timeout: 10_000 });
    await expect(details.getByTestId('try-it-flags')).toHaveText('approved once');

    // 3. The note is there.
    await openTool(page, host, 'notes:read_note');
    await runWithJson(page, { page: 'Plans/Trip' });
    await expect(page.getByTestId('tool-details').getByTestId('tool-result')).toContainText('buy stove fuel', { timeout: 10_000 });
    await expect(page.getByTestId('tool-details').getByTestId('tool-result')).toContainText(XSS);

    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    expect(problems).toEqual([]);
  });

  test('"Always allow" lists the tool in Safety until it is revoked', async ({ page }) => {
    const problems = watchPage(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(host.url);
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
    await openTool(page, host, 'notes:update_note');
    await runWithJson(page, { page: 'Plans/Trip', content: 'replaced\n', mode: 'replace' });
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible({ timeout: 10_000 });
    await expect(dialog.getByTestId('approval-diff')).toContainText('-- pack the tent');
    await dialog.getByRole('button', { name: 'Always allow this tool' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('tool-details').getByTestId('try-it-flags')).toHaveText('always allowed');

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Safety' }).click();
    const entry = page.locator('[data-testid="allowed-entry"][data-qualified-name="notes:update_note"]');
    await expect(entry).toBeVisible();
    await expect(page.getByTestId('approve-all-writes')).toBeChecked();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'safety.png') });
    await entry.getByRole('button', { name: 'Revoke Update note' }).click();
    await expect(entry).toHaveCount(0);
    expect(problems).toEqual([]);
  });
});
