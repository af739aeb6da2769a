// @vitest-environment real-core
// The session's sampling form and a reply's prompt report in the Workbench, on a real core and the LLM test server:
// saving for the session, making it the connection's default, a refused value shown with its field; the prompt by
// part, what was cut and the world-info activation log after a real turn.
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/types/chat';
import { byLabel, byTestId, buttonNamed, cleanup, settle, typeInto } from './harness';
import { disposeAllHosts } from './real-host';
import { closeLlmServers, finishes, session } from './real-chat';
import { liveMessage, openWorkbench, savedSession, send, until } from './workbench-harness';

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
  await closeLlmServers();
});

const form = (panel: HTMLElement) => byTestId(panel, 'sampling');

describe('sampling', () => {
  it('saves for the session, becomes the connection default, and a refused value names its field', async () => {
    const w = await openWorkbench();
    const { panel, host } = w;
    expect(byTestId(panel, 'sampling-summary').textContent).toBe('the provider’s defaults');
    await settle(() => buttonNamed(form(panel), /^Sampling:/).click());
    await settle(() => typeInto(byLabel(form(panel), 'Temperature'), '0.3'));
    await settle(() => typeInto(byLabel(form(panel), 'Context size'), '4096'));
    await settle(() => typeInto(byLabel<HTMLTextAreaElement>(form(panel), /^Stop strings/), '\\nAda:\n###'));
    await settle(() => buttonNamed(form(panel), 'Save for this session').click());
    expect((await savedSession(host)).sampling).toEqual({ temperature: 0.3, contextSize: 4096, stop: ['\nAda:', '###'] });
    expect(byTestId(panel, 'sampling-summary').textContent).toBe('temperature 0.3 · context 4096 · 2 stop strings');

    w.llm.enqueue({ text: 'ok' });
    await send(panel, 'Hello');
    await until(w, 'the reply', (e) => finishes(e).length === 1);
    expect(w.llm.generations[0]!.body).toMatchObject({ temperature: 0.3, stop: ['\nAda:', '###'] });

    await settle(() => buttonNamed(form(panel), /^Make it .* default$/).click());
    const settings = await host.arrange('settings.get', {});
    expect(settings.chat?.connectionSampling).toEqual({ 'local-lm': { temperature: 0.3, contextSize: 4096, stop: ['\nAda:', '###'] } });
    expect((await savedSession(host)).sampling).toEqual({});
    expect(byTestId(panel, 'sampling-summary').textContent).toBe('temperature 0.3 · context 4096 · 2 stop strings');
    expect(byLabel<HTMLInputElement>(form(panel), 'Temperature').placeholder).toBe('0.3 (connection)');

    await settle(() => typeInto(byLabel(form(panel), 'Temperature'), '5'));
    await settle(() => buttonNamed(form(panel), 'Save for this session').click());
    const error = byTestId(panel, 'sampling-error');
    expect(error.dataset.code).toBe('INVALID_INPUT');
    expect(error.textContent).toContain('/patch/sampling/temperature');
  });
});

describe('the prompt report', () => {
  it('shows the prompt by part, the cut messages and the world-info log of a real turn', async () => {
    const old: ChatMessage[] = Array.from({ length: 12 }, (_, i) => ({ id: `m${i}`, role: i % 2 ? 'assistant' : 'user', content: `Old ${i} ${'word '.repeat(60)}`, createdAt: i }) as ChatMessage);
    const w = await openWorkbench({
      sessions: [
        session({
          messages: old,
          sampling: { contextSize: 900, maxTokens: 100 },
          worldInfo: [
            { id: 'glade', keywords: ['glade'], content: 'The glade is warded.', enabled: true },
            { id: 'moon', keywords: ['moon'], content: `Moon lore ${'long '.repeat(400)}`, enabled: true },
          ],
        }),
      ],
    });
    const { panel } = w;
    w.llm.enqueue({ text: 'Stay close.' });
    await send(panel, 'Is the glade safe under the moon?');
    await until(w, 'the reply', (e) => finishes(e).length === 1);
    await settle();
    const reply = liveMessage(panel);
    await settle(() => buttonNamed(reply, /^Prompt breakdown \(≈/).click());
    const report = byTestId(reply, 'prompt-report');
    expect(report.textContent).toContain('of a 800-token budget');
    expect(byTestId(report, 'prompt-cut').textContent).toMatch(/the \d+ oldest messages were left out; 1 world-info entry did not fit\./);
    const rows = [...byTestId(report, 'world-info-log').querySelectorAll<HTMLTableRowElement>('tbody tr')];
    expect(rows.map((r) => [r.dataset.entry, r.dataset.included])).toEqual([
      ['glade', 'true'],
      ['moon', 'false'],
    ]);
    expect(rows[0]!.textContent).toContain('“glade” in message 13 (the user)');
    expect(report.querySelector('[role="img"]')?.getAttribute('aria-label')).toMatch(/^System \d+ tokens, Character \d+ tokens, World info \d+ tokens/);
  });
});
