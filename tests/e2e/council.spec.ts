// The Council panel in Chromium against the real headless host: quick add a bundled pack, give members bundled extension
// tools, chance 100, Test roll, Run, and read the run timeline (ok bars, unplanned calls without a sidecar, an error bar, a sat-out lane).
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ROOT, type RunningHost } from './host-process';
import { sharedHost } from './shared-host';
import { watchPage } from './page-watch';

const SCREENSHOTS = path.join(ROOT, 'tests', 'e2e', 'screenshots');



async function openCouncil(page: Page, host: RunningHost): Promise<Locator> {
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto(host.url);
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Council' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Council');
  const panel = page.getByTestId('panel-council');
  await expect(panel.getByTestId('council-panel')).toBeVisible({ timeout: 15_000 });
  return panel;
}

function memberCard(panel: Locator, name: string): Locator {
  return panel.getByTestId('member').filter({ has: panel.page().getByRole('heading', { level: 3, name }) });
}

async function giveTool(card: Locator, name: string, qualifiedName: string, give = true): Promise<void> {
  const toggle = card.getByRole('button', { name: new RegExp(`^Tools \\(\\d+\\) for ${name}$`) });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  const box = card.locator(`input[type="checkbox"][data-qualified-name="${qualifiedName}"]`);
  // Extensions register their tools a moment after the host starts.
  await expect(box).toBeVisible({ timeout: 20_000 });
  await box.setChecked(give);
  if (give) await expect(box).toBeChecked();
  else await expect(box).not.toBeChecked();
}

test.describe('council against the headless host', () => {
  test.describe.configure({ mode: 'serial' });
  let host: RunningHost;

  sharedHost('council', { ready: (shared) => ({ host } = shared) });

  test('quick add a bundled pack, give members tools at chance 100, test roll, run, and read the timeline', async ({ page }) => {
    const problems = watchPage(page);
    const panel = await openCouncil(page, host);

    // An empty council: the empty state, and the add-from-pack form with the bundled packs.
    await expect(panel.getByTestId('empty-state')).toContainText('No council members yet');
    const add = panel.getByTestId('add-member');
    await add.getByLabel('Pack').selectOption('story-council');
    await add.getByLabel('Chance %').fill('50');
    await add.getByRole('button', { name: /^Quick add pack \(3 new\)/ }).click();
    await expect(panel.getByTestId('member')).toHaveCount(3);
    await expect(add).toContainText('3 members from Story Council joined the council.');

    const vane = memberCard(panel, 'Marshal Vane');
    const wren = memberCard(panel, 'Archivist Wren');
    await expect(vane.getByTestId('chance-badge')).toHaveText('50%');
    // Quick-added members come with the pack's own tool; here they trade it for extension tools (and Tempo goes without).
    for (const name of ['Marshal Vane', 'Archivist Wren', 'Tempo']) await giveTool(memberCard(panel, name), name, 'pack.story-council:stakes_check', false);
    // Avatars come from the pack (packs.avatar → data: URL, allowed by the CSP).
    await expect(vane.locator('img.avatar')).toHaveAttribute('src', /^data:image\/svg\+xml;base64,/);

    // Chance 100 by typing (Enter commits), and by the slider from the keyboard.
    await vane.getByLabel('Chance for Marshal Vane, percent').fill('100');
    await vane.getByLabel('Chance for Marshal Vane, percent').press('Enter');
    await expect(vane.getByTestId('chance-badge')).toHaveText('100%');
    const slider = wren.getByRole('slider', { name: 'Chance for Archivist Wren' });
    await slider.focus();
    await page.keyboard.press('End');
    await expect(wren.getByTestId('chance-badge')).toHaveText('100%');
    await vane.getByLabel('Role of Marshal Vane').fill('Plot');
    await vane.getByLabel('Role of Marshal Vane').press('Enter');

    // Invalid chance: an error, nothing sent.
    await wren.getByLabel('Chance for Archivist Wren, percent').fill('140');
    await expect(wren.getByTestId('chance-error')).toContainText('whole number from 0 to 100');
    await wren.getByLabel('Chance for Archivist Wren, percent').press('Escape');
    await expect(wren.getByTestId('chance-error')).toHaveCount(0);

    // Tools: Roll Dice needs planned arguments (no sidecar → a clear error), Read Scratchpad needs none (succeeds).
    await giveTool(vane, 'Marshal Vane', 'dice-and-stats:roll_dice');
    await giveTool(vane, 'Marshal Vane', 'scratchpad:read_notes');
    await giveTool(wren, 'Archivist Wren', 'knowledge-base:search_knowledge_base');
    await expect(vane.getByTestId('tool-group').filter({ hasText: 'Dice and Stats' })).toContainText('Extension');
    // The description shows for the focused checkbox.
    await vane.locator('input[data-qualified-name="dice-and-stats:roll_dice"]').focus();
    await expect(vane.locator('label', { has: page.locator('input[data-qualified-name="dice-and-stats:roll_dice"]') }).locator('.tool-check__desc')).toBeVisible();
    await expect(panel.getByTestId('council-warnings')).toContainText('No sidecar LLM is configured');

    // Keyboard reorder: Wren up to first place.
    await wren.getByRole('button', { name: 'Move Archivist Wren up' }).click();
    await expect(panel.getByTestId('member').first()).toHaveAttribute('data-member-id', /.+/);
    await expect(panel.getByTestId('member').first().getByRole('heading', { level: 3 })).toContainText('Archivist Wren');
    await expect(page.locator(':focus')).toHaveAccessibleName('Move Archivist Wren down');
    await page.keyboard.press('Enter');
    await expect(panel.getByTestId('member').nth(1).getByRole('heading', { level: 3 })).toContainText('Archivist Wren');

    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'council-members.png') });

    // Runs: Test roll shows each roll against its chance, and the seed.
    await panel.getByRole('tab', { name: 'Runs' }).click();
    const roll = panel.getByTestId('test-roll');
    await roll.getByRole('button', { name: 'Test roll' }).click();
    await expect(roll.getByTestId('roll-seed')).toHaveText(/^\d+$/);
    const rows = roll.getByTestId('roll-row');
    await expect(rows).toHaveCount(3);
    await expect(rows.filter({ hasText: 'Marshal Vane' })).toHaveAttribute('data-active', 'true');
    await expect(rows.filter({ hasText: 'Marshal Vane' })).toContainText('chance 100%: always');
    await expect(rows.filter({ hasText: 'Tempo' })).toContainText('no tools: sits out');
    await expect(roll).toContainText('2 of 3 members take part');
    await roll.getByRole('button', { name: 'Use this seed for the run' }).click();
    const seed = await roll.getByTestId('roll-seed').textContent();

    // Run against the sample chat.
    await panel.getByTestId('run-button').click();
    const head = panel.getByTestId('run-head');
    await expect(head).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
    await expect(head.getByTestId('run-seed')).toHaveText(seed!);
    // No sidecar: the tools that need arguments are called as Lumiverse calls them (unplanned); the dice tool has no notation to roll.
    await expect(head.getByTestId('run-counts')).toHaveText('2 ok · 1 failed');

    const timeline = panel.getByTestId('timeline');
    const bars = timeline.getByTestId('timeline-bar');
    await expect(bars).toHaveCount(3);
    const ok = timeline.locator('[data-testid="timeline-bar"][data-tool="scratchpad:read_notes"]');
    const dice = timeline.locator('[data-testid="timeline-bar"][data-tool="dice-and-stats:roll_dice"]');
    await expect(ok).toHaveAttribute('data-status', 'ok');
    await expect(dice).toHaveAttribute('data-status', 'error');
    await expect(timeline.locator('[data-testid="timeline-bar"][data-tool="knowledge-base:search_knowledge_base"]')).toHaveAttribute('data-status', 'ok');
    await expect(timeline.getByTestId('tl-unplanned')).toHaveCount(2);
    await expect(timeline.locator('.tl-lane-name')).toHaveText(['Marshal Vane', 'Archivist Wren', 'Tempo']);
    await expect(timeline.locator('.tl-lane-note')).toHaveText('sat out: no tools');
    await expect(timeline.getByTestId('timeline-tick').first()).toHaveText('0 ms');
    // The 30 s deadline is far off the fitted axis; "Up to deadline" brings it in.
    await expect(timeline.getByTestId('timeline-deadline-off')).toContainText('deadline 30 s');
    await timeline.getByRole('button', { name: 'Up to deadline' }).click();
    await expect(timeline.getByTestId('timeline-deadline')).toContainText('deadline 30 s');
    await timeline.getByRole('button', { name: 'Fit calls' }).click();

    // Bar details by keyboard: the error code and message, then the output as text.
    await dice.focus();
    const detail = panel.getByTestId('call-detail');
    await expect(detail).toHaveAttribute('data-status', 'error');
    await expect(detail.getByTestId('call-error-code')).toHaveText('INVALID_NOTATION');
    await expect(detail.getByTestId('call-unplanned')).toContainText('no sidecar LLM is configured to plan notation');
    await ok.focus();
    await expect(panel.getByTestId('call-output')).toHaveText('The scratchpad is empty.');
    await expect(panel.getByTestId('deliberation')).toContainText('## Council Deliberation');
    await expect(panel.getByTestId('deliberation')).toContainText('The scratchpad is empty.');
    await expect(panel.getByTestId('past-run')).toHaveCount(1);

    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.mouse.move(1270, 990);
    await ok.click();
    await panel.getByTestId('open-run').scrollIntoViewIfNeeded();
    await page.locator('main').evaluate((main) => {
      const card = main.querySelector('[data-testid="run-card"]') as HTMLElement | null;
      if (card) main.scrollTop = card.offsetTop - 12;
    });
    await page.mouse.move(1270, 990);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'council.png') });

    // Retry failed: only the failure runs again (still no sidecar), with the same rolls.
    await panel.getByTestId('retry-button').click();
    await expect(head).toContainText('retry of', { timeout: 30_000 });
    await expect(head).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
    await expect(bars).toHaveCount(3);
    await expect(panel.getByTestId('past-run')).toHaveCount(2);

    // Past runs: open the first again, export its trace as JSON Lines.
    const first = panel.getByTestId('past-run').last();
    await first.getByRole('button', { name: /^Open run / }).click();
    await expect(head).not.toContainText('retry of');
    await first.getByRole('button', { name: /^Export trace of run / }).click();
    const exported = panel.getByTestId('trace-export');
    await expect(exported.getByTestId('download-link')).toHaveAttribute('href', /^blob:/);
    const text = await exported.getByTestId('export-text').inputValue();
    const lines = text.trim().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) JSON.parse(line);
    const download = page.waitForEvent('download');
    await exported.getByTestId('download-link').click();
    expect((await download).suggestedFilename()).toMatch(/\.trace\.jsonl$/);

    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    expect(problems).toEqual([]);
  });

  test('settings and profiles round-trip through the host', async ({ page }) => {
    const problems = watchPage(page);
    const panel = await openCouncil(page, host);
    await panel.getByRole('tab', { name: 'Settings' }).click();
    const settings = panel.getByTestId('council-settings');
    const timeout = settings.locator('input[data-setting="timeoutMs"]');
    await timeout.fill('5000');
    await timeout.press('Enter');
    await expect(timeout).toHaveValue('5000');
    await settings.getByRole('switch', { name: 'At least one member' }).check();

    const profiles = panel.getByTestId('profiles');
    await profiles.getByLabel('Save current council as').fill('E2E council');
    await profiles.getByRole('button', { name: 'Save' }).click();
    await expect(profiles.getByTestId('profile')).toContainText('3 members');
    await profiles.getByRole('button', { name: 'Export profile E2E council' }).click();
    await expect(profiles.getByTestId('profile-export').getByTestId('export-text')).toHaveValue(/"atLeastOneMember":\s*true/);

    // Reload: the host kept everything.
    await page.reload();
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Council' }).click();
    await panel.getByRole('tab', { name: 'Settings' }).click();
    await expect(panel.locator('input[data-setting="timeoutMs"]')).toHaveValue('5000');
    await expect(panel.getByTestId('profile')).toHaveCount(1);
    expect(problems).toEqual([]);
  });
});
