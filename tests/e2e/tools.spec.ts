// Extensions and Tools in Chromium against the real headless host and its bundled extensions: status, log, Try it, Copy as.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ROOT, type RunningHost } from './host-process';
import { sharedHost } from './shared-host';
import { watchPage } from './page-watch';

const XSS = '<img src=x onerror=window.__pwned=1>';
const SCREENSHOTS = path.join(ROOT, 'tests', 'e2e', 'screenshots');



async function open(page: Page, host: RunningHost, section: 'Extensions' | 'Tools'): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(host.url);
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: section }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(section);
}

test.describe('tools and extensions against the headless host', () => {
  test.describe.configure({ mode: 'serial' });
  let host: RunningHost;

  sharedHost('tools', { ready: (shared) => ({ host } = shared) });

  test('the bundled extensions run, with their permissions explained and their logs readable', async ({ page }) => {
    const problems = watchPage(page);
    await open(page, host, 'Extensions');
    const panel = page.getByTestId('panel-extensions');
    const cards = panel.getByTestId('extension');
    await expect(cards).toHaveCount(3);
    for (const id of ['knowledge-base', 'dice-and-stats', 'scratchpad']) {
      const card = panel.locator(`[data-testid="extension"][data-id="${id}"]`);
      await expect(card.getByTestId('extension-status')).toHaveAttribute('data-status', 'running', { timeout: 20_000 });
      await expect(card).toContainText('Bundled');
      await expect(card.getByRole('switch', { name: /^Enabled:/ })).toBeChecked();
    }
    const kb = panel.locator('[data-testid="extension"][data-id="knowledge-base"]');
    await expect(kb.getByRole('heading', { name: 'Knowledge Base' })).toBeVisible();
    await expect(kb).toContainText('v1.0.0');
    await expect(kb).toContainText('1 tool');
    // What it asks for; what it does not is folded under Other permissions.
    const asked = kb.locator('.ext-card__perms > ul > [data-testid="permission"]');
    await expect(asked).toHaveCount(1);
    await expect(asked).toContainText('may register tools that council members and the chat can call');
    await expect(asked.getByTestId('permission-state')).toHaveText('Granted');
    await expect(kb.getByTestId('other-permissions')).not.toHaveAttribute('open');
    // Bundled extensions cannot be removed.
    await expect(kb.getByRole('button', { name: /^Remove/ })).toHaveCount(0);

    await kb.getByRole('button', { name: 'Show log' }).click();
    const log = kb.getByRole('log');
    await expect(log).toContainText('Knowledge base loaded');
    // Install reads what a folder asks for before offering grants: here an extension that generates.
    const install = page.getByTestId('install-form');
    await expect(install.getByTestId('install-requested')).toContainText('what its spindle.json asks for is listed here');
    await install.getByLabel('Or a folder or .zip on the host’s machine').fill(path.join(ROOT, 'tests', 'fixtures', 'extensions', 'generator'));
    await install.getByLabel('Or a folder or .zip on the host’s machine').press('Tab');
    await expect(install).toContainText('may run its own LLM generations through your connections (uses your API credits)');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.mouse.move(1270, 890);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'extensions.png') });
    expect(problems).toEqual([]);
  });

  test('Try it runs knowledge-base:search_knowledge_base for "muses" and shows the result; Copy as exports it', async ({ page }) => {
    const problems = watchPage(page);
    await open(page, host, 'Tools');
    const panel = page.getByTestId('panel-tools');
    const row = panel.locator('button.tool-row[data-qualified-name="knowledge-base:search_knowledge_base"]');
    await expect(row).toBeVisible({ timeout: 20_000 });
    const rows = panel.locator('button.tool-row');
    // Built-in tools (council prompt tools, notes) are listed too; the bundled extensions bring 5.
    await panel.getByLabel('Source', { exact: true }).selectOption('extension');
    await expect(rows).toHaveCount(5);

    // Filters: by extension, then back.
    await panel.getByLabel('Extension', { exact: true }).selectOption('knowledge-base');
    await expect(rows).toHaveCount(1);
    await panel.getByLabel('Search tools').fill('dice');
    await expect(rows).toHaveCount(0);
    await panel.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => rows.count()).toBeGreaterThan(5);

    // Keyboard: the row is a button; Enter opens its details.
    await row.focus();
    await page.keyboard.press('Enter');
    const details = panel.getByTestId('tool-details');
    await expect(details.getByRole('heading', { level: 2 })).toHaveText('Search Knowledge Base');
    await expect(details.getByTestId('tool-schema')).toContainText('"query"');
    await expect(details.getByTestId('definition-hash')).toHaveText(/^[0-9a-f]{64}$/);

    const query = details.getByRole('textbox', { name: /^query/ });
    await expect(details.getByRole('textbox', { name: /^limit/ })).toHaveValue('5');
    await query.fill('muses');
    await query.press('Enter');
    const result = details.getByTestId('tool-result');
    await expect(result).toBeVisible({ timeout: 15_000 });
    await expect(result.locator('pre')).toContainText('Muses');
    await expect(details.getByTestId('tool-duration')).toHaveText(/\d ms$/);

    await details.getByRole('button', { name: 'OpenAI strict' }).click();
    const spec = details.getByTestId('spec-text');
    await expect(spec).toHaveAttribute('data-format', 'openai-strict');
    const exported = JSON.parse(await spec.inputValue()) as { type: string; function: { name: string; strict: boolean; parameters: { additionalProperties: boolean } } };
    expect(exported.type).toBe('function');
    expect(exported.function.strict).toBe(true);
    expect(exported.function.parameters.additionalProperties).toBe(false);
    expect(exported.function.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    await details.getByRole('button', { name: 'Copy', exact: true }).click();
    // Either the clipboard took it or the text is selected with a Ctrl+C hint; both tell the user what happened.
    await expect(details.getByRole('status').filter({ hasText: /Copied to the clipboard|press Ctrl\+C/ })).toBeVisible();

    // The tool's header, its Try it form and the result in one picture.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.locator('main').evaluate((main) => (main.scrollTop = 0));
    await page.mouse.move(1270, 890);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'tools.png') });
    expect(problems).toEqual([]);
  });

  test('a hostile query comes back as text, and invalid raw JSON never reaches the host', async ({ page }) => {
    await open(page, host, 'Tools');
    const panel = page.getByTestId('panel-tools');
    await panel.locator('button.tool-row[data-qualified-name="knowledge-base:search_knowledge_base"]').click({ timeout: 20_000 });
    const details = panel.getByTestId('tool-details');
    await details.getByRole('textbox', { name: /^query/ }).fill(XSS);
    await details.getByTestId('try-it-run').click();
    await expect(details.getByTestId('tool-result').locator('pre')).toContainText(XSS);
    await expect(page.locator('img')).toHaveCount(0);
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();

    await details.getByRole('switch', { name: 'Edit as JSON' }).click();
    const raw = details.getByRole('textbox', { name: 'Arguments (JSON object)' });
    expect(JSON.parse(await raw.inputValue())).toEqual({ query: XSS, limit: 5 });
    await raw.fill('{"query": "muses"');
    await details.getByTestId('try-it-run').click();
    await expect(details.getByTestId('json-error')).toContainText('Not valid JSON');
    // Nothing was sent, and the last run's result no longer sits under the error as if it were its answer.
    await expect(details.getByTestId('tool-result')).toHaveCount(0);

    // The host's own validation: a wrong type is refused with a structured error.
    await raw.fill('{"query": 42}');
    await details.getByTestId('try-it-run').click();
    const error = details.getByTestId('tool-error');
    await expect(error).toBeVisible();
    await expect(error).toHaveAttribute('data-code', /INVALID_ARGUMENTS|INVALID_INPUT/);
  });

  test('disabling an extension stops it and removes its tools; enabling brings them back', async ({ page }) => {
    await open(page, host, 'Extensions');
    const dice = page.locator('[data-testid="extension"][data-id="dice-and-stats"]');
    await expect(dice.getByTestId('extension-status')).toHaveAttribute('data-status', 'running', { timeout: 20_000 });
    const toggle = dice.getByRole('switch', { name: 'Enabled: Dice and Stats' });
    await toggle.focus();
    await page.keyboard.press('Space');
    await expect(dice.getByTestId('extension-status')).toHaveAttribute('data-status', 'disabled', { timeout: 15_000 });
    await expect(toggle).not.toBeChecked();
    await expect(toggle).toBeFocused();

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Tools' }).click();
    const rows = page.getByTestId('panel-tools').locator('button.tool-row');
    // Only extension tools: built-ins (council prompt tools, notes) are listed too.
    await page.getByTestId('panel-tools').getByLabel('Source', { exact: true }).selectOption('extension');
    await expect(rows).toHaveCount(3);
    await expect(page.getByTestId('panel-tools').locator('[data-qualified-name^="dice-and-stats:"]')).toHaveCount(0);

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Extensions' }).click();
    await dice.getByRole('switch', { name: 'Enabled: Dice and Stats' }).check();
    await expect(dice.getByTestId('extension-status')).toHaveAttribute('data-status', 'running', { timeout: 20_000 });
    await dice.getByRole('button', { name: 'View its tools' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tools');
    await expect(rows).toHaveCount(2);
  });
});
