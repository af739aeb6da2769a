// Sampling, the context budget and the world-info activation log in Chromium against the headless host and the LLM
// test server: a long lorebook chat (imported with the CLI, as a person's exported session) gets a context size in the
// Sampling form; the next turn's request is cut to fit with the sampling sent, and the reply's breakdown shows the
// prompt by part, what was cut, and which entries fired on which keyword — and which did not fit.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { LlmTestServer } from '../fixtures/llm-server';
import { sessionDocument } from '../helpers/session-document';
import { addLocalConnection, ROOT, type RunningHost, cli } from './host-process';
import { sharedHost } from './shared-host';

const MODEL = 'e2e-budget-model';

function longChat() {
  const messages = Array.from({ length: 16 }, (_, i) => ({ id: `m${i}`, role: i % 2 ? ('assistant' as const) : ('user' as const), content: `Evening ${i}: ${'the river runs on '.repeat(30)}`, createdAt: 1000 + i }));
  return sessionDocument({
    id: 'river-chat',
    title: 'River crossing',
    createdAt: 1000,
    updatedAt: 1016,
    character: { name: 'Mira', description: 'A ferry captain who knows every current.', personality: 'Dry.', scenario: 'A storm is coming.' },
    persona: { name: 'Ada', description: 'A traveller.' },
    worldInfo: [
      { id: 'bridge', keywords: ['bridge'], content: 'The old bridge fell in spring.', enabled: true },
      { id: 'fog', keywords: [], content: 'Fog lies on the river at dusk.', enabled: true, constant: true },
      { id: 'ferry-log', keywords: ['ferry'], content: `The ferry log. ${'entry '.repeat(600)}`, enabled: true },
      { id: 'castle', keywords: ['castle'], content: 'CASTLE LORE', enabled: true },
    ],
    messages,
  });
}

test.describe('sampling, the context budget and the world-info log', () => {
  let host: RunningHost;
  let llm: LlmTestServer;
  let connectionId: string;

  sharedHost('budget', {
    models: [MODEL],
    prepare: (dir, llm) => {
      connectionId = addLocalConnection(dir, llm!.origin, MODEL);
      const file = path.join(dir, 'river-chat.json');
      fs.writeFileSync(file, JSON.stringify(longChat()));
      cli(dir, 'sessions', 'import', file);
    },
    ready: (shared) => {
      ({ host } = shared);
      llm = shared.llm!;
    },
  });

  test('a context size cuts the oldest messages; the breakdown shows the parts and the activation log', async ({ page }) => {
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    llm.enqueue({ text: ['Not tonight, ', 'the bridge is gone.'] });

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(host.url);
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workbench' }).click();
    const workbench = page.getByTestId('panel-workbench');
    await workbench.locator('[data-testid="session"][data-id="river-chat"]').click();
    await workbench.getByLabel('Main connection').selectOption(connectionId);
    await expect(workbench.getByLabel('Main connection')).toHaveValue(connectionId);

    const sampling = workbench.getByTestId('sampling');
    await sampling.getByRole('button', { name: /^Sampling:/ }).click();
    await sampling.getByLabel('Temperature').fill('0.4');
    await sampling.getByLabel('Max tokens').fill('200');
    await sampling.getByLabel('Context size').fill('1200');
    await sampling.getByRole('button', { name: 'Save for this session' }).click();
    await expect(sampling.getByTestId('sampling-summary')).toHaveText('temperature 0.4 · max 200 tokens · context 1200');

    const box = workbench.getByLabel('Message');
    await box.fill('Can we take the ferry across the bridge tonight?');
    await box.press('Enter');
    const reply = workbench.locator('[data-testid="message"][data-role="assistant"]').last();
    await expect(reply.getByTestId('message-text')).toHaveText('Not tonight, the bridge is gone.', { timeout: 20_000 });
    await expect(workbench.getByRole('button', { name: 'Stop' })).toHaveCount(0, { timeout: 20_000 });

    const request = llm.generations.at(-1)!.body as { temperature: number; max_tokens: number; messages: Array<{ role: string; content: string }> };
    expect(request).toMatchObject({ temperature: 0.4, max_tokens: 200 });
    expect(request.messages.some((m) => m.content.startsWith('Evening 0:'))).toBe(false);
    expect(request.messages.at(-1)!.content).toBe('Can we take the ferry across the bridge tonight?');
    expect(request.messages[0]!.content).toContain('The old bridge fell in spring.');
    expect(request.messages[0]!.content).not.toContain('The ferry log.');

    await reply.getByRole('button', { name: /^Prompt breakdown \(≈/ }).click();
    const report = reply.getByTestId('prompt-report');
    await expect(report).toContainText('of a 1,000-token budget');
    await expect(report.getByTestId('prompt-cut')).toContainText('oldest messages were left out; 1 world-info entry did not fit');
    const log = report.getByTestId('world-info-log');
    await expect(log.locator('tbody tr')).toHaveCount(3);
    await expect(log.locator('tr[data-entry="bridge"]')).toContainText('“bridge” in message 17 (the user)');
    await expect(log.locator('tr[data-entry="fog"]')).toContainText('always on (constant)');
    await expect(log.locator('tr[data-entry="ferry-log"]')).toContainText('no — did not fit the budget');
    await report.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(ROOT, 'tests', 'e2e', 'screenshots', 'prompt-report.png') });
    expect(problems).toEqual([]);
  });
});
