// A Workbench turn through the extension pipeline, in Chromium: a Lumiverse-style fixture extension (TypeScript
// built at install) resolves a macro, adds a system line through its interceptor (carrying the events it was told
// of), and a council member's tool reads the active chat — all visible in the turn's prompt breakdown.
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { LlmTestServer } from '../fixtures/llm-server';
import { addLocalConnection, ROOT, type RunningHost, cli } from './host-process';
import { sharedHost } from './shared-host';
import { startNewSession } from './new-session';

const MODEL = 'e2e-pipeline-model';
const FIXTURE = path.join(ROOT, 'tests', 'fixtures', 'extensions', 'lumiverse_pipeline');

test.describe('a chat turn through the extension pipeline', () => {
  let host: RunningHost;
  let llm: LlmTestServer;
  let connectionId: string;

  sharedHost('pipeline', {
    models: [MODEL],
    prepare: (dir, llm) => {
      connectionId = addLocalConnection(dir, llm!.origin, MODEL);
      cli(dir, 'extensions', 'install', FIXTURE, '--grant', 'tools,interceptor,context_handler,chats,chat_mutation', '--trust');
      cli(dir, 'council', 'add-member', '--pack', 'story-council', '--item', 'plot-enforcer', '--role', 'Archivist', '--chance', '100', '--tools', 'lumiverse_pipeline:active_chat');
      cli(dir, 'council', 'set', '--mode', 'sidecar', '--on');
    },
    ready: (shared) => {
      ({ host } = shared);
      llm = shared.llm!;
    },
  });

  test('macro, interceptor, events and the council tool reading the active chat show in the breakdown', async ({ page }) => {
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    llm.enqueue({ text: ['Storm ', 'noted.'] }, { text: ['Still ', 'stormy.'] });

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(host.url);
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workbench' }).click();
    const workbench = page.getByTestId('panel-workbench');
    await startNewSession(workbench);
    await workbench.getByLabel('Main connection').selectOption(connectionId);
    await expect(workbench.getByLabel('Main connection')).toHaveValue(connectionId);

    const box = workbench.getByLabel('Message');
    for (const [text, reply] of [
      ['The sky is {{pipeline_weather}} tonight.', 'Storm noted.'],
      ['And now?', 'Still stormy.'],
    ] as const) {
      await box.fill(text);
      await box.press('Enter');
      await expect(workbench.locator('[data-testid="message"][data-role="assistant"]').last().getByTestId('message-text')).toHaveText(reply, { timeout: 20_000 });
      // The turn has ended (Stop gives way to Send) before the next message: Enter while a reply streams sends nothing.
      await expect(workbench.getByRole('button', { name: 'Stop' })).toHaveCount(0, { timeout: 20_000 });
    }

    // The first request: the macro resolved, the interceptor's line first, the council tool's read of the active chat.
    const first = llm.generations[0]!.body as { messages: Array<{ role: string; content: string }> };
    expect(first.messages[0]!.content).toMatch(/^\[pipeline\] a line from the interceptor; events so far: .*GENERATION_STARTED/);
    expect(first.messages.at(-1)!.content).toBe('The sky is stormy tonight.');
    // The council tool read the active chat as stored (the deliberation is never macro-expanded).
    expect(first.messages.map((m) => m.content).join('\n')).toContain('"last":"The sky is {{pipeline_weather}} tonight."');

    // The second turn's breakdown: the interceptor's diff names GENERATION_ENDED from the first turn.
    const reply = workbench.locator('[data-testid="message"][data-role="assistant"]').last();
    await reply.getByRole('button', { name: /Prompt breakdown/ }).click();
    const stages = reply.getByTestId('breakdown-stage');
    await expect(stages.first()).toHaveAttribute('data-stage', 'council');
    await expect(stages.filter({ hasText: 'Pipeline Probe' }).first()).toBeVisible();
    await expect(reply.locator('[data-testid="breakdown-stage"][data-stage="interceptors"]').first()).toContainText('GENERATION_ENDED');
    // Its macro is a stage of its own, credited to it.
    await expect(reply.locator('[data-testid="breakdown-stage"][data-stage="macros"]').filter({ hasText: 'Pipeline Probe' }).first()).toContainText('{{pipeline_weather}}');
    await reply.getByTestId('prompt-breakdown').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(ROOT, 'tests', 'e2e', 'screenshots', 'prompt-breakdown.png') });
    expect(problems).toEqual([]);
  });
});
