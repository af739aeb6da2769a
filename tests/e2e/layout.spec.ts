// The Workbench at common laptop sizes (1440×900, 1280×720): the composer never covers the connection picker or
// an open deliberation, at the top of the chat or scrolled to its end, nor a deliberation just opened or a control
// reached with the keyboard.
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { LlmTestServer } from '../fixtures/llm-server';
import { addLocalConnection, ROOT, type RunningHost, cli } from './host-process';
import { sharedHost } from './shared-host';
import { startNewSession } from './new-session';

const MODEL = 'e2e-layout-model';

/** The part of `a` that `b` covers, in px² (0 when apart). */
async function overlap(a: Locator, b: Locator): Promise<number> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) return 0;
  const w = Math.min(x.x + x.width, y.x + y.width) - Math.max(x.x, y.x);
  const h = Math.min(x.y + x.height, y.y + y.height) - Math.max(x.y, y.y);
  return w > 0 && h > 0 ? w * h : 0;
}

async function scrollMain(page: Page, to: 'top' | 'bottom'): Promise<void> {
  await page.locator('main#main').evaluate((el, where) => el.scrollTo({ top: where === 'top' ? 0 : el.scrollHeight }), to);
}

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
] as const;

/** A new Workbench session on `connectionId` with `turns` council turns, each reply `replyWords` words long. */
async function sessionWithTurns(page: Page, setup: { url: string; connectionId: string; llm: LlmTestServer }, turns: number, replyWords: number): Promise<Locator> {
  await page.goto(setup.url);
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workbench' }).click();
  const workbench = page.getByTestId('panel-workbench');
  await startNewSession(workbench);
  await workbench.getByLabel('Main connection').selectOption(setup.connectionId);
  const box = workbench.getByLabel('Message');
  const replies = workbench.locator('[data-testid="message"][data-role="assistant"]');
  for (let i = 0; i < turns; i++) {
    setup.llm.enqueue({ text: `Pacing note ${i}: the scene lingers; cut sooner. `.repeat(6) });
    setup.llm.enqueue({ text: `Reply ${i}. `.repeat(replyWords / 2) });
    await box.fill(`Turn ${i}: we run for the bridge.`);
    await box.press('Enter');
    await expect(replies).toHaveCount(i + 1, { timeout: 20_000 });
    await expect(replies.last().getByTestId('message-text')).toContainText(`Reply ${i}.`, { timeout: 20_000 });
    // The turn has ended (Stop gives way to Send) before the next message: Enter while a reply streams sends nothing.
    await expect(workbench.getByRole('button', { name: 'Stop' })).toHaveCount(0, { timeout: 20_000 });
  }
  return workbench;
}

test.describe('Workbench layout', () => {
  let host: RunningHost;
  let llm: LlmTestServer;
  let connectionId: string;

  sharedHost('layout', {
    models: [MODEL],
    prepare: (dir, llm) => {
      connectionId = addLocalConnection(dir, llm!.origin, MODEL);
      cli(dir, 'sidecar', 'set', '--connection', connectionId, '--model', MODEL);
      cli(dir, 'council', 'add-member', '--pack', 'story-council', '--item', 'pacing-critic', '--role', 'Pacing Critic', '--chance', '100', '--tools', 'council:pacing_review');
      cli(dir, 'council', 'set', '--mode', 'sidecar', '--on');
    },
    ready: (shared) => {
      ({ host } = shared);
      llm = shared.llm!;
    },
  });

  test('the composer covers neither the connection picker nor an open deliberation', async ({ page }) => {
    await page.setViewportSize(SIZES[0]);
    const workbench = await sessionWithTurns(page, { url: host.url, connectionId, llm }, 3, 80);
    const turn = workbench.getByTestId('council-turn').last();
    await turn.getByRole('button', { name: 'Show deliberation' }).click();
    const deliberation = turn.getByTestId('deliberation');
    await expect(deliberation).toBeVisible();

    const composer = workbench.locator('.composer');
    const picker = workbench.getByLabel('Main connection');
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await scrollMain(page, 'top');
      expect(await overlap(picker, composer), `picker at the top, ${size.width}×${size.height}`).toBe(0);
      await scrollMain(page, 'bottom');
      expect(await overlap(deliberation, composer), `deliberation at the end, ${size.width}×${size.height}`).toBe(0);
      await page.screenshot({ path: path.join(ROOT, 'tests', 'e2e', 'screenshots', `workbench-${size.width}x${size.height}.png`) });
    }
  });

  test('a deliberation just opened, or a control reached with Tab, comes out from under the composer', async ({ page }) => {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      const workbench = await sessionWithTurns(page, { url: host.url, connectionId, llm }, 2, 300);
      const turns = workbench.getByTestId('council-turn');
      const composer = workbench.locator('.composer');
      await expect(turns).toHaveCount(2);
      const at = `${size.width}×${size.height}`;

      // The chat follows the last reply, so the last turn's deliberation opens at the bottom of the view.
      await scrollMain(page, 'bottom');
      const last = turns.last();
      await last.getByRole('button', { name: 'Show deliberation' }).click();
      await expect(last.getByTestId('deliberation').getByLabel('Deliberation')).toContainText('Pacing note 1');
      await expect.poll(() => overlap(last.getByTestId('deliberation'), composer), { message: `deliberation just opened, ${at}` }).toBe(0);
      await last.getByRole('button', { name: 'Hide deliberation' }).click();

      // Scrolled up so the last turn's "Show deliberation" sits under the composer, Shift+Tab onto it (from the
      // button after it, focused without scrolling) brings it out.
      const target = last.getByRole('button', { name: 'Show deliberation' });
      await target.evaluate((button) => {
        const main = document.getElementById('main')!;
        const bar = document.querySelector('.composer')!.getBoundingClientRect();
        main.scrollTop += button.getBoundingClientRect().top - (bar.top + 30);
      });
      await last.getByRole('button', { name: 'Open in Council' }).evaluate((next) => (next as HTMLElement).focus({ preventScroll: true }));
      expect(await overlap(target, composer), `the button starts under the composer, ${at}`).toBeGreaterThan(0);
      await page.keyboard.press('Shift+Tab');
      await expect(target).toBeFocused();
      expect(await overlap(target, composer), `the focused button, ${at}`).toBe(0);
    }
  });

  test('a streaming reply keeps the view at its end; scrolled up, the view stays where the person left it', async ({ page }) => {
    await page.setViewportSize(SIZES[0]);
    const workbench = await sessionWithTurns(page, { url: host.url, connectionId, llm }, 2, 200);
    const main = page.locator('main#main');
    const fromBottom = () => main.evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const lines = Array.from({ length: 40 }, (_, i) => `Line ${i} of the long answer, and the view follows it.\n\n`);
    llm.enqueue({ text: 'Pacing note: keep it moving. ' });
    llm.enqueue({ text: [...lines, ...lines.map((l) => `More: ${l}`)], holds: [{ after: 41, until: held }] });
    await workbench.getByLabel('Message').fill('Tell me all of it.');
    await workbench.getByLabel('Message').press('Enter');
    const reply = workbench.locator('[data-testid="message"][data-role="assistant"]').last();
    await expect(reply.getByTestId('message-text')).toContainText('Line 39 of the long answer', { timeout: 20_000 });
    await expect.poll(fromBottom, { message: 'the end of the reply is in view while it streams' }).toBeLessThan(2);

    await main.evaluate((el) => el.scrollTo({ top: 0 }));
    release();
    await expect(reply.getByTestId('message-text')).toContainText('More: Line 39', { timeout: 20_000 });
    await expect(workbench.getByRole('button', { name: 'Stop' })).toHaveCount(0, { timeout: 20_000 });
    expect(await main.evaluate((el) => el.scrollTop), 'scrolled up, the reply does not pull the view down').toBe(0);
  });

  test('from the chat tabs to the message box, Tab stops once in the messages however many there are', async ({ page }) => {
    await page.setViewportSize(SIZES[0]);
    const workbench = await sessionWithTurns(page, { url: host.url, connectionId, llm }, 4, 40);
    const chat = workbench.getByTestId('chat');
    const controls = await chat.locator('button').count();
    expect(controls, 'each reply has its council and breakdown controls').toBeGreaterThanOrEqual(8);
    await workbench.getByRole('tab', { name: 'Chat' }).focus();
    const box = workbench.getByLabel('Message');
    const visited: string[] = [];
    for (let i = 0; i < 40 && !(await box.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
      visited.push(await page.evaluate(() => document.activeElement?.closest('[data-testid="chat"]') ? 'chat' : (document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '').slice(0, 30)));
    }
    await expect(box).toBeFocused();
    // The newest reply and its own controls; none of the earlier replies' controls.
    const inChat = visited.filter((v) => v === 'chat').length;
    expect(inChat, visited.join(' | ')).toBeLessThanOrEqual(1 + controls / 4);
    // The session's views are one stop (the arrow keys move between them); the skip link, the next stop, goes straight there.
    await workbench.getByRole('tab', { name: 'Chat' }).focus();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to the message box' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(box).toBeFocused();
  });
});
