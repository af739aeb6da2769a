// Message actions and swipes in Chromium against the headless host and the LLM test server, with a Lumiverse-style
// extension (the pipeline fixture) listening: regenerate keeps the old reply as a swipe, ← and → move between them,
// a user message is edited in place, Continue adds to the reply, a message is deleted, and the extension's own tool
// shows it heard MESSAGE_SWIPED, MESSAGE_EDITED and MESSAGE_DELETED.
import path from 'node:path';
import { expect, test, type Locator } from '@playwright/test';
import { LlmTestServer } from '../fixtures/llm-server';
import { addLocalConnection, ROOT, type RunningHost, cli } from './host-process';
import { sharedHost } from './shared-host';
import { startNewSession } from './new-session';

const MODEL = 'e2e-actions-model';
const FIXTURE = path.join(ROOT, 'tests', 'fixtures', 'extensions', 'lumiverse_pipeline');

test.describe('message actions and swipes', () => {
  let host: RunningHost;
  let llm: LlmTestServer;
  let connectionId: string;

  sharedHost('actions', {
    models: [MODEL],
    prepare: (dir, llm) => {
      connectionId = addLocalConnection(dir, llm!.origin, MODEL);
      cli(dir, 'extensions', 'install', FIXTURE, '--grant', 'tools,chats,chat_mutation', '--trust');
    },
    ready: (shared) => {
      ({ host } = shared);
      llm = shared.llm!;
    },
  });

  test('regenerate, swipe with the arrow keys, edit, continue, delete; the extension heard each', async ({ page }) => {
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    llm.enqueue({ text: ['The ferry ', 'leaves at dawn.'] }, { text: ['The ferry ', 'is cancelled.'] }, { text: [' Unless ', 'the wind drops.'] });

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(host.url);
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workbench' }).click();
    const workbench = page.getByTestId('panel-workbench');
    await startNewSession(workbench);
    await workbench.getByLabel('Main connection').selectOption(connectionId);
    await expect(workbench.getByLabel('Main connection')).toHaveValue(connectionId);

    const messages = workbench.locator('[data-testid="chat"] .chat__slot > [data-testid="message"]');
    const reply = workbench.locator('[data-testid="message"][data-role="assistant"]').last();
    const replyText = (m: Locator) => m.getByTestId('message-text');
    const idle = () => expect(workbench.getByRole('button', { name: 'Stop' })).toHaveCount(0, { timeout: 20_000 });

    const box = workbench.getByLabel('Message');
    await box.fill('When does the ferry leave?');
    await box.press('Enter');
    await expect(replyText(reply)).toHaveText('The ferry leaves at dawn.', { timeout: 20_000 });
    await idle();

    await workbench.getByRole('button', { name: 'Regenerate' }).click();
    await expect(replyText(reply)).toHaveText('The ferry is cancelled.', { timeout: 20_000 });
    await idle();
    await expect(reply.getByTestId('swipe-count')).toHaveText('2/2');
    await expect(messages).toHaveCount(2);

    // ← on the focused reply shows the first swipe; → goes back.
    await reply.focus();
    await page.keyboard.press('ArrowLeft');
    await expect(replyText(reply)).toHaveText('The ferry leaves at dawn.');
    await expect(reply.getByTestId('swipe-count')).toHaveText('1/2');
    await page.keyboard.press('ArrowRight');
    await expect(replyText(reply)).toHaveText('The ferry is cancelled.');

    // Edit the question in place.
    const question = messages.first();
    await question.getByRole('button', { name: 'Edit' }).click();
    const editor = question.getByLabel('Message text');
    await editor.fill('When does the morning ferry leave?');
    await editor.press('Control+Enter');
    await expect(question.locator('.msg__text')).toHaveText('When does the morning ferry leave?');

    // Continue: the model goes on from the reply, and its words join it.
    await workbench.getByRole('button', { name: 'Continue' }).click();
    await expect(replyText(reply)).toHaveText('The ferry is cancelled. Unless the wind drops.', { timeout: 20_000 });
    await idle();
    const continued = llm.generations.at(-1)!.body as { messages: Array<{ role: string; content: string }> };
    expect(continued.messages.at(-1)).toEqual({ role: 'assistant', content: 'The ferry is cancelled.' });
    expect(continued.messages.at(-2)).toEqual({ role: 'user', content: 'When does the morning ferry leave?' });
    await reply.scrollIntoViewIfNeeded();
    await reply.hover();
    await page.screenshot({ path: path.join(ROOT, 'tests', 'e2e', 'screenshots', 'message-actions.png') });

    // Delete the question, asked twice.
    await question.getByRole('button', { name: 'Delete', exact: true }).click();
    await question.getByRole('button', { name: 'Delete message' }).click();
    await expect(messages).toHaveCount(1);

    // What the extension heard, read through its own tool in Tools.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Tools' }).click();
    const tools = page.getByTestId('panel-tools');
    await tools.locator('button.tool-row[data-qualified-name="lumiverse_pipeline:message_events"]').click();
    await tools.getByTestId('try-it-run').click();
    const result = tools.getByTestId('tool-result').locator('pre');
    await expect(result).toBeVisible({ timeout: 15_000 });
    // Its message events (it also hears the bundled extensions' workers start, SPINDLE_EXTENSION_LOADED).
    const heard = (JSON.parse((await result.textContent())!) as Array<{ event: string; payload: { action?: string; message?: { content: string; swipes: string[] } } }>).filter((e) => e.event.startsWith('MESSAGE_'));
    // The first reply's text arriving is MESSAGE_EDITED (it was announced empty as the turn began, as Lumiverse does).
    expect(heard.map((e) => `${e.event}${e.payload.action ? `:${e.payload.action}` : ''}`)).toEqual([
      'MESSAGE_EDITED',
      'MESSAGE_SWIPED:added',
      'MESSAGE_SWIPED:navigated',
      'MESSAGE_SWIPED:navigated',
      'MESSAGE_EDITED',
      'MESSAGE_EDITED',
      'MESSAGE_DELETED',
    ]);
    expect(heard[0]!.payload.message!.content).toBe('The ferry leaves at dawn.');
    expect(heard[1]!.payload.message!.swipes).toEqual(['The ferry leaves at dawn.', 'The ferry is cancelled.']);
    expect(heard[5]!.payload.message!.content).toBe('The ferry is cancelled. Unless the wind drops.');
    expect(problems).toEqual([]);
  });
});
