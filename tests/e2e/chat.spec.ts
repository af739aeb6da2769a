// Connections, Sidecar and the Workbench chat in Chromium against the real headless host and the local LLM test server:
// add an OpenAI-compatible connection through the UI, test it, make it the chat's (and the sidecar's) connection,
// then watch a reply stream in token by token, and stop another one mid-stream.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { LlmTestServer } from '../fixtures/llm-server';
import { ROOT, type RunningHost, cli } from './host-process';
import { sharedHost } from './shared-host';
import { startNewSession } from './new-session';
import { watchPage } from './page-watch';

const XSS = '<img src=x onerror=window.__pwned=1>';
const SCREENSHOTS = path.join(ROOT, 'tests', 'e2e', 'screenshots');
const MODEL = 'e2e-chat-model';
const INLINE_DICE = path.join(ROOT, 'tests', 'fixtures', 'e2e-llm', 'inline-dice');



async function open(page: Page, host: RunningHost, section: 'Council' | 'Connections' | 'Sidecar' | 'Workbench'): Promise<void> {
  if (!page.url().startsWith(host.origin)) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(host.url);
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
  }
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: section }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(section);
}

async function settleScreen(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.mouse.move(1270, 890);
}

test.describe('chat against the headless host and a local LLM server', () => {
  test.describe.configure({ mode: 'serial' });
  let host: RunningHost;
  let llm: LlmTestServer;

  sharedHost('chat', {
    models: [MODEL, 'e2e-other-model'],
    prepare: (dir) => {
      // Inline mode with one inline-callable tool, so the main model can call it mid-reply.
      cli(dir, 'extensions', 'install', INLINE_DICE, '--grant', 'tools');
      cli(dir, 'council', 'add-member', '--pack', 'story-council', '--item', 'plot-enforcer', '--tools', 'inline-dice:roll');
      cli(dir, 'council', 'set', '--mode', 'inline');
    },
    ready: (shared) => {
      ({ host } = shared);
      llm = shared.llm!;
    },
  });

  test('adds a connection through the UI, tests it, and streams a reply in the Workbench', async ({ page }) => {
    const problems = watchPage(page);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });

    // First open: Getting started offers the path, and its first step leads to Connections.
    await open(page, host, 'Council');
    const guide = page.getByTestId('first-run');
    await expect(guide.locator('[aria-current="step"]')).toHaveAttribute('data-step', 'connection');
    await guide.getByRole('button', { name: 'Go to Connections' }).click();

    // Connections: add the local server as an OpenAI-compatible profile.
    const connections = page.getByTestId('panel-connections');
    await connections.getByRole('button', { name: 'Add connection' }).click();
    const form = connections.getByTestId('profile-form');
    await form.getByLabel('Name', { exact: true }).fill('Local test server');
    await expect(form.getByLabel('Provider')).toHaveValue('openai-compatible');
    await form.getByLabel('Base URL').fill(`${llm.origin}/v1`);
    await expect(form.getByRole('radio', { name: 'No key' })).toBeChecked();
    await form.getByRole('button', { name: 'List models' }).click();
    await form.getByLabel('Pick the default model').selectOption(MODEL);
    await expect(form.getByLabel('Default model', { exact: true })).toHaveValue(MODEL);
    await form.getByRole('button', { name: 'Test connection' }).click();
    await expect(form.getByTestId('test-result')).toContainText(/Connected · 2 models · [\d.]+ ms/);
    await form.getByRole('button', { name: 'Save connection' }).click();
    const card = connections.getByTestId('connection');
    await expect(card).toHaveCount(1);
    await expect(card).toContainText('Local test server');
    await expect(card).toContainText(`${llm.origin}/v1`);
    await expect(card.getByTestId('key-status')).toHaveText('No key');
    // Test the saved profile too.
    await card.getByRole('button', { name: 'Test Local test server' }).click();
    await expect(card.getByTestId('test-result')).toContainText('Connected · 2 models');
    const profileId = await card.getAttribute('data-id');
    expect(profileId).toBeTruthy();

    // Sidecar: the same connection, with the seed defaults.
    await open(page, host, 'Sidecar');
    const sidecar = page.getByTestId('panel-sidecar');
    await expect(sidecar.getByLabel('Temperature', { exact: true })).toHaveValue('0.7');
    await expect(sidecar.getByLabel('Top P', { exact: true })).toHaveValue('0.9');
    await expect(sidecar.getByLabel('Max tokens')).toHaveValue('1024');
    await sidecar.getByLabel('Connection').selectOption(profileId!);
    await sidecar.getByLabel('Temperature', { exact: true }).fill('3');
    await sidecar.getByRole('button', { name: 'Save' }).click();
    await expect(sidecar.getByText('Temperature must be from 0 to 2.')).toBeVisible();
    await sidecar.getByLabel('Temperature', { exact: true }).fill('0.4');
    await sidecar.getByRole('button', { name: 'Save' }).click();
    await expect(sidecar.getByTestId('sidecar-status')).toHaveAttribute('data-configured', 'true');
    await expect(sidecar.getByTestId('sidecar-status')).toContainText('Ready: council tools use Local test server');
    await settleScreen(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'sidecar.png') });

    // Workbench: a new session on the new connection.
    await open(page, host, 'Workbench');
    const workbench = page.getByTestId('panel-workbench');
    await startNewSession(workbench);
    await expect(workbench.getByTestId('session-title')).toHaveText('New session');
    await workbench.getByRole('tab', { name: 'Character & world' }).click();
    await workbench.getByLabel('Character name').fill('Seraphina');
    await workbench.getByLabel('Description', { exact: true }).fill('A guardian of the enchanted glade.');
    await workbench.getByLabel('Persona name').fill('Ada');
    await workbench.getByRole('button', { name: 'Save character & world' }).click();
    await expect(workbench.getByTestId('session-editor')).toContainText('Saved.');
    await workbench.getByRole('tab', { name: 'Chat' }).click();
    await workbench.getByLabel('Main connection').selectOption(profileId!);

    const chunks = ['Welcome, ', 'Ada. ', 'The glade ', 'is quiet ', 'tonight; ', 'even the ', 'fireflies ', 'keep their ', 'voices low. ', `${XSS} `, 'Shall we ', 'walk?'];
    llm.enqueue({ text: chunks, delayMs: 120, usage: { input: 40, output: 20 } });
    const box = workbench.getByLabel('Message');
    await box.fill('Hello, Seraphina.');
    await box.press('Enter');
    await expect(box).toHaveValue('');

    const reply = workbench.locator('[data-testid="message"][data-role="assistant"]').last();
    const text = reply.getByTestId('message-text');
    // Tokens arrive one after another: part of the reply is on screen while the rest is still coming.
    await expect(text).toContainText('Welcome, Ada.', { timeout: 10_000 });
    await expect(reply).toHaveAttribute('data-streaming', 'true');
    expect(await text.textContent()).not.toContain('Shall we walk?');
    await expect(workbench.getByRole('button', { name: 'Stop' })).toBeVisible();
    await expect(text).toHaveText(chunks.join(''), { timeout: 15_000 });
    await expect(reply).not.toHaveAttribute('data-streaming', 'true');
    await expect(reply).toContainText(MODEL);
    await expect(workbench.getByRole('button', { name: 'Send' })).toBeVisible();
    await expect(workbench.locator('.msg img')).toHaveCount(0);
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();

    // The host sent the whole conversation, with the character in the system prompt.
    const request = llm.generations.at(-1)!;
    const body = request.body as { model: string; messages: Array<{ role: string; content: string }> };
    expect(body.model).toBe(MODEL);
    expect(body.messages[0]!.content).toContain('Seraphina');
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: 'Hello, Seraphina.' });

    // The session list shows the two messages, and the path is walked: Getting started is gone.
    await expect(workbench.getByTestId('session').first()).toContainText('2 messages');
    await expect(page.getByTestId('first-run')).toHaveCount(0);

    await open(page, host, 'Connections');
    await expect(page.getByTestId('connection').locator('.badge', { hasText: 'Chat' })).toBeVisible();
    await expect(page.getByTestId('connection').locator('.badge', { hasText: 'Sidecar' })).toBeVisible();
    await settleScreen(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'connections.png') });
    expect(problems).toEqual([]);
  });

  test('stops a slow reply mid-stream and keeps what arrived', async ({ page }) => {
    const problems = watchPage(page);
    await open(page, host, 'Workbench');
    const workbench = page.getByTestId('panel-workbench');
    await expect(workbench.getByTestId('session-title')).toHaveText('New session');
    const before = llm.clientAborts;
    const words = Array.from({ length: 60 }, (_, i) => `word${i} `);
    llm.enqueue({ text: words, delayMs: 250 });
    const box = workbench.getByLabel('Message');
    await box.fill('Tell me a very long story.');
    await workbench.getByRole('button', { name: 'Send' }).click();

    const reply = workbench.locator('[data-testid="message"][data-role="assistant"]').last();
    const text = reply.getByTestId('message-text');
    await expect(text).toContainText('word2 ', { timeout: 10_000 });
    await workbench.getByRole('button', { name: 'Stop' }).click();
    await expect(reply.getByTestId('message-note')).toContainText('Stopped by the user.', { timeout: 10_000 });
    await expect(reply).not.toHaveAttribute('data-streaming', 'true');
    const kept = (await text.textContent()) ?? '';
    expect(kept.startsWith('word0 word1 word2 ')).toBe(true);
    expect(kept).not.toContain('word59');
    // The request was really cut on the wire, and nothing more arrived after Stop (the server sends no more once cut).
    await expect.poll(() => llm.clientAborts).toBeGreaterThan(before);
    expect(await text.textContent()).toBe(kept);
    // The partial reply was saved: it survives a reload.
    await page.reload();
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workbench' }).click();
    const saved = page.getByTestId('panel-workbench').locator('[data-testid="message"][data-role="assistant"]').last();
    await expect(saved.getByTestId('message-text')).toHaveText(kept);
    await expect(saved.getByTestId('message-note')).toContainText('Stopped by the user.');
    expect(problems).toEqual([]);
  });
  test('shows an inline tool call live in seed-004 order, then its result and the reply', async ({ page }) => {
    const problems = watchPage(page);
    await open(page, host, 'Workbench');
    const workbench = page.getByTestId('panel-workbench');
    await expect(workbench.getByTestId('session-title')).toHaveText('New session');
    // Record every state the card is drawn in, as the browser shows it.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __cardStates: string[] }).__cardStates = seen;
      new MutationObserver(() => {
        const card = document.querySelector<HTMLElement>('[data-testid="tool-call"][data-call-id="call_dice"]');
        if (!card) return;
        const state = `${card.dataset.phase}|${card.dataset.result}|${card.querySelector('[data-testid="tool-call-args"]')?.textContent ?? ''}`;
        if (seen[seen.length - 1] !== state) seen.push(state);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    llm.enqueue(
      { text: 'Rolling. ', toolCalls: [{ id: 'call_dice', name: 'inline-dice__roll', args: ['{"nota', 'tion": ', '"2d6"}'] }], delayMs: 250 },
      { text: ['The dice ', 'say 7: ', 'onward!'], delayMs: 120 },
    );
    const box = workbench.getByLabel('Message');
    await box.fill('Roll 2d6 for me.');
    await box.press('Enter');

    const reply = workbench.locator('[data-testid="message"][data-role="assistant"]').last();
    const card = reply.getByTestId('tool-call');
    await expect(card).toHaveCount(1, { timeout: 10_000 });
    await expect(card.getByTestId('tool-call-name')).toHaveText('inline-dice__roll');
    await expect(card).toContainText('for Marshal Vane');
    await expect(card).toHaveAttribute('data-result', 'ok', { timeout: 15_000 });
    await expect(card.getByTestId('tool-call-args')).toHaveText('{"notation": "2d6"}');
    await expect(card.getByTestId('tool-call-result')).toHaveText('Rolled 2d6: 3 + 4 = 7 <img src=x onerror=window.__pwned=1>');
    // The text streamed before the call stays above its card; the rest follows it.
    await expect(reply.getByTestId('message-text')).toHaveText(['Rolling. ', 'The dice say 7: onward!'], { timeout: 15_000 });
    await expect(reply).not.toHaveAttribute('data-streaming', 'true');

    // The card went forward only: started/named → arguments growing → ended → result.
    const states = await page.evaluate(() => (window as unknown as { __cardStates: string[] }).__cardStates);
    const rank: Record<string, number> = { started: 0, named: 1, arguments: 2, ended: 3, failed: 3 };
    const phases = states.map((s) => s.split('|'));
    for (let i = 1; i < phases.length; i++) {
      const [prevPhase, prevResult] = phases[i - 1]!;
      const [phase, result] = phases[i]!;
      expect(rank[phase!]! + (result === 'none' ? 0 : 1)).toBeGreaterThanOrEqual(rank[prevPhase!]! + (prevResult === 'none' ? 0 : 1));
    }
    expect(phases.some(([phase, , args]) => phase === 'arguments' && args !== '' && args !== '{"notation": "2d6"}')).toBe(true);
    expect(phases.at(-1)).toEqual(['ended', 'ok', '{"notation": "2d6"}']);

    // The model got the tool's result in the next round.
    const second = llm.generations.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> };
    expect(JSON.stringify(second.messages)).toContain('Rolled 2d6: 3 + 4 = 7');
    await expect(workbench.locator('.msg img, .tool-card img')).toHaveCount(0);
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();

    await reply.scrollIntoViewIfNeeded();
    await settleScreen(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'workbench.png') });
    expect(problems).toEqual([]);
  });
});
