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
    // Its time as saved: whole seconds (at least one), or no time said when it took none.
    const label = saved.reasoningMs! > 0 ? `Thought for ${Math.max(1, Math.round(saved.reasoningMs! / 1000))} s` : 'Thoughts';
    expect(after.querySelector('summary')!.textContent).toBe(label);
    expect(replyText(liveMessage(w.panel))).toBe('The ferry leaves at dawn.');
  });

  it('a reply without reasoning has no block', async () => {
    const w = await openWorkbench();
    w.llm.enqueue({ text: 'Aye.' });
    await send(w.panel, 'Hi');
    await until(w, 'the end of the reply', (e) => finishes(e).length === 1);
    expect(liveMessage(w.panel).querySelector('[data-testid="message-reasoning"]')).toBeNull();
  });

  it('says how long it thought in whole seconds, minutes past a minute', async () => {
    const { ReasoningBlock } = await import('../../renderer/src/features/workbench/ReasoningBlock');
    const { createRoot } = await import('react-dom/client');
    const { act } = await import('react');
    const label = (ms: number | undefined, thinking = false) => {
      const el = document.createElement('div');
      const root = createRoot(el);
      act(() => root.render(<ReasoningBlock text="hmm" ms={ms} thinking={thinking} />));
      const text = el.querySelector('summary')!.textContent;
      act(() => root.unmount());
      return text;
    };
    expect([label(400), label(12_400), label(60_000), label(125_000), label(undefined), label(0), label(5000, true)]).toEqual([
      'Thought for 1 s',
      'Thought for 12 s',
      'Thought for 1 min',
      'Thought for 2 min 5 s',
      'Thoughts',
      'Thoughts',
      'Thinking…',
    ]);
  });
});
