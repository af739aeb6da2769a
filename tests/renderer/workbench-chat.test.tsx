// @vitest-environment real-core
// The Workbench chat against the real core (in memory), its chat engine streaming from the local LLM test server
// (127.0.0.1): sending, streamed text batched into one render per animation frame, tool-call cards in seed-004 order,
// Stop, Regenerate, provider errors, the council's deliberation, dry run, and model output kept as text. Sessions are
// imported into the core as exported files; replies are scripted on the LLM server, held mid-stream where a test looks
// at a reply still coming.
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openChatDb } from '../../electron/core/db/chat-db';
import type { HostEvent } from '../../shared/contract/events';
import { App } from '../../renderer/src/app/App';
import { formatMs } from '../../renderer/src/components/InlineError';
import { LlmClient } from '../../electron/core/llm/client';
import { MemorySecretStore } from '../../electron/core/connections/secret-store';
import { Redactor } from '../../electron/core/connections/redact';
import { byLabel, byTestId, buttonNamed, cleanup, key, navButton, renderShell, settle, typeInto } from './harness';
import { cards, liveMessage, openWorkbench, readReply, replyText, savedSession, send, sentMessages, until, type Open, type Workbench } from './workbench-harness';
import { BUNDLED_PACKS, disposeAllHosts } from './real-host';
import { addMember, captureBlobUrls, gate, testTool } from './real-council';
import { closeLlmServers, coreSent, deltas, finishes, session, streamed, toolCalls, type ChatCore } from './real-chat';
import { coreReaches, FIXTURE_EXTENSIONS } from './real-tools';

import { XSS } from '../fixtures/xss-corpus';
import * as textPieces from '../../renderer/src/features/workbench/text-pieces';

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
  await closeLlmServers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  delete window.__pwned;
});


const SETTINGS_CHAT = { mainConnectionId: 'local-lm', model: '', inlineMaxRounds: 3, dryRun: false };

/** The OpenAI connection (a second profile), on the same test server so nothing leaves 127.0.0.1. */
function openAiProfile(w: ChatCore) {
  return { id: 'openai', name: 'OpenAI', provider: 'openai' as const, baseUrl: `${w.llm.origin}/v1`, defaultModel: 'gpt-4o-mini', headers: {} };
}

describe('the keyboard', () => {
  /** What Tab stops on, in document order (what a browser's sequential navigation would visit). */
  const tabStops = (root: ParentNode) =>
    [...root.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, iframe, summary, [tabindex]')].filter((el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled);

  it('the message list is one Tab stop: arrows move between messages, their controls follow, and a skip link reaches the message box', async () => {
    const trace = [{ stage: 'generation' as const, by: 'host', ms: 20 }];
    const messages = Array.from({ length: 14 }, (_, i) =>
      i % 2 ? { id: `a${i}`, role: 'assistant' as const, content: `Reply ${i}.`, createdAt: i, trace } : { id: `u${i}`, role: 'user' as const, content: `Line ${i}.`, createdAt: i },
    );
    const { panel } = await openWorkbench({ sessions: [session({ messages })] });
    const chat = byTestId(panel, 'chat');
    const articles = [...chat.querySelectorAll<HTMLElement>('.chat__slot > [data-testid="message"]')];
    expect(articles).toHaveLength(14);
    // Four actions on each message and seven breakdown buttons, one Tab each before; now the newest message and its own controls.
    const controls = (message: HTMLElement) => [...message.querySelectorAll('button')];
    expect(chat.querySelectorAll('button')).toHaveLength(14 * 4 + 7);
    expect(tabStops(chat)).toEqual([articles[13], ...controls(articles[13]!)]);
    // Every message can take focus from a script (a search opens one): each carries its tabindex.
    expect(articles.map((a) => a.getAttribute('tabindex'))).toEqual([...Array<string>(13).fill('-1'), '0']);

    articles[13]!.focus();
    await settle(() => void key(articles[13]!, { key: 'ArrowUp' }));
    expect(document.activeElement).toBe(articles[12]);
    expect(tabStops(chat)).toEqual([articles[12], ...controls(articles[12]!)]);
    await settle(() => void key(articles[12]!, { key: 'ArrowUp' }));
    expect(tabStops(chat)).toEqual([articles[11], ...controls(articles[11]!)]);
    await settle(() => void key(articles[11]!, { key: 'Home' }));
    expect(document.activeElement).toBe(articles[0]);
    await settle(() => void key(articles[0]!, { key: 'ArrowUp' }));
    expect(document.activeElement).toBe(articles[0]);
    await settle(() => void key(articles[0]!, { key: 'End' }));
    expect(document.activeElement).toBe(articles[13]);
    // A control reached another way (a click) makes its message the current one.
    const third = articles[3]!.querySelector('button')!;
    await settle(() => third.focus());
    expect(tabStops(chat)).toEqual([articles[3], ...controls(articles[3]!)]);

    const skip = [...panel.querySelectorAll<HTMLAnchorElement>('a.skip-link')].find((a) => a.textContent === 'Skip to the message box')!;
    await settle(() => skip.click());
    expect(document.activeElement).toBe(byLabel(panel, 'Message'));
  });

  it('a new exchange becomes the one Tab stop, and the one before gives up its place and its controls', async () => {
    const messages = [
      { id: 'u0', role: 'user' as const, content: 'Line 0.', createdAt: 0 },
      { id: 'a1', role: 'assistant' as const, content: 'Reply 1.', createdAt: 1 },
    ];
    const w = await openWorkbench({ sessions: [session({ messages })] });
    const { panel } = w;
    const chat = byTestId(panel, 'chat');
    const articles = () => [...chat.querySelectorAll<HTMLElement>('.chat__slot > [data-testid="message"]')];
    const controls = (message: HTMLElement) => [...message.querySelectorAll('button')];
    w.llm.enqueue({ text: ['Reply ', '3.'] });
    await send(panel, 'Line 2.');
    await until(w, 'the end of the reply', (e) => finishes(e).length === 1);
    await settle();
    const now = articles();
    expect(now).toHaveLength(4);
    expect(now.map((a) => a.getAttribute('tabindex'))).toEqual(['-1', '-1', '-1', '0']);
    expect(tabStops(chat)).toEqual([now[3], ...controls(now[3]!)]);
    // The reply that was the newest keeps its controls, out of the Tab order until it is chosen again.
    expect(controls(now[1]!).length).toBeGreaterThan(0);
    expect(controls(now[1]!).every((b) => b.getAttribute('tabindex') === '-1')).toBe(true);
    now[3]!.focus();
    await settle(() => void key(now[3]!, { key: 'ArrowUp' }));
    expect(tabStops(chat)).toEqual([now[2], ...controls(now[2]!)]);
  });
});

describe('sending', () => {
  it('opens the newest session and sends on Enter (Shift+Enter is a new line)', async () => {
    const w = await openWorkbench();
    const { panel, host } = w;
    // Held after its first words: the reply is still coming while the test looks (disposing the core ends it).
    w.llm.enqueue({ text: ['Hi ', 'there.'], holds: [{ after: 2, until: gate().promise }] });
    expect(byTestId(panel, 'open-session').dataset.sessionId).toBe('s1');
    expect(byTestId(panel, 'session-title').textContent).toBe('Tavern night');
    const box = byLabel<HTMLTextAreaElement>(panel, 'Message');
    await settle(() => typeInto(box, 'Hello'));
    const shift = key(box, { key: 'Enter', shiftKey: true });
    expect(shift.defaultPrevented).toBe(false);
    expect(host.callsTo('chat.send')).toHaveLength(0);
    await settle(() => void key(box, { key: 'Enter' }));
    expect(host.callsTo('chat.send').map((c) => c.input)).toEqual([{ sessionId: 's1', text: 'Hello', council: false, dryRun: false }]);
    expect(box.value).toBe('');
    // The user's words show at once, and the reply is on its way.
    const user = panel.querySelector<HTMLElement>('[data-role="user"]')!;
    expect(user.textContent).toContain('Hello');
    expect(liveMessage(panel).dataset.streaming).toBe('true');
    expect(buttonNamed(panel, 'Stop')).toBeTruthy();
    // The model was asked with the user's words, and its first words stream in.
    await until(w, 'the first words of the reply', (e) => streamed(e) === 'Hi ');
    expect(sentMessages(w, 0).at(-1)).toEqual({ role: 'user', content: 'Hello' });
    expect(replyText(liveMessage(panel))).toBe('Hi ');
    expect(liveMessage(panel).dataset.streaming).toBe('true');
    expect((await savedSession(host)).messages.map((m) => [m.role, m.content])).toEqual([['user', 'Hello']]);
  });

  it('Enter while a reply is still coming keeps the message and sends it once the reply ends', async () => {
    const w = await openWorkbench();
    const { panel, host } = w;
    const rest = gate();
    w.llm.enqueue({ text: ['Hi ', 'there.'], holds: [{ after: 2, until: rest.promise }] }, { text: 'The dragon woke.' });
    await send(panel, 'Hello');
    await until(w, 'the first words of the reply', (e) => streamed(e) === 'Hi ');
    expect(replyText(liveMessage(panel))).toBe('Hi ');
    await send(panel, 'And then?');
    expect(host.callsTo('chat.send')).toHaveLength(1);
    expect(byTestId(panel, 'composer-held').textContent).toContain('Sends when this reply ends');
    expect(byLabel<HTMLTextAreaElement>(panel, 'Message').value).toBe('And then?');
    await settle(() => rest.open());
    await until(w, 'the end of the first reply', (e) => finishes(e).length === 1);
    expect(host.callsTo('chat.send').map((c) => (c.input as { text: string }).text)).toEqual(['Hello', 'And then?']);
    expect(panel.querySelector('[data-testid="composer-held"]')).toBeNull();
    await until(w, 'the end of the second reply', (e) => finishes(e).length === 2);
    expect(finishes(w.events).map((f) => f.finishReason)).toEqual(['stop', 'stop']);
    expect((await savedSession(host)).messages.map((m) => m.content)).toEqual(['Hello', 'Hi there.', 'And then?', 'The dragon woke.']);
  });

  it('shows a send failure above the composer with its code and hint', async () => {
    // No main connection, and the session has none of its own: the core refuses the turn.
    const w = await openWorkbench({ arrange: ({ host }) => host.arrange('settings.update', { patch: { chat: { ...SETTINGS_CHAT, mainConnectionId: '' } } }) });
    const { panel, host } = w;
    await send(panel, 'Hello');
    const error = byTestId(panel, 'composer-error');
    expect(error.dataset.code).toBe('CHAT_NO_CONNECTION');
    expect(error.textContent).toContain('No main connection is chosen for the chat.');
    expect(error.textContent).toContain('Pick a connection in the Workbench settings.');
    expect(byLabel<HTMLTextAreaElement>(panel, 'Message').value).toBe('Hello');
    expect(w.llm.generations).toHaveLength(0);
    expect((await savedSession(host)).messages).toEqual([]);
  });

  it('chooses the session’s connection and model (kept with the session, and the default for new ones)', async () => {
    const w = await openWorkbench({
      arrange: async (core) => {
        await core.host.arrange('connections.save', { profile: openAiProfile(core) });
        await core.host.arrange('settings.update', { patch: { chat: { ...SETTINGS_CHAT, mainConnectionId: '' } } });
      },
    });
    const { panel, host } = w;
    const settings = byTestId(panel, 'chat-settings');
    expect(settings.textContent).toContain('Choose the connection that writes the replies.');
    await settle(() => typeInto(byLabel<HTMLSelectElement>(settings, 'Main connection'), 'openai'));
    expect(host.callsTo('settings.update').map((c) => c.input)).toEqual([{ patch: { chat: { mainConnectionId: 'openai', model: '', inlineMaxRounds: 3, dryRun: false } } }]);
    expect(byLabel(settings, 'Model').placeholder).toBe('Default: gpt-4o-mini');
    await settle(() => typeInto(byLabel(settings, 'Model'), 'gpt-4o'));
    await settle(() => void key(byLabel(settings, 'Model'), { key: 'Enter' }));
    expect(host.callsTo('settings.update')[1]!.input).toEqual({ patch: { chat: { mainConnectionId: 'openai', model: 'gpt-4o', inlineMaxRounds: 3, dryRun: false } } });
    expect(host.callsTo('chat.sessions.update').map((c) => c.input)).toEqual([
      { sessionId: 's1', patch: { connectionId: 'openai', model: '' } },
      { sessionId: 's1', patch: { connectionId: 'openai', model: 'gpt-4o' } },
    ]);
    // Kept by the core: with the session, and as the default for new sessions.
    expect(await savedSession(host)).toMatchObject({ connectionId: 'openai', model: 'gpt-4o' });
    expect((await host.arrange('settings.get', {})).chat).toEqual({ mainConnectionId: 'openai', model: 'gpt-4o', inlineMaxRounds: 3, dryRun: false });
  });

  it('shows the open session’s own connection, not the default', async () => {
    const w = await openWorkbench({
      sessions: [session({ connectionId: 'openai', model: 'gpt-4o' })],
      arrange: (core) => core.host.arrange('connections.save', { profile: openAiProfile(core) }),
    });
    const settings = byTestId(w.panel, 'chat-settings');
    expect((await w.host.arrange('settings.get', {})).chat?.mainConnectionId).toBe('local-lm');
    expect(byLabel<HTMLSelectElement>(settings, 'Main connection').value).toBe('openai');
    expect(byLabel(settings, 'Model').value).toBe('gpt-4o');
  });
});

describe('streaming', () => {
  // The core coalesces the tokens of one network read into one chat.delta; here it sends one per token (a slow model's
  // pace, and the port benchmarks use), so the renderer gets hundreds of events to fold into a frame.
  const onePerToken: Open = { host: { chatBatching: { maxChars: 1 } } };

  it('applies many deltas in one store update and one render per animation frame', async () => {
    const w = await openWorkbench(onePerToken);
    const { panel, store, frames, commits } = w;
    const tokens = Array.from({ length: 500 }, (_, i) => `tok${i} `);
    const more = gate();
    // Frame 0 is the role, then the 500 tokens; the 300 more wait for the test, and the end never comes (the reply is
    // still streaming when the test ends).
    w.llm.enqueue({ text: [...tokens, ...Array<string>(300).fill('x')], holds: [{ after: 501, until: more.promise }, { after: 801, until: gate().promise }] });
    await send(panel, 'Tell me a story');
    let updates = 0;
    const off = store.subscribe(() => void (updates += 1));
    const before = commits();
    await settle(() => coreSent(w, 'the first 500 tokens', (e) => deltas(e).length === 500));
    expect(deltas(w.events).map((d) => d.text)).toEqual(tokens);
    // Nothing reached the store or React yet: the events wait outside both for the frame.
    expect(updates).toBe(0);
    expect(commits() - before).toBe(0);
    expect(frames.pending()).toBe(1);
    await settle(() => frames.run());
    expect(updates).toBe(1);
    expect(commits() - before).toBe(1);
    expect(replyText(liveMessage(panel))).toBe(tokens.join(''));
    // The next frame's worth arrives as one more render.
    await settle(async () => {
      more.open();
      await coreSent(w, '300 more tokens', (e) => deltas(e).length === 800);
    });
    expect(updates).toBe(1);
    expect(frames.pending()).toBe(1);
    await settle(() => frames.run());
    expect(updates).toBe(2);
    expect(commits() - before).toBe(2);
    expect(replyText(liveMessage(panel))).toBe(tokens.join('') + 'x'.repeat(300));
    off();
  });

  it('each frame draws only the growing part: saved messages are not rendered again, finished lines keep their nodes', async () => {
    const saved = [
      { id: 'u1', role: 'user' as const, content: 'Where are we?', createdAt: 1 },
      { id: 'a1', role: 'assistant' as const, content: 'On the glade road.\n\nNight falls.', createdAt: 2 },
    ];
    const w = await openWorkbench({ ...onePerToken, sessions: [session({ messages: saved })] });
    const { panel } = w;
    const rest = gate();
    w.llm.enqueue({ text: ['The first line.\n\n', 'The second ', 'line grows', ' on.'], holds: [{ after: 3, until: rest.promise }, { after: 5, until: gate().promise }] });
    await send(panel, 'Go on');
    await until(w, 'two deltas', (e) => deltas(e).length === 2);
    const lines = () => [...liveMessage(panel).querySelectorAll<HTMLElement>('.msg__line')];
    expect(lines().map((l) => l.textContent)).toEqual(['The first line.\n\n', 'The second ']);
    const firstLine = lines()[0]!.firstChild;
    // From here on, what renders is counted by the text it splits into lines: only the live reply's growing block
    // (the finished one, a paragraph closed by a blank line, keeps its props and is not split again).
    const split = vi.spyOn(textPieces, 'textLines');
    await settle(async () => {
      rest.open();
      await coreSent(w, 'the rest', (e) => deltas(e).length === 4);
    });
    await settle(() => w.frames.run());
    expect(lines().map((l) => l.textContent)).toEqual(['The first line.\n\n', 'The second line grows on.']);
    expect(lines()[0]!.firstChild).toBe(firstLine);
    expect(split.mock.calls.map(([text]) => text)).toEqual(['The second line grows on.']);
    // The caret sits at the end of the last line, and the saved reply still reads as it was written.
    expect(lines()[1]!.querySelector('.msg__caret')).not.toBeNull();
    const savedReply = panel.querySelectorAll<HTMLElement>('[data-testid="message"][data-role="assistant"]')[0]!;
    expect(replyText(savedReply)).toBe('On the glade road.\n\nNight falls.');
  });

  it('ignores a delta it already applied (same seq) and keeps arrival order', async () => {
    const w = await openWorkbench(onePerToken);
    const { panel, host } = w;
    const c = gate();
    w.llm.enqueue({ text: ['A', 'B', 'C'], holds: [{ after: 3, until: c.promise }, { after: 4, until: gate().promise }] });
    await send(panel, 'Hi');
    await settle(() => coreSent(w, 'A and B', (e) => deltas(e).length === 2));
    // The real core never sends a delta twice; a renderer must still drop one (a transport replaying a frame after a
    // hiccup): the core's own B again, same seq, straight after it and before C.
    const b = deltas(w.events)[1]!;
    await settle(() => host.emit(b));
    await settle(async () => {
      c.open();
      await coreSent(w, 'C', (e) => deltas(e).length === 3);
    });
    await settle(() => w.frames.run());
    expect(deltas(w.events).map((d) => [d.seq, d.text])).toEqual([
      [0, 'A'],
      [1, 'B'],
      [2, 'C'],
    ]);
    expect(replyText(liveMessage(panel))).toBe('ABC');
  });

  it('X1: renders streamed model text as text, never as markup', async () => {
    const w = await openWorkbench();
    const { panel, container } = w;
    const hostile = [XSS.slice(0, 9), XSS.slice(9), ' <b>bold</b> & <script>window.__pwned=2</script>'];
    const end = gate();
    w.llm.enqueue({ text: hostile, holds: [{ after: 4, until: end.promise }] });
    await send(panel, 'Hi');
    await until(w, 'the whole hostile text', (e) => streamed(e) === hostile.join(''));
    const text = byTestId(liveMessage(panel), 'message-text');
    expect(liveMessage(panel).dataset.streaming).toBe('true');
    expect(text.textContent).toBe(`${XSS} <b>bold</b> & <script>window.__pwned=2</script>`);
    expect(container.querySelector('.msg img, .msg b, .msg script')).toBeNull();
    // Saved by the core and shown from the session: still text.
    await settle(() => end.open());
    await until(w, 'the end of the reply', (e) => finishes(e).length === 1);
    expect(liveMessage(panel).dataset.streaming).toBeUndefined();
    expect(byTestId(liveMessage(panel), 'message-text').textContent).toBe(`${XSS} <b>bold</b> & <script>window.__pwned=2</script>`);
    expect(container.querySelector('.msg img, .msg b, .msg script')).toBeNull();
    await settle(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(window.__pwned).toBeUndefined();
  });

  it('shows the saved reply once the host has stored it, with the model that wrote it', async () => {
    const w = await openWorkbench();
    const { panel, host } = w;
    w.llm.enqueue({ text: ['Hello ', 'there'] });
    await send(panel, 'Hi');
    await until(w, 'the end of the reply', (e) => finishes(e).length === 1);
    const saved = await savedSession(host);
    expect(saved.messages.map((m) => [m.role, m.content, m.model])).toEqual([
      ['user', 'Hi', undefined],
      ['assistant', 'Hello there', 'qwen2.5-7b-instruct'],
    ]);
    expect((w.llm.generations[0]!.body as { model: string }).model).toBe('qwen2.5-7b-instruct');
    const messages = [...panel.querySelectorAll<HTMLElement>('[data-testid="message"]')];
    expect(messages.map((m) => m.dataset.role)).toEqual(['user', 'assistant']);
    expect(messages[1]!.dataset.streaming).toBeUndefined();
    expect(replyText(messages[1]!)).toBe('Hello there');
    expect(messages[1]!.textContent).toContain('qwen2.5-7b-instruct');
    expect(buttonNamed(panel, 'Send')).toBeTruthy();
    expect(buttonNamed(panel, 'Regenerate')).toBeTruthy();
  });
});

const NOTATION = { type: 'object', properties: { notation: { type: 'string' } }, required: ['notation'] };
const QUERY = { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] };

describe('tool calls', () => {
  it('draws a card per call that follows started → name → arguments → ended → result, calls in order', async () => {
    const rolled = `Rolled 2d6: 4 + 3 = 7 ${XSS}`;
    let dice = '';
    let kb = '';
    // Inline mode: Marshal Vane's two tools are offered to the main model, and the core runs the calls it makes.
    const w = await openWorkbench({
      host: { bundledPacksDir: BUNDLED_PACKS },
      arrange: async ({ host }) => {
        dice = testTool(host, { source: 'dice-and-stats', name: 'roll_dice', displayName: 'Roll Dice', parameters: NOTATION, execute: () => rolled });
        kb = testTool(host, { source: 'knowledge-base', name: 'search_knowledge_base', displayName: 'Search Knowledge Base', parameters: QUERY, execute: () => 'Found 2 entries.' });
        await addMember(host, 'plot-enforcer', { tools: [dice, kb] });
        await host.arrange('council.update', { patch: { toolsSettings: { mode: 'inline' } } });
      },
    });
    const { panel, host, frames } = w;
    const [diceFn, kbFn] = await host.arrange('council.inlineTools', {});
    expect([diceFn!.qualifiedName, kbFn!.qualifiedName]).toEqual([dice, kb]);
    // One reply calls both: the dice with arguments in two fragments, the search with arguments that never become JSON.
    w.llm.enqueue(
      { text: 'Let me check. ', toolCalls: [{ id: 'c1', name: diceFn!.name, args: ['{"nota', 'tion":"2d6"}'] }, { id: 'c2', name: kbFn!.name, args: ['{"query":'] }] },
      { text: 'You rolled a 7.' },
    );
    // The core runs the whole turn at once; the link lets its events through one step at a time, as a socket's frames
    // may land in different animation frames, so each phase of a card can be seen.
    const link = host.pace();
    const call = (phase: string, callId: string) => (e: HostEvent) => e.type === 'chat.toolCall' && e.phase === phase && e.callId === callId;
    const step = async (match: (e: HostEvent) => boolean, what: string) => {
      await settle(async () => void (await link.next(match, what)));
      await settle(() => frames.run());
    };
    await send(panel, 'Roll for me');

    await step(call('started', 'c1'), 'c1 started');
    expect(replyText(liveMessage(panel))).toBe('Let me check. ');
    expect(cards(panel)).toHaveLength(1);
    expect(cards(panel)[0]!.dataset.phase).toBe('started');
    expect(byTestId(cards(panel)[0]!, 'tool-call-name').textContent).toBe('…');

    await step(call('name', 'c1'), 'c1 named');
    expect(cards(panel)[0]!.dataset.phase).toBe('named');
    expect(byTestId(cards(panel)[0]!, 'tool-call-name').textContent).toBe(diceFn!.name);
    expect(cards(panel)[0]!.textContent).toContain('for Marshal Vane');
    expect(cards(panel)[0]!.textContent).toContain(dice);

    await step(call('args', 'c1'), 'c1 first argument fragment');
    expect(cards(panel)[0]!.dataset.phase).toBe('arguments');
    expect(byTestId(cards(panel)[0]!, 'tool-call-args').textContent).toBe('{"nota');
    expect(byTestId(cards(panel)[0]!, 'tool-call-status').textContent).toBe('Writing arguments…');
    await step(call('args', 'c1'), 'c1 second argument fragment');
    expect(byTestId(cards(panel)[0]!, 'tool-call-args').textContent).toBe('{"notation":"2d6"}');

    await step(call('ended', 'c1'), 'c1 ended');
    expect(cards(panel)[0]!.dataset.phase).toBe('ended');
    expect(byTestId(cards(panel)[0]!, 'tool-call-status').textContent).toBe('Running…');

    // The second call: its arguments are not JSON, so it fails, with the error the model is sent.
    await step(call('failed', 'c2'), 'c2 failed');
    expect(cards(panel).map((c) => c.dataset.callId)).toEqual(['c1', 'c2']);
    expect(cards(panel)[1]!.dataset.phase).toBe('failed');
    expect(byTestId(cards(panel)[1]!, 'tool-call-name').textContent).toBe(kbFn!.name);
    expect(byTestId(cards(panel)[1]!, 'tool-call-args').textContent).toBe('{"query":');
    expect(cards(panel)[0]!.dataset.phase).toBe('ended');

    await step(call('result', 'c1'), 'c1 result');
    const result = toolCalls(w.events).find((e) => e.phase === 'result' && e.callId === 'c1') as { durationMs: number };
    expect(cards(panel)[0]!.dataset.result).toBe('ok');
    expect(byTestId(cards(panel)[0]!, 'tool-call-status').textContent).toBe('Done');
    expect(byTestId(cards(panel)[0]!, 'tool-call-result').textContent).toBe(rolled);
    expect(cards(panel)[0]!.textContent).toContain(formatMs(result.durationMs));
    expect(panel.querySelector('.tool-card img')).toBeNull();

    await step(call('result', 'c2'), 'c2 result');
    await settle(() => link.release());
    await until(w, 'the end of the turn', (e) => finishes(e).length === 1);
    expect(finishes(w.events)[0]!.finishReason).toBe('stop');
    expect(cards(panel).map((c) => c.dataset.callId)).toEqual(['c1', 'c2']);
    const second = cards(panel)[1]!;
    expect(second.dataset.phase).toBe('failed');
    expect(second.dataset.result).toBe('error');
    // Its result says what went wrong, with the code (the error shown while no result had come is not repeated).
    expect(second.querySelector('.tool-card__code')?.textContent).toBe(' INVALID_ARGUMENTS_JSON');
    expect(byTestId(second, 'tool-call-result').textContent).toContain('are not valid JSON.');
    expect(second.querySelectorAll('[data-testid="inline-error"]')).toHaveLength(0);
    expect(replyText(liveMessage(panel))).toBe('Let me check. You rolled a 7.');
    // The cards sit where the calls happened in the text.
    const order = [...liveMessage(panel).querySelectorAll('[data-testid="message-text"], [data-testid="tool-call"]')].map((el) =>
      el.getAttribute('data-testid') === 'tool-call' ? (el as HTMLElement).dataset.callId : el.textContent,
    );
    expect(order).toEqual(['Let me check. ', 'c1', 'c2', 'You rolled a 7.']);
    // The model was sent both answers, and the core saved both calls with the reply.
    expect(sentMessages(w, 1).filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content])).toEqual([
      ['c1', rolled],
      ['c2', expect.stringContaining('INVALID_ARGUMENTS_JSON')],
    ]);
    expect((await savedSession(host)).messages[1]!.toolCalls!.map((c) => [c.id, c.ok, c.errorCode])).toEqual([
      ['c1', true, undefined],
      ['c2', false, 'INVALID_ARGUMENTS_JSON'],
    ]);

    // After a reload the reply reads exactly as it did live: one rendering from one record (status, code, wording,
    // duration, the member it was for, and where each card sits beside the text).
    const live = readReply(liveMessage(panel));
    cleanup();
    const again = await renderShell(host, <App />);
    await settle(() => navButton(again.container, 'Workbench').click());
    await settle();
    expect(readReply(liveMessage(byTestId(again.container, 'panel-workbench')))).toEqual(live);
    expect(live.filter((part) => typeof part !== 'string').map((card) => (card as { status: string }).status)).toEqual(['Done', 'Error']);
  });

  it('shows the calls saved with a reply when the session is reopened', async () => {
    const { panel } = await openWorkbench({
      sessions: [
        session({
          messages: [
            { id: 'u1', role: 'user', content: 'Roll', createdAt: 1 },
            {
              id: 'a1',
              role: 'assistant',
              content: 'A 7.',
              createdAt: 2,
              toolCalls: [{ id: 'c1', name: 'dice__roll', qualifiedName: 'dice-and-stats:roll_dice', argsText: '{"notation":"2d6"}', ok: true, result: 'Rolled 7', round: 1 }],
            },
          ],
        }),
      ],
    });
    const card = cards(panel)[0]!;
    expect(card.dataset.result).toBe('ok');
    expect(byTestId(card, 'tool-call-args').textContent).toBe('{"notation":"2d6"}');
    expect(byTestId(card, 'tool-call-result').textContent).toBe('Rolled 7');
  });
});

describe('prompt breakdown', () => {
  it('a saved reply opens its breakdown: every stage with who ran it, notes, and what an interceptor changed as a diff', async () => {
    const { panel } = await openWorkbench({
      sessions: [
        session({
          messages: [
            { id: 'u1', role: 'user', content: 'Hi', createdAt: 1 },
            {
              id: 'a1',
              role: 'assistant',
              content: 'Hello.',
              createdAt: 2,
              trace: [
                { stage: 'council', by: 'host', ms: 3, note: 'did not run' },
                { stage: 'assembly', by: 'host', ms: 1, note: 'macros: char' },
                { stage: 'interceptors', by: 'Pipeline Probe', ms: 4, before: '[system]\nYou are Mira.', after: '[system]\n[pipeline] a line\n\n[system]\nYou are Mira.' },
                { stage: 'interceptors', by: 'Hanging Ext', ms: 1000, note: 'skipped: TOOL_TIMEOUT — no answer' },
                { stage: 'generation', by: 'host', ms: 20 },
              ],
            },
          ],
        }),
      ],
    });
    const breakdown = byTestId(panel, 'prompt-breakdown');
    expect(breakdown.querySelectorAll('[data-testid="breakdown-stage"]')).toHaveLength(0);
    await settle(() => buttonNamed(breakdown, 'Prompt breakdown (5 stages, 1028 ms)').click());
    const stages = [...breakdown.querySelectorAll<HTMLElement>('[data-testid="breakdown-stage"]')];
    expect(stages.map((s) => s.dataset.stage)).toEqual(['council', 'assembly', 'interceptors', 'interceptors', 'generation']);
    expect(stages[3]!.textContent).toContain('skipped: TOOL_TIMEOUT');
    const diff = byTestId(stages[2]!, 'approval-diff');
    expect([...diff.querySelectorAll('.diff__line--add')].map((l) => l.textContent!.trim())).toContain('added: +[pipeline] a line');
  });
});

describe('macros view', () => {
  it("lists the session's macros with owner and value; a handler's value says it is computed per turn", async () => {
    // Pipeline Probe (a Lumiverse-style extension in a real worker) registers a macro with a handler and one with a pushed value.
    const { panel, host } = await openWorkbench({
      arrange: async ({ host }) => {
        await host.arrange('extensions.install', { folder: path.join(FIXTURE_EXTENSIONS, 'lumiverse_pipeline'), grant: ['tools', 'interceptor', 'context_handler', 'chats', 'chat_mutation'], trust: true });
        // It registers its macros before its tools; its last tool registered means the macros are in.
        await coreReaches(host, () => host.core.registry.get('lumiverse_pipeline:append_line') !== undefined, 'Pipeline Probe registered');
      },
    });
    await settle(() => buttonNamed(panel, 'Macros').click());
    expect(host.callsTo('chat.macros').map((c) => c.input)).toEqual([{ sessionId: 's1' }]);
    const core = await host.arrange('chat.macros', { sessionId: 's1' });
    const rows = [...byTestId(panel, 'macros-view').querySelectorAll<HTMLElement>('[data-testid="macro-row"]')];
    expect(rows.map((r) => r.dataset.name)).toEqual(core.map((m) => m.name));
    const row = (name: string) => rows.find((r) => r.dataset.name === name)!;
    expect(row('char').textContent).toContain('built-in');
    expect(row('char').textContent).toContain('Seraphina');
    expect(row('pipeline_weather').textContent).toContain('Pipeline Probe');
    expect(row('pipeline_weather').textContent).toContain('computed at each turn');
    expect(row('pipeline_tide').textContent).toContain('high tide');
    expect(row('lastMessage').textContent).toContain('empty');
  });
});

describe('stop, regenerate, errors', () => {
  it('stops a streaming reply: chat.stop, Stopping…, then the kept text marked stopped', async () => {
    const w = await openWorkbench();
    const { panel, host } = w;
    // The model goes quiet after three words (until the request is closed).
    w.llm.enqueue({ text: ['Once ', 'upon ', 'a ', 'time'], stallAfter: 4 });
    await send(panel, 'Go on');
    await until(w, 'three words', (e) => streamed(e) === 'Once upon a ');
    await settle(() => buttonNamed(panel, 'Stop').click());
    expect(host.callsTo('chat.stop').map((c) => c.input)).toEqual([{ sessionId: 's1' }]);
    expect(buttonNamed(panel, 'Stopping…').getAttribute('aria-disabled')).toBe('true');
    expect(liveMessage(panel).textContent).toContain('Stopping…');
    await until(w, 'the end of the reply', (e) => finishes(e).length === 1);
    expect(finishes(w.events)[0]).toMatchObject({ finishReason: 'stopped', reason: 'Stopped by the user.' });
    expect(replyText(liveMessage(panel))).toBe('Once upon a ');
    expect(byTestId(liveMessage(panel), 'message-note').textContent).toContain('Stopped by the user.');
    expect(liveMessage(panel).dataset.streaming).toBeUndefined();
    expect(buttonNamed(panel, 'Send')).toBeTruthy();
    expect((await savedSession(host)).messages[1]).toMatchObject({ role: 'assistant', content: 'Once upon a ', stopped: true, finishReason: 'stopped' });
  });

  it('regenerates the last reply: the new one streams in its place and the old one stays as a swipe', async () => {
    const w = await openWorkbench({ sessions: [session({ messages: [{ id: 'u1', role: 'user', content: 'Hi', createdAt: 1 }, { id: 'old', role: 'assistant', content: 'Old reply', createdAt: 2 }] })] });
    const { panel, host } = w;
    const end = gate();
    w.llm.enqueue({ text: 'New reply', holds: [{ after: 2, until: end.promise }] });
    expect(panel.textContent).toContain('Old reply');
    await settle(() => buttonNamed(panel, 'Regenerate').click());
    expect(host.callsTo('chat.regenerate').map((c) => c.input)).toEqual([{ sessionId: 's1', council: false }]);
    // The reply being replaced steps aside while the new one streams.
    await until(w, 'the new reply', (e) => streamed(e) === 'New reply');
    expect(panel.textContent).not.toContain('Old reply');
    expect(replyText(liveMessage(panel))).toBe('New reply');
    expect(liveMessage(panel).dataset.streaming).toBe('true');
    // The model answered the same question again; the new reply is the one shown.
    expect(sentMessages(w, 0).slice(1)).toEqual([{ role: 'user', content: 'Hi' }]);
    await settle(() => end.open());
    await until(w, 'the end of the reply', (e) => finishes(e).length === 1);
    expect((await savedSession(host)).messages.map((m) => m.content)).toEqual(['Hi', 'New reply']);
    expect([...panel.querySelectorAll<HTMLElement>('[data-testid="message"]')].map((m) => m.dataset.role)).toEqual(['user', 'assistant']);
    expect(panel.textContent).not.toContain('Old reply');
    expect(replyText(liveMessage(panel))).toBe('New reply');
    // The old reply is kept as the first swipe.
    expect(byTestId(liveMessage(panel), 'swipe-count').textContent).toBe('2/2');
  });

  it.each([
    [401, 'LLM_AUTH_FAILED', 'Check the API key for this connection.', 1],
    [429, 'LLM_RATE_LIMITED', 'Wait a little and try again.', 3],
    [500, 'LLM_SERVER_ERROR', 'Try again later.', 3],
  ])('shows an HTTP %i provider error (%s) where the reply would be, with code, message and hint', async (status, code, hint, tries) => {
    // The core's LLM client as the app builds it, but its waits between retries (1 s, 2 s) are skipped.
    const redactor = new Redactor();
    const secrets = new MemorySecretStore(redactor);
    const llm = new LlmClient({ secrets, redactor, env: {}, sleep: async () => {} });
    const w = await openWorkbench({ host: { secrets, llm } });
    const { panel } = w;
    for (let i = 0; i < tries; i++) w.llm.enqueue({ kind: 'error', status });
    await send(panel, 'Hi');
    await until(w, 'the end of the reply', (e) => finishes(e).length === 1);
    // 429 and 500 are tried three times in all; 401 once.
    expect(w.llm.generations).toHaveLength(tries);
    const error = w.events.find((e): e is Extract<HostEvent, { type: 'chat.error' }> => e.type === 'chat.error')!.error;
    expect(error).toMatchObject({ code, hint });
    expect(error.message).toContain(`HTTP ${status}`);
    expect(finishes(w.events)[0]).toMatchObject({ finishReason: 'error', error: { code } });
    const shown = byTestId(liveMessage(panel), 'chat-error');
    expect(shown.getAttribute('role')).toBe('alert');
    expect(shown.dataset.code).toBe(code);
    expect(shown.textContent).toContain(error.message);
    expect(shown.textContent).toContain(hint);
    expect(buttonNamed(panel, 'Send')).toBeTruthy();
  });
});

describe('council and dry run', () => {
  const HOSTILE = `Keep the stakes high. ${XSS}`;
  const KB = 'knowledge-base:search_knowledge_base';

  /** Marshal Vane (always takes part) with Search Knowledge Base, which answers HOSTILE once `open` resolves; Council Mode on. */
  function council(open: Promise<void> = Promise.resolve()): Open {
    return {
      host: { bundledPacksDir: BUNDLED_PACKS },
      arrange: async ({ host }) => {
        testTool(host, {
          source: 'knowledge-base',
          name: 'search_knowledge_base',
          displayName: 'Search Knowledge Base',
          execute: async () => {
            await open;
            return HOSTILE;
          },
        });
        await addMember(host, 'plot-enforcer', { chance: 100, tools: [KB] });
        await host.arrange('council.update', { patch: { councilMode: true } });
      },
    };
  }

  const councilEvent = (w: Workbench, phase: string) => w.events.find((e) => e.type === 'chat.council' && e.phase === phase) as Extract<HostEvent, { type: 'chat.council' }> & { runId: string };

  it('follows the council for the turn and shows its deliberation as monospace text, with a trace to download', async () => {
    const blobs = captureBlobUrls();
    const answer = gate();
    const w = await openWorkbench(council(answer.promise));
    const { panel, host, store } = w;
    w.llm.enqueue({ text: 'Onward.' });
    expect(byLabel<HTMLInputElement>(panel, 'Council').checked).toBe(true);
    await send(panel, 'What now?');
    expect((host.callsTo('chat.send')[0]!.input as { council: boolean }).council).toBe(true);
    await until(w, 'the council started', (e) => e.some((x) => x.type === 'chat.council' && x.phase === 'started'));
    expect(byTestId(panel, 'council-turn').dataset.phase).toBe('started');
    expect(byTestId(panel, 'council-turn').textContent).toContain('The council is deliberating…');
    await settle(() => answer.open());
    await until(w, 'the end of the reply', (e) => finishes(e).length === 1);
    const { runId } = councilEvent(w, 'completed');
    const run = await host.arrange('runs.get', { runId });
    expect(run.deliberationBlock).toContain('<img src=x onerror=window.__pwned=1>');
    // The reply was written with the deliberation in its prompt.
    expect(sentMessages(w, 0)[0]!.content).toContain(run.deliberationBlock.trim());
    const councilTurn = byTestId(panel, 'council-turn');
    expect(councilTurn.textContent).toContain(`Council deliberated · ${run.deliberationBlock.length.toLocaleString('en')} characters`);
    expect(byTestId(councilTurn, 'council-run-id').textContent).toBe(runId);
    await settle(() => buttonNamed(councilTurn, 'Show deliberation').click());
    expect(host.callsTo('runs.get').map((c) => c.input)).toEqual([{ runId }]);
    const deliberation = byTestId(panel, 'deliberation');
    const pre = deliberation.querySelector('pre')!;
    expect(pre.textContent).toBe(run.deliberationBlock);
    expect(deliberation.querySelector('img')).toBeNull();
    expect(deliberation.textContent).toContain('1 of 1 tools answered');
    expect(deliberation.textContent).toContain('Marshal Vane');
    expect(deliberation.textContent).toContain('Search Knowledge Base');
    await settle(() => buttonNamed(councilTurn, 'Hide deliberation').click());
    expect(panel.querySelector('[data-testid="deliberation"]')).toBeNull();
    await settle(() => buttonNamed(councilTurn, 'Download trace').click());
    expect(host.callsTo('runs.exportTrace').map((c) => c.input)).toEqual([{ runId }]);
    expect(blobs).toHaveLength(1);
    expect(await blobs[0]!.text()).toBe((await host.arrange('runs.exportTrace', { runId })).content);
    // Watch it where the council lives: the Council section's runs, with this run open.
    await settle(() => buttonNamed(councilTurn, 'Open in Council').click());
    expect(store.getState().section).toBe('council');
    expect(store.getState().council.tab).toBe('runs');
  });

  it('a deliberation opened while the reply streams stays open when the reply is saved', async () => {
    const w = await openWorkbench(council());
    const { panel, host } = w;
    const end = gate();
    w.llm.enqueue({ text: 'Onward.', holds: [{ after: 2, until: end.promise }] });
    await send(panel, 'What now?');
    await until(w, 'the reply streaming', (e) => streamed(e) === 'Onward.');
    const live = liveMessage(panel);
    expect(live.dataset.streaming).toBe('true');
    const { runId } = councilEvent(w, 'completed');
    const run = await host.arrange('runs.get', { runId });
    await settle(() => buttonNamed(byTestId(panel, 'council-turn'), 'Show deliberation').click());
    expect(byTestId(panel, 'deliberation').querySelector('pre')!.textContent).toBe(run.deliberationBlock);
    // The core stores the reply: the renderer reloads the session and shows the saved message.
    await settle(() => end.open());
    await until(w, 'the end of the reply', (e) => finishes(e).length === 1);
    expect((await savedSession(host)).messages[1]).toMatchObject({ content: 'Onward.', councilRunId: runId });
    expect(liveMessage(panel)).toBe(live);
    expect(liveMessage(panel).dataset.streaming).toBeUndefined();
    expect(byTestId(panel, 'deliberation').querySelector('pre')!.textContent).toBe(run.deliberationBlock);
    expect(buttonNamed(byTestId(panel, 'council-turn'), 'Hide deliberation')).toBeTruthy();
    expect(host.callsTo('runs.get')).toHaveLength(1);
  });

  it('says when the council failed and the reply went on without it', async () => {
    // The council's run store cannot be read (a file stands where its folder goes): the council run fails in the core.
    let dbPath = '';
    const w = await openWorkbench({
      ...council(),
      // A damaged database: the runs' table is gone.
      prepare: (dataDir) => {
        dbPath = path.join(dataDir, 'chats.db');
        const damage = openChatDb(dataDir);
        damage.exec('DROP TABLE runs');
        damage.close();
      },
    });
    const { panel, host } = w;
    w.llm.enqueue({ text: 'Onward anyway.' });
    await send(panel, 'Hi');
    await until(w, 'the end of the reply', (e) => finishes(e).length === 1);
    const councilTurn = byTestId(panel, 'council-turn');
    expect(councilTurn.dataset.phase).toBe('failed');
    // The cause, by its code, and what to check: not only in the host's log.
    expect(councilTurn.textContent).toContain('The council failed; the reply goes on without its deliberation.');
    const failure = councilTurn.querySelector('[data-code="RUNS_UNREADABLE"]')?.textContent;
    expect(failure).toContain(`The council runs in ${dbPath} cannot be read (no such table: runs).`);
    expect(failure).toContain('The chats database may be damaged');
    expect(replyText(liveMessage(panel))).toBe('Onward anyway.');
    expect((await savedSession(host)).messages.map((m) => m.content)).toEqual(['Hi', 'Onward anyway.']);
  });

  it('dry run: builds the prompt and shows it instead of calling the model', async () => {
    const w = await openWorkbench();
    const { panel, host } = w;
    await settle(() => byLabel(panel, 'Dry run (prompt only)').click());
    expect(host.callsTo('chat.sessions.update')[0]!.input).toEqual({ sessionId: 's1', patch: { dryRun: true } });
    expect(host.callsTo('settings.update')).toEqual([]);
    await send(panel, 'Hi');
    expect((host.callsTo('chat.send')[0]!.input as { dryRun?: boolean }).dryRun).toBe(true);
    await until(w, 'the dry run', (e) => finishes(e).length === 1);
    const { prompt } = finishes(w.events)[0]!;
    const dry = byTestId(panel, 'dry-run');
    expect(dry.textContent).toContain('You are Seraphina.');
    expect(dry.textContent).toContain('nothing was sent');
    expect([...dry.querySelectorAll('.dry-run__content')].map((el) => el.textContent)).toEqual(prompt!.map((m) => m.content));
    expect(prompt!.at(-1)).toEqual({ role: 'user', content: 'Hi' });
    // Nothing went to the model, and nothing was added to the session.
    expect(w.llm.generations).toHaveLength(0);
    expect((await savedSession(host)).messages).toEqual([]);
  });

  it('a switch acts at once: Dry run clicked and Enter pressed before the host answers still builds the prompt only', async () => {
    const w = await openWorkbench();
    const { panel, host } = w;
    const slow = host.hold('chat.sessions.update');
    await settle(() => byLabel(panel, 'Dry run (prompt only)').click());
    expect(byLabel<HTMLInputElement>(panel, 'Dry run (prompt only)').checked).toBe(true);
    await send(panel, 'Hi');
    expect((host.callsTo('chat.send')[0]!.input as { dryRun?: boolean }).dryRun).toBe(true);
    await until(w, 'the dry run', (e) => finishes(e).length === 1);
    await settle(() => slow.release());
    expect(w.llm.generations).toHaveLength(0);
    expect(byLabel<HTMLInputElement>(panel, 'Dry run (prompt only)').checked).toBe(true);
  });

  it('Council and Dry run belong to the session: kept across sessions and reloads, shown above its chat', async () => {
    const w = await openWorkbench({ sessions: [session(), session({ id: 's2', title: 'Harbor morning' })] });
    const { panel, host } = w;
    const switches = () => byTestId(panel, 'session-switches');
    const checked = (label: string) => byLabel<HTMLInputElement>(switches(), label).checked;
    const open = (title: string) => settle(() => buttonNamed(panel, new RegExp(`^${title}`)).click());
    await open('Tavern night');
    expect([checked('Council'), checked('Dry run (prompt only)')]).toEqual([false, false]);
    await settle(() => byLabel(switches(), 'Dry run (prompt only)').click());
    await settle(() => byLabel(switches(), 'Council').click());
    expect([checked('Council'), checked('Dry run (prompt only)')]).toEqual([true, true]);
    await open('Harbor morning');
    expect([checked('Council'), checked('Dry run (prompt only)')]).toEqual([false, false]);
    await open('Tavern night');
    expect([checked('Council'), checked('Dry run (prompt only)')]).toEqual([true, true]);
    expect(await savedSession(host, 's1')).toMatchObject({ council: true, dryRun: true });
    expect(await savedSession(host, 's2')).not.toHaveProperty('dryRun');
    // A reload: a new window on the same core opens the session with its switches as they were.
    cleanup();
    const again = await renderShell(host, <App />);
    await settle(() => navButton(again.container, 'Workbench').click());
    await settle();
    const panel2 = byTestId(again.container, 'panel-workbench');
    await settle(() => buttonNamed(panel2, /^Tavern night/).click());
    expect(byLabel<HTMLInputElement>(byTestId(panel2, 'session-switches'), 'Dry run (prompt only)').checked).toBe(true);
    expect(byLabel<HTMLInputElement>(byTestId(panel2, 'session-switches'), 'Council').checked).toBe(true);
  });

  it('simulates write tools for a message when asked, and otherwise leaves it to the Safety setting', async () => {
    const w = await openWorkbench({
      arrange: ({ host }) => host.arrange('settings.update', { patch: { safety: { approveAllWrites: true, dryRun: true, alwaysAllow: [], workbench: {} } } }),
    });
    const { panel, host } = w;
    w.llm.enqueue({ text: 'One.' }, { text: 'Two.' });
    const simulate = byLabel<HTMLInputElement>(panel, 'Simulate write tools');
    expect(simulate.checked).toBe(true);
    await send(panel, 'First');
    expect(host.callsTo('chat.send')[0]!.input).toEqual({ sessionId: 's1', text: 'First', council: false, dryRun: false });
    await until(w, 'the first reply', (e) => finishes(e).length === 1);
    await settle(() => simulate.click());
    expect(simulate.checked).toBe(false);
    await send(panel, 'Second');
    expect(host.callsTo('chat.send')[1]!.input).toEqual({ sessionId: 's1', text: 'Second', council: false, toolDryRun: false, dryRun: false });
    await until(w, 'the second reply', (e) => finishes(e).length === 2);
    expect((await savedSession(host)).messages.map((m) => m.content)).toEqual(['First', 'One.', 'Second', 'Two.']);
  });

  it('a call to a tool nobody offered is one quiet line, not an error card; the chat setting shows it in full', async () => {
    const unoffered = { id: 'c9', name: 'lookup_anything', qualifiedName: null, argsText: '{"q":"x"}', ok: false, result: 'No tools were offered in this turn, so the call was not run.', errorCode: 'TOOL_NOT_RUN', round: 1, textOffset: 12, unoffered: true };
    const { panel } = await openWorkbench({ sessions: [session({ messages: [{ id: 'u1', role: 'user', content: 'Hi', createdAt: 1 }, { id: 'a1', role: 'assistant', content: 'Let me look.', createdAt: 2, toolCalls: [unoffered] }] })] });
    const reply = panel.querySelector<HTMLElement>('[data-role="assistant"]')!;
    expect(reply.querySelector('[data-testid="tool-call"]')).toBeNull();
    expect(byTestId(reply, 'tool-call-quiet').textContent).toBe('The model asked for lookup_anything; no tool was offered, so nothing ran.');
    await settle(() => byLabel<HTMLInputElement>(panel, 'Show in full the calls to tools nobody offered').click());
    await settle();
    expect(panel.querySelector('[data-role="assistant"] [data-testid="tool-call"]')?.getAttribute('data-result')).toBe('error');
  });
});
