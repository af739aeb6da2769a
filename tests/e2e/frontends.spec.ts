// Extension frontends in Chromium against browser mode: a published-style frontend's drawer tab, float widget,
// input bar action and modal appear in the Workbench and talk to its backend; a <dice> tag in a reply becomes
// a widget whose click reaches the backend; a hostile frontend's markup runs nothing in the app and it cannot
// reach the app's window, storage, WebSocket or the network.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import { LlmTestServer } from '../fixtures/llm-server';
import { XSS_CORPUS } from '../fixtures/xss-corpus';
import { addLocalConnection, assertRendererBuilt, ROOT, startHost, type RunningHost, cli } from './host-process';
import { sharedHost } from './shared-host';
import { startNewSession } from './new-session';

const MODEL = 'e2e-frontend-model';
const FIXTURES = path.join(ROOT, 'tests', 'fixtures', 'extensions');

/** The hostile fixture with the whole XSS corpus as its corpus.json (its build inlines it). */
function hostileWithCorpus(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-e2e-hostile-'));
  fs.cpSync(path.join(FIXTURES, 'lumiverse_hostile_frontend'), folder, { recursive: true });
  fs.writeFileSync(path.join(folder, 'src', 'corpus.json'), JSON.stringify(XSS_CORPUS));
  return folder;
}

const surface = (page: Page, kind: string): FrameLocator => page.frameLocator(`iframe[data-extension-id="lumiverse_frontend"][data-surface-id^="${kind}-"]`);

async function openWorkbench(page: Page, host: RunningHost) {
  await page.goto(host.url);
  await page.getByRole('navigation').getByText('Workbench', { exact: true }).click();
}

/** A new session, open: the Workbench's layout is settled (the extensions panel moves with it). */
async function newSession(page: Page) {
  await startNewSession(page);
}

test.describe('extension frontends', () => {
  let host: RunningHost;
  let llm: LlmTestServer;
  let dataDir: string;
  let connectionId: string;

  sharedHost('frontends', {
    models: [MODEL],
    prepare: (dir, llm) => {
      connectionId = addLocalConnection(dir, llm!.origin, MODEL);
      cli(dir, 'extensions', 'install', path.join(FIXTURES, 'lumiverse_frontend'), '--grant', 'requested', '--trust');
    },
    ready: (shared) => {
      ({ host, dataDir } = shared);
      llm = shared.llm!;
    },
  });

  test('its drawer tab, float widget, input bar action and modal appear, and messages go to its backend and back', async ({ page }) => {
    await openWorkbench(page, host);
    // The frontend is running (its tab drawn) before the chat switches: CHAT_SWITCHED is told on a switch, and a
    // frontend still loading under load would miss it (ci4).
    await expect(surface(page, 'drawer').locator('#roll-result')).toHaveText('No roll yet');
    await newSession(page);
    const drawer = page.getByTestId('extension-drawer');
    await expect(drawer.getByRole('tab', { name: 'Dice' })).toBeVisible();
    // The open drawer is a column of its own beside the chat; hidden, it gives the chat its room back.
    const chatColumn = page.locator('.workbench__main');
    const beside = (await chatColumn.boundingBox())!;
    expect((await drawer.boundingBox())!.x).toBeGreaterThanOrEqual(beside.x + beside.width);
    await drawer.getByRole('button', { name: 'Hide' }).click();
    await expect.poll(async () => (await chatColumn.boundingBox())!.width).toBeGreaterThan(beside.width);
    await drawer.getByRole('button', { name: 'Extensions' }).click();
    await expect.poll(async () => (await chatColumn.boundingBox())!.width).toBe(beside.width);

    const tab = surface(page, 'drawer');
    await expect(tab.locator('#roll-result')).toHaveText('No roll yet');
    await tab.getByRole('button', { name: 'Roll d20' }).click();
    // The backend's first roll of a d20 is ((1 × 7) mod 20) + 1.
    await expect(tab.locator('#roll-result')).toHaveText('Rolled 8 on a d20');
    await expect(surface(page, 'float').locator('#last-roll')).toHaveText('Last roll: 8');
    await expect(tab.locator('#chat-line')).toHaveText(/^Chat [0-9a-f-]+$/);

    await page.getByTestId('composer').getByRole('button', { name: 'Roll d6' }).click();
    const modal = page.getByTestId('extension-modal');
    await expect(modal.getByRole('heading', { name: 'Quick roll' })).toBeVisible();
    await expect(surface(page, 'modal').locator('#modal-text')).toHaveText('Rolled 3 on a d6');
    // Its float stays below the app's dialogs: where the widget is, the pointer meets the dialog's backdrop.
    const widget = (await page.getByTestId('float-widget').first().boundingBox())!;
    const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest('[data-testid="float-widget"], .ext-dialog-backdrop')?.className ?? null, [widget.x + widget.width / 2, widget.y + widget.height / 2]);
    expect(hit).toBe('ext-dialog-backdrop');
    await page.keyboard.press('Escape');
    await expect(modal).toHaveCount(0);

    // The tab drew itself when first shown (onActivate), with one of the host's shared controls in it.
    await tab.getByRole('combobox', { name: 'Die' }).selectOption('12');
    await tab.getByRole('button', { name: 'Roll chosen' }).click();
    await expect(tab.locator('#roll-result')).toHaveText('Rolled 10 on a d12');
    // Its backend's toast (spindle.toast.success), shown by the app with the extension's name; dismissed by the person.
    const toast = page.getByTestId('extension-toast');
    await expect(toast).toHaveText(/Dice Tray\s*Rare die\s*A d12 came up 10\./);
    await expect(toast).toHaveAttribute('data-extension-id', 'lumiverse_frontend');
    await toast.getByRole('button', { name: 'Dismiss' }).click();
    await expect(toast).toHaveCount(0);
    // The widget placed itself from the viewport it read: near the window's bottom right, not its corner at 0, 0.
    const viewport = page.viewportSize()!;
    const box = (await page.getByTestId('float-widget').first().boundingBox())!;
    expect(box.x).toBeGreaterThan(viewport.width / 2);
    expect(box.y).toBeGreaterThan(viewport.height / 2);

    // Every place it draws carries its id.
    for (const selector of ['[data-testid="float-widget"]', '.ext-drawer__panel', '.composer__ext-actions button']) {
      await expect(page.locator(selector).first()).toHaveAttribute('data-extension-id', 'lumiverse_frontend');
    }
    await page.screenshot({ path: path.join(ROOT, 'tests', 'e2e', 'screenshots', 'extension-frontend.png') });
  });

  test('a window-sized overlay that draws a small panel takes the pointer only there: the app beneath it still answers clicks', async ({ page }) => {
    await openWorkbench(page, host);
    await surface(page, 'drawer').getByRole('button', { name: 'Story overlay' }).click();
    const overlay = page.locator('[data-testid="float-widget"]').filter({ has: page.locator('iframe[title="Story overlay"]') });
    await expect(overlay.frameLocator('iframe').locator('#story-panel')).toHaveText('The story so far');
    const frame = (await overlay.locator('iframe').boundingBox())!;
    expect(frame.width).toBeGreaterThan(page.viewportSize()!.width - 20);
    // Under its transparent part, the app's navigation works as if it were not there.
    await page.getByRole('navigation', { name: 'Sections' }).getByText('Council', { exact: true }).click({ timeout: 5000 });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Council');
    // Its panel still takes the pointer where it draws.
    const panel = overlay.frameLocator('iframe').locator('#story-panel');
    await panel.click();
    // Its tabs asked for a place that is the app's navigation here: they start beside it instead.
    const tabs = (await page.locator('[data-testid="float-widget"]').filter({ has: page.locator('iframe[title="Story tabs"]') }).boundingBox())!;
    const nav = (await page.getByRole('navigation', { name: 'Sections' }).boundingBox())!;
    expect(tabs.x).toBeGreaterThanOrEqual(nav.x + nav.width);
  });

  test("its frame keeps localStorage across a reload, as for users (Chromium's storage partitioning as shipped)", async ({ page }) => {
    await openWorkbench(page, host);
    await expect(surface(page, 'drawer').locator('#opens')).toHaveText('Opened 1 time');
    await page.reload();
    await page.getByRole('navigation').getByText('Workbench', { exact: true }).click();
    await expect(surface(page, 'drawer').locator('#opens')).toHaveText('Opened 2 times');
  });

  test('its settings tab on its card is as tall as the form it drew', async ({ page }) => {
    await page.goto(host.url);
    await page.getByRole('navigation').getByText('Extensions', { exact: true }).click();
    const frame = page.locator('iframe[data-extension-id="lumiverse_frontend"][data-surface-id^="settings-"]');
    const form = page.frameLocator('iframe[data-extension-id="lumiverse_frontend"][data-surface-id^="settings-"]').locator('#dice-settings');
    // Chromium lays out a frame of another origin only once it is on screen, as a person scrolling to the card brings it.
    await frame.scrollIntoViewIfNeeded();
    await expect(form).toBeVisible();
    // Eight rows of 44 px: well past the 220 px a card gave every settings tab, and no taller than the form.
    await expect.poll(async () => (await frame.boundingBox())?.height ?? 0).toBeGreaterThan(352);
    const [box, drawn] = [(await frame.boundingBox())!, (await form.boundingBox())!];
    expect(Math.abs(box.height - drawn.height)).toBeLessThan(24);
  });

  test('F7: a frame that hogs its thread does not freeze the app: the app answers while it spins', async ({ page }) => {
    await openWorkbench(page, host);
    await newSession(page);
    const logFile = path.join(dataDir, 'logs', 'extensions', 'lumiverse_frontend.log');
    const logged = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '');
    await surface(page, 'drawer').getByRole('button', { name: 'Spin' }).click();
    // Meanwhile, in the app's own page (its frames run in a process of their own): switch sections and back.
    await page.getByRole('navigation').getByText('Tools', { exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Tools', level: 1 })).toBeVisible();
    await page.getByRole('navigation').getByText('Workbench', { exact: true }).click();
    await expect(page.getByTestId('open-session')).toBeVisible();
    const spunAfterApp = (await page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(1))))) === 1 && !logged().includes('spin finished');
    expect(spunAfterApp, 'the app answered before the frame finished spinning').toBe(true);
    await expect.poll(() => logged(), { timeout: 20_000 }).toContain('spin finished');
  });

  test('disabling the extension takes its frontend away; enabling brings it back', async ({ page }) => {
    await openWorkbench(page, host);
    await newSession(page);
    await expect(page.getByTestId('extension-drawer').getByRole('tab', { name: 'Dice' })).toBeVisible();
    await page.getByRole('navigation').getByText('Extensions', { exact: true }).click();
    await page.getByRole('switch', { name: 'Enabled: Dice Tray' }).click();
    await expect(page.locator('[data-testid="float-widget"][data-extension-id="lumiverse_frontend"]')).toHaveCount(0);
    await expect(page.locator('iframe.runtime-frame[data-extension-id="lumiverse_frontend"]')).toHaveCount(0);
    await page.getByRole('switch', { name: 'Enabled: Dice Tray' }).click();
    await expect(page.locator('[data-testid="float-widget"][data-extension-id="lumiverse_frontend"]')).toHaveCount(1);
    await page.getByRole('navigation').getByText('Workbench', { exact: true }).click();
    await expect(page.getByTestId('extension-drawer').getByRole('tab', { name: 'Dice' })).toBeVisible();
  });

  test('a <dice> tag in a reply becomes a widget under it once the reply is complete; its button reaches the backend', async ({ page }) => {
    await openWorkbench(page, host);
    await newSession(page);
    await page.getByTestId('open-session').getByLabel('Main connection').selectOption(connectionId);
    // The whole tag arrives while the reply is still streaming (held before its finish).
    let finish!: () => void;
    let reached!: () => void;
    const held = new Promise<void>((resolve) => (reached = resolve));
    llm.enqueue({ text: ['The goblin lunges. ', 'Roll to dodge: ', '<dice>2d6</dice>'], holds: [{ after: 4, until: new Promise<void>((resolve) => (finish = resolve)), reached }] });
    await page.getByTestId('composer').getByRole('textbox').fill('I dodge.');
    await page.keyboard.press('Enter');
    // Waits follow the stream: the server has sent everything before its hold; the window then shows it.
    await held;
    const reply = page.locator('[data-role="assistant"]').last();
    await expect(reply.getByTestId('message-text')).toHaveText('The goblin lunges. Roll to dodge:');
    await expect(reply).toHaveAttribute('data-streaming', 'true');
    // Its interceptor waits for the finished tag (as published ones do): no widget while streaming …
    await expect(page.locator('.msg__widget[data-extension-id="lumiverse_frontend"]')).toHaveCount(0);
    finish();
    // … and the tag is handed to it again, complete, when the reply is.
    // What it injected into dom.findMessageElement(id) shows under that message, in a frame of its own origin as
    // tall as the card, sanitized and themed like its other places.
    const place = reply.locator('iframe.msg__place[data-extension-id="lumiverse_frontend"]');
    await expect(place.contentFrame().locator('.sim-card')).toHaveText('Tracked 2d6 on its message');
    await expect.poll(async () => (await place.boundingBox())?.height ?? 0).toBeGreaterThan(10);
    expect(await place.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin allow-downloads allow-forms');
    // Clicked once the place has settled (its growth scrolls the chat, which follows the bottom).
    const widget = page.frameLocator('.msg__widget[data-extension-id="lumiverse_frontend"] iframe');
    await widget.getByRole('button', { name: 'Check 2d6' }).click();
    // The widget's sandbox has the host theme's variables, as Lumiverse's widgets style with them.
    const sandbox = page.frames().find((f) => f.url().endsWith('/__cw/sandbox.html') && f.parentFrame() === page.mainFrame())!;
    expect(await sandbox.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--lumiverse-accent').trim())).toMatch(/^(rgb|oklch|color|#)/);
    await expect(surface(page, 'float').locator('#last-roll')).toHaveText(/^Last roll: \d$/);
    // The host's GENERATION_ENDED reached its ctx.events handler, once for the one reply.
    await expect(surface(page, 'float').locator('#generations')).toHaveText('Generations: 1');
    // Light or dark: its frames and the widget's sandbox take the theme's new variables, live.
    const textColour = (frame: { evaluate: (fn: () => string) => Promise<string> }) => frame.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--lumiverse-text').trim());
    const floatFrame = page.frames().find((f) => f.url().includes('#surface=float-'))!;
    const [floatBefore, sandboxBefore] = [await textColour(floatFrame), await textColour(sandbox)];
    await page.locator('input[type="radio"][name="theme"][value="dark"]').check();
    await expect.poll(() => textColour(floatFrame)).not.toBe(floatBefore);
    await expect.poll(() => textColour(sandbox)).not.toBe(sandboxBefore);
    await page.locator('input[type="radio"][name="theme"][value="system"]').check();
    await expect.poll(() => textColour(floatFrame)).toBe(floatBefore);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: path.join(ROOT, 'tests', 'e2e', 'screenshots', 'extension-frontend-chat.png') });
  });

  test('T1: a 300 kB reply of 50,000 unclosed <dice> tags and 1,000 closed ones shows, and the window goes on answering', async ({ page }) => {
    await openWorkbench(page, host);
    await newSession(page);
    await page.getByTestId('open-session').getByLabel('Main connection').selectOption(connectionId);
    // The longest task the page runs from Send to the finished reply (printed for the note, not asserted: tests
    // assert behaviour; the scanner's linear time is shown in tests/renderer/tag-scan.test.ts).
    await page.evaluate(() => {
      const w = window as unknown as { __longest: number };
      w.__longest = 0;
      new PerformanceObserver((list) => list.getEntries().forEach((e) => (w.__longest = Math.max(w.__longest, e.duration)))).observe({ type: 'longtask', buffered: false });
    });
    const hostile = `${'<dice>'.repeat(50_000)} ${'<dice>1</dice>'.repeat(1000)}`;
    llm.enqueue({ text: Array.from({ length: 20 }, (_, i) => hostile.slice((i * hostile.length) / 20, ((i + 1) * hostile.length) / 20)) });
    await page.getByTestId('composer').getByRole('textbox').fill('Roll them all.');
    await page.keyboard.press('Enter');
    const reply = page.locator('[data-role="assistant"]').last();
    await expect(reply).not.toHaveAttribute('data-streaming', 'true', { timeout: 30_000 });
    // The whole text is one tag for the regex semantics (the first <dice> to the first </dice>); what the budget
    // leaves is shown as written, and the window answers at once.
    const shown = await reply.getByTestId('message-text').textContent();
    expect(shown!.length).toBeGreaterThan(0);
    expect(shown!.length).toBeLessThan(hostile.length);
    await expect(page.getByRole('button', { name: 'New session' }).first()).toBeEnabled();
    console.log(`T1: longest page task while the hostile reply streamed and settled: ${Math.round(await page.evaluate(() => (window as unknown as { __longest: number }).__longest))} ms`);
  });
});

test.describe('a hostile extension frontend', () => {
  let host: RunningHost;
  let dataDir: string;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    assertRendererBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-e2e-hostile-data-'));
    cli(dataDir, 'extensions', 'install', hostileWithCorpus(), '--grant', 'tools', '--trust');
    cli(dataDir, 'extensions', 'install', path.join(FIXTURES, 'lumiverse_broken_frontend'), '--grant', 'tools');
    host = await startHost(dataDir);
  });

  test.afterAll(async () => {
    await host?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('F1, F2, F3: a hostile frontend: its markup runs nothing in the app, and it reaches neither the app nor the network', async ({ page }) => {
    // Its frontend asks for a confirm as soon as the window opens, over whatever section is shown (a modal: nothing
    // else can be clicked until it is answered). It shows its text as text.
    await page.goto(host.url);
    const confirm = page.getByTestId('extension-confirm');
    await expect(confirm).toBeVisible({ timeout: 20_000 });
    await expect(confirm.getByRole('heading')).toHaveText(XSS_CORPUS[0]!);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('navigation').getByText('Workbench', { exact: true }).click();
    await expect(page.locator('.ext-drawer__tabs [data-extension-id="lumiverse_hostile_frontend"]')).toHaveCount(XSS_CORPUS.length);
    // What its probes got, as its backend logged them (the log kept on disk, one JSON line an entry).
    const logFile = path.join(dataDir, 'logs', 'extensions', 'lumiverse_hostile_frontend.log');
    const logged = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { text: string }).text) : []);
    await expect.poll(() => logged().some((t) => t.startsWith('frontend {"type":"probe"')), { timeout: 20_000 }).toBe(true);
    const text = logged().find((t) => t.startsWith('frontend {"type":"probe"'))!;
    const probe = JSON.parse(text.slice('frontend '.length)) as { results: Record<string, { ok: boolean; code?: string }> };
    // Its backend's toast carries the corpus too: shown as text.
    const toast = page.getByTestId('extension-toast');
    await expect(toast.locator('.ext-toast__title')).toHaveText(XSS_CORPUS[0]!);
    // Its setup has run to the end: nothing it sent ran in the app's page, and no element of the corpus exists there.
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.locator('img[src="x"], [onerror], [onload], [ontoggle], iframe[srcdoc], script:not([src])').count()).toBe(0);

    for (const [name, outcome] of Object.entries(probe.results)) expect(outcome.ok, `${name}: ${JSON.stringify(outcome)}`).toBe(false);
    expect(probe.results.floatWithoutPermission!.code).toBe('PERMISSION_DENIED');
    // A character editor tab is for an extension granted characters (this one is not).
    expect(probe.results.characterEditorTab!.code).toBe('PERMISSION_DENIED');
    // The request it forged to the app's window was never carried out.
    expect(logged().some((t) => t.includes('forged-through-window'))).toBe(false);

    // Its composer actions, labelled and drawn with the corpus, show once a chat is open: as text, running nothing.
    await startNewSession(page);
    await expect(page.locator('.composer__ext-actions [data-extension-id="lumiverse_hostile_frontend"]')).toHaveCount(XSS_CORPUS.length);
    expect(await page.locator('img[src="x"], [onerror], [onload], [ontoggle], iframe[srcdoc], script:not([src])').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    // What it injected into its own tabs with ctx.dom.inject went through DOMPurify in the frame (Chromium's, not a
    // test DOM's): no script, handler or frame is left in any injection, and nothing ran. (What it wrote with its own
    // innerHTML beside it is its own markup in its own sandboxed origin.)
    const tabs = page.locator('.ext-drawer__tabs [data-extension-id="lumiverse_hostile_frontend"]');
    for (let i = 0; i < XSS_CORPUS.length; i++) {
      await tabs.nth(i).click();
      const frame = page.frameLocator('.ext-drawer__panel iframe[data-extension-id="lumiverse_hostile_frontend"]');
      await expect(frame.locator('[data-spindle-ext="lumiverse_hostile_frontend"]')).toBeAttached();
      const found = await frame.locator('[data-spindle-ext="lumiverse_hostile_frontend"]').evaluate((injected) => ({
        dangerous: injected.querySelectorAll('script, iframe, object, embed, [onerror], [onload], [ontoggle], [onclick], [onmouseover], [onfocus], [href^="javascript:" i]').length,
        pwned: (window as unknown as { __pwned?: unknown }).__pwned,
      }));
      expect(found, `tab ${i}`).toEqual({ dangerous: 0, pwned: undefined });
    }
  });

  test('a frontend whose setup throws is stopped, its places gone, and its card says why; its backend runs on', async ({ page }) => {
    await page.goto(host.url);
    const confirm = page.getByTestId('extension-confirm');
    await expect(confirm).toBeVisible({ timeout: 20_000 });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('navigation').getByText('Extensions', { exact: true }).click();
    const card = page.locator('[data-testid="extension"][data-id="lumiverse_broken_frontend"]');
    await expect(card.getByTestId('extension-frontend-problem')).toContainText("setup() threw: TypeError: Cannot read properties of null (reading 'getContext')");
    await expect(page.locator('.ext-drawer__tabs [data-extension-id="lumiverse_broken_frontend"]')).toHaveCount(0);
    // Its backend is not touched: the host's worker loaded it (its line, in the log kept on disk) and it is not stopped.
    const log = fs.readFileSync(path.join(dataDir, 'logs', 'extensions', 'lumiverse_broken_frontend.log'), 'utf8');
    expect(log).toContain('backend loaded');
    await expect(card.getByTestId('extension-problem')).toHaveCount(0);
  });
});
