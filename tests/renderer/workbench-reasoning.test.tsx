// @vitest-environment real-core
// A reasoning model's thinking in the Workbench chat, against the real core and the LLM test server (127.0.0.1):
// folded above the reply as it comes ("Thinking…"), kept as text, and after the reply is saved, how long it took.
import { afterEach, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../shared/contract/events';
import { byTestId, cleanup, settle } from './harness';
import { liveMessage, openWorkbench, replyText, savedSession, send, until } from './workbench-harness';
import { disposeAllHosts } from './real-host';
import { gate } from './real-council';
import { closeLlmServers, finishes } from './real-chat';
import { XSS } from '../fixtures/xss-corpus';

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
  await closeLlmServers();
});

const thought = (events: readonly HostEvent[]) => events.filter((e) => e.type === 'chat.reasoning').map((e) => (e as { text: string }).text).join('');

describe("a reasoning model's thinking", () => {
  it('shows folded as Thinking… while the model thinks, as text, and after the reply says it was thought', async () => {
    const w = await openWorkbench();
    const end = gate();
    const reasoning = ['Weighing the tide ', `${XSS} <b>now</b>`];
    // Frames: the role, the two thoughts, then the reply held back until the test has looked.
    w.llm.enqueue({ reasoning, text: 'The ferry leaves at dawn.', holds: [{ after: 3, until: end.promise }] });
    await send(w.panel, 'When do we leave?');
    await until(w, 'the whole thought', (e) => thought(e) === reasoning.join(''));
    const block = byTestId(liveMessage(w.panel), 'message-reasoning') as HTMLDetailsElement;
    expect(block.open).toBe(false);
    expect(block.querySelector('summary')!.textContent).toBe('Thinking…');
    expect(block.querySelector('.msg__reasoning-text')!.textContent).toBe(reasoning.join(''));
    expect(block.querySelector('b, img, script')).toBeNull();
    await settle(() => end.open());
    await until(w, 'the end of the reply', (e) => finishes(e).length === 1);
    const saved = (await savedSession(w.host)).messages.at(-1)!;
    expect(saved).toMatchObject({ content: 'The ferry leaves at dawn.', reasoning: reasoning.join('') });
    const after = byTestId(liveMessage(w.panel), 'message-reasoning');
    expect(after.querySelector('summary')!.textContent).toMatch(/^(Thought for \d+ s|Thoughts)$/);
    expect(replyText(liveMessage(w.panel))).toBe('The ferry leaves at dawn.');
  });

  it('a reply without reasoning has no block', async () => {
    const w = await openWorkbench();
    w.llm.enqueue({ text: 'Aye.' });
    await send(w.panel, 'Hi');
    await until(w, 'the end of the reply', (e) => finishes(e).length === 1);
    expect(liveMessage(w.panel).querySelector('[data-testid="message-reasoning"]')).toBeNull();
  });
});
