// @vitest-environment happy-dom
// The Workbench chat against a fake host: sending, streamed text batched into one render per animation frame, tool-call cards
// in seed-004 order, Stop, Regenerate, provider errors, the council's deliberation, dry run, and model output kept as text.
import { Profiler } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostEvent } from '../../shared/events';
import type { ChatToolCallPhase } from '../../shared/types/chat';
import type { CouncilRun } from '../../shared/types/council';
import { App } from '../../renderer/src/app/App';
import { byLabel, byTestId, buttonNamed, cleanup, FakeHost, key, navButton, renderShell, settle, typeInto } from './harness';
import { controlFrames, installLlmFakes, profile, session, type LlmFakes } from './connections-fakes';

import { XSS } from '../fixtures/xss-corpus';

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  delete window.__pwned;
});

async function openWorkbench(arrange: (fakes: LlmFakes, host: FakeHost) => void = () => undefined) {
  const frames = controlFrames();
  const host = new FakeHost();
  const fakes = installLlmFakes(host);
  fakes.profiles.push(profile());
  host.settings = { ...host.settings, chat: { mainConnectionId: 'local-lm', model: '', inlineMaxRounds: 3, dryRun: false } };
  fakes.sessions.set('s1', session());
  arrange(fakes, host);
  let commits = 0;
  const rendered = await renderShell(
    host,
    <Profiler id="app" onRender={() => void (commits += 1)}>
      <App />
    </Profiler>,
  );
  await settle(() => navButton(rendered.container, 'Workbench').click());
  await settle();
  const panel = byTestId(rendered.container, 'panel-workbench');
  return { ...rendered, fakes, frames, panel, commits: () => commits };
}

type Turn = { sessionId: string; turnId: string };
const T1: Turn = { sessionId: 's1', turnId: 't1' };

function delta(seq: number, text: string, turn: Turn = T1, messageId = 'a1'): HostEvent {
  return { type: 'chat.delta', ...turn, messageId, seq, text };
}

function toolCall(phase: ChatToolCallPhase, round = 1, turn: Turn = T1): HostEvent {
  return { type: 'chat.toolCall', ...turn, round, ...phase } as HostEvent;
}

function finished(finishReason: 'stop' | 'stopped' | 'error', extra: object = {}, turn: Turn = T1): HostEvent {
  return { type: 'chat.finished', ...turn, messageId: 'a1', finishReason, usage: null, ...extra };
}

async function send(panel: HTMLElement, text: string) {
  const box = byLabel<HTMLTextAreaElement>(panel, 'Message');
  await settle(() => typeInto(box, text));
  await settle(() => void key(box, { key: 'Enter' }));
}

/** Emits events and runs the frame the wiring scheduled for them. */
async function stream(host: FakeHost, frames: { run(): void }, ...events: HostEvent[]) {
  await settle(() => {
    for (const e of events) host.emit(e);
    frames.run();
  });
}

function liveMessage(panel: HTMLElement): HTMLElement {
  const all = [...panel.querySelectorAll<HTMLElement>('[data-testid="message"][data-role="assistant"]')];
  const last = all[all.length - 1];
  if (!last) throw new Error('no assistant message');
  return last;
}

/** The reply's text, all segments (tool-call cards sit between them where the calls happened). */
function replyText(message: HTMLElement): string {
  return [...message.querySelectorAll('[data-testid="message-text"]')].map((el) => el.textContent).join('');
}

function cards(panel: HTMLElement): HTMLElement[] {
  return [...panel.querySelectorAll<HTMLElement>('[data-testid="tool-call"]')];
}

describe('sending', () => {
  it('opens the newest session and sends on Enter (Shift+Enter is a new line)', async () => {
    const { panel, host } = await openWorkbench();
    expect(byTestId(panel, 'open-session').dataset.sessionId).toBe('s1');
    expect(byTestId(panel, 'session-title').textContent).toBe('Tavern night');
    const box = byLabel<HTMLTextAreaElement>(panel, 'Message');
    await settle(() => typeInto(box, 'Hello'));
    const shift = key(box, { key: 'Enter', shiftKey: true });
    expect(shift.defaultPrevented).toBe(false);
    expect(host.callsTo('chat.send')).toHaveLength(0);
    await settle(() => void key(box, { key: 'Enter' }));
    expect(host.callsTo('chat.send').map((c) => c.input)).toEqual([{ sessionId: 's1', text: 'Hello', council: false }]);
    expect(box.value).toBe('');
    // The user's words show at once, and the reply is on its way.
    const user = panel.querySelector<HTMLElement>('[data-role="user"]')!;
    expect(user.textContent).toContain('Hello');
    expect(liveMessage(panel).dataset.streaming).toBe('true');
    expect(buttonNamed(panel, 'Stop')).toBeTruthy();
  });

  it('Enter while a reply is still coming keeps the message and sends it once the reply ends', async () => {
    const { panel, host, frames } = await openWorkbench();
    await send(panel, 'Hello');
    await stream(host, frames, delta(0, 'Hi '));
    await send(panel, 'And then?');
    expect(host.callsTo('chat.send')).toHaveLength(1);
    expect(byTestId(panel, 'composer-held').textContent).toContain('Sends when this reply ends');
    expect(byLabel<HTMLTextAreaElement>(panel, 'Message').value).toBe('And then?');
    await stream(host, frames, finished('stop'));
    await settle();
    expect(host.callsTo('chat.send').map((c) => (c.input as { text: string }).text)).toEqual(['Hello', 'And then?']);
    expect(panel.querySelector('[data-testid="composer-held"]')).toBeNull();
  });

  it('shows a send failure above the composer with its code and hint', async () => {
    const { panel } = await openWorkbench((f) => {
      f.sendError = { code: 'CHAT_NO_CONNECTION', message: 'No main connection is chosen for the chat.', hint: 'Pick a connection in the Workbench settings.', path: '/mainConnectionId' };
    });
    await send(panel, 'Hello');
    const error = byTestId(panel, 'composer-error');
    expect(error.dataset.code).toBe('CHAT_NO_CONNECTION');
    expect(error.textContent).toContain('Pick a connection in the Workbench settings.');
    expect(byLabel<HTMLTextAreaElement>(panel, 'Message').value).toBe('Hello');
  });

  it('chooses the session’s connection and model (kept with the session, and the default for new ones)', async () => {
    const { panel, host } = await openWorkbench((f, h) => {
      f.profiles.push(profile({ id: 'openai', name: 'OpenAI', provider: 'openai', defaultModel: 'gpt-4o-mini' }));
      h.settings = { ...h.settings, chat: { mainConnectionId: '', model: '', inlineMaxRounds: 3, dryRun: false } };
    });
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
  });

  it('shows the open session’s own connection, not the default', async () => {
    const { panel } = await openWorkbench((f, h) => {
      f.profiles.push(profile({ id: 'openai', name: 'OpenAI', provider: 'openai', defaultModel: 'gpt-4o-mini' }));
      f.sessions.set('s1', session({ connectionId: 'openai', model: 'gpt-4o' }));
      h.settings = { ...h.settings, chat: { mainConnectionId: 'local-lm', model: '', inlineMaxRounds: 3, dryRun: false } };
    });
    const settings = byTestId(panel, 'chat-settings');
    expect(byLabel<HTMLSelectElement>(settings, 'Main connection').value).toBe('openai');
    expect(byLabel(settings, 'Model').value).toBe('gpt-4o');
  });
});

describe('streaming', () => {
  it('applies many deltas in one store update and one render per animation frame', async () => {
    const { panel, host, store, frames, commits } = await openWorkbench();
    await send(panel, 'Tell me a story');
    frames.run();
    let updates = 0;
    const off = store.subscribe(() => void (updates += 1));
    const before = commits();
    const tokens = Array.from({ length: 500 }, (_, i) => `tok${i} `);
    await settle(() => tokens.forEach((t, i) => host.emit(delta(i, t))));
    // Nothing reached the store or React yet: the events wait outside both for the frame.
    expect(updates).toBe(0);
    expect(commits() - before).toBe(0);
    expect(frames.pending()).toBe(1);
    await settle(() => frames.run());
    expect(updates).toBe(1);
    expect(commits() - before).toBe(1);
    expect(replyText(liveMessage(panel))).toBe(tokens.join(''));
    // The next frame's worth arrives as one more render.
    await settle(() => {
      for (let i = 500; i < 800; i++) host.emit(delta(i, 'x'));
    });
    await settle(() => frames.run());
    expect(updates).toBe(2);
    expect(commits() - before).toBe(2);
    expect(replyText(liveMessage(panel))).toBe(tokens.join('') + 'x'.repeat(300));
    off();
  });

  it('ignores a delta it already applied (same seq) and keeps arrival order', async () => {
    const { panel, host, frames } = await openWorkbench();
    await send(panel, 'Hi');
    await stream(host, frames, delta(0, 'A'), delta(1, 'B'), delta(1, 'B'), delta(2, 'C'));
    expect(replyText(liveMessage(panel))).toBe('ABC');
  });

  it('X1: renders streamed model text as text, never as markup', async () => {
    const { panel, host, frames, container } = await openWorkbench();
    await send(panel, 'Hi');
    await stream(host, frames, delta(0, XSS.slice(0, 9)), delta(1, XSS.slice(9)), delta(2, ' <b>bold</b> & <script>window.__pwned=2</script>'));
    const text = byTestId(liveMessage(panel), 'message-text');
    expect(text.textContent).toBe(`${XSS} <b>bold</b> & <script>window.__pwned=2</script>`);
    expect(container.querySelector('.msg img, .msg b, .msg script')).toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    expect(window.__pwned).toBeUndefined();
  });

  it('shows the saved reply once the host has stored it, with the model that wrote it', async () => {
    const { panel, host, frames, fakes } = await openWorkbench();
    await send(panel, 'Hi');
    await stream(host, frames, delta(0, 'Hello there'));
    fakes.sessions.get('s1')!.messages.push({ id: 'a1', role: 'assistant', content: 'Hello there', createdAt: 5, finishReason: 'stop', model: 'qwen2.5-7b-instruct' });
    await stream(host, frames, { type: 'chat.sessions.changed', sessionId: 's1', change: 'updated' }, finished('stop'));
    await settle();
    const messages = [...panel.querySelectorAll<HTMLElement>('[data-testid="message"]')];
    expect(messages.map((m) => m.dataset.role)).toEqual(['user', 'assistant']);
    expect(messages[1]!.dataset.streaming).toBeUndefined();
    expect(messages[1]!.textContent).toContain('qwen2.5-7b-instruct');
    expect(buttonNamed(panel, 'Send')).toBeTruthy();
    expect(buttonNamed(panel, 'Regenerate')).toBeTruthy();
  });
});

describe('tool calls', () => {
  it('draws a card per call that follows started → name → arguments → ended → result, calls in order', async () => {
    const { panel, host, frames } = await openWorkbench();
    await send(panel, 'Roll for me');
    await stream(host, frames, delta(0, 'Let me check. '), toolCall({ phase: 'started', callId: 'c1', index: 0 }));
    expect(cards(panel)).toHaveLength(1);
    expect(cards(panel)[0]!.dataset.phase).toBe('started');
    expect(byTestId(cards(panel)[0]!, 'tool-call-name').textContent).toBe('…');

    await stream(host, frames, toolCall({ phase: 'name', callId: 'c1', name: 'dice__roll', qualifiedName: 'dice-and-stats:roll_dice', memberName: 'Lumia' }));
    expect(cards(panel)[0]!.dataset.phase).toBe('named');
    expect(byTestId(cards(panel)[0]!, 'tool-call-name').textContent).toBe('dice__roll');
    expect(cards(panel)[0]!.textContent).toContain('for Lumia');

    await stream(host, frames, toolCall({ phase: 'args', callId: 'c1', delta: '{"nota' }));
    expect(cards(panel)[0]!.dataset.phase).toBe('arguments');
    expect(byTestId(cards(panel)[0]!, 'tool-call-args').textContent).toBe('{"nota');
    expect(byTestId(cards(panel)[0]!, 'tool-call-status').textContent).toBe('Writing arguments…');
    await stream(host, frames, toolCall({ phase: 'args', callId: 'c1', delta: 'tion":"2d6"}' }));
    expect(byTestId(cards(panel)[0]!, 'tool-call-args').textContent).toBe('{"notation":"2d6"}');

    await stream(host, frames, toolCall({ phase: 'ended', callId: 'c1', argsText: '{"notation":"2d6"}' }));
    expect(cards(panel)[0]!.dataset.phase).toBe('ended');
    expect(byTestId(cards(panel)[0]!, 'tool-call-status').textContent).toBe('Running…');

    await stream(host, frames, toolCall({ phase: 'result', callId: 'c1', ok: true, content: `Rolled 2d6: 4 + 3 = 7 ${XSS}`, durationMs: 12.3 }));
    expect(cards(panel)[0]!.dataset.result).toBe('ok');
    expect(byTestId(cards(panel)[0]!, 'tool-call-status').textContent).toBe('Done');
    expect(byTestId(cards(panel)[0]!, 'tool-call-result').textContent).toBe(`Rolled 2d6: 4 + 3 = 7 ${XSS}`);
    expect(cards(panel)[0]!.textContent).toContain('12 ms');
    expect(panel.querySelector('.tool-card img')).toBeNull();

    // A second call whose arguments are not JSON: failed, with the error the model was sent.
    await stream(
      host,
      frames,
      toolCall({ phase: 'started', callId: 'c2', index: 1 }),
      toolCall({ phase: 'name', callId: 'c2', name: 'kb__search', qualifiedName: null, memberName: null }),
      toolCall({ phase: 'args', callId: 'c2', delta: '{"query":' }),
      toolCall({ phase: 'failed', callId: 'c2', argsText: '{"query":', error: { code: 'INVALID_ARGUMENTS_JSON', message: 'The arguments are not valid JSON.' } }),
      toolCall({ phase: 'result', callId: 'c2', ok: false, content: '{"error":{"code":"INVALID_ARGUMENTS_JSON"}}', errorCode: 'INVALID_ARGUMENTS_JSON', durationMs: 0 }),
      delta(1, 'You rolled a 7.', T1),
    );
    expect(cards(panel).map((c) => c.dataset.callId)).toEqual(['c1', 'c2']);
    const second = cards(panel)[1]!;
    expect(second.dataset.phase).toBe('failed');
    expect(second.dataset.result).toBe('error');
    expect(second.querySelector('[data-code="INVALID_ARGUMENTS_JSON"]')?.textContent).toContain('The arguments are not valid JSON.');
    expect(replyText(liveMessage(panel))).toBe('Let me check. You rolled a 7.');
    // The cards sit where the calls happened in the text.
    const order = [...liveMessage(panel).querySelectorAll('[data-testid="message-text"], [data-testid="tool-call"]')].map((el) =>
      el.getAttribute('data-testid') === 'tool-call' ? (el as HTMLElement).dataset.callId : el.textContent,
    );
    expect(order).toEqual(['Let me check. ', 'c1', 'c2', 'You rolled a 7.']);
  });

  it('shows the calls saved with a reply when the session is reopened', async () => {
    const { panel } = await openWorkbench((f) => {
      f.sessions.set(
        's1',
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
      );
    });
    const card = cards(panel)[0]!;
    expect(card.dataset.result).toBe('ok');
    expect(byTestId(card, 'tool-call-args').textContent).toBe('{"notation":"2d6"}');
    expect(byTestId(card, 'tool-call-result').textContent).toBe('Rolled 7');
  });
});

describe('prompt breakdown', () => {
  it('a saved reply opens its breakdown: every stage with who ran it, notes, and what an interceptor changed as a diff', async () => {
    const { panel } = await openWorkbench((f) => {
      f.sessions.set(
        's1',
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
      );
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
    const { panel, host } = await openWorkbench((_f, h) => {
      h.handlers['chat.macros'] = () => ({
        ok: true,
        value: [
          { name: 'char', owner: 'built-in', description: "The character's name.", value: 'Mira' },
          { name: 'pipeline_weather', owner: 'Pipeline Probe', description: 'Weather', value: null },
          { name: 'persona', owner: 'built-in', description: '', value: '' },
        ],
      });
    });
    await settle(() => buttonNamed(panel, 'Macros').click());
    expect(host.callsTo('chat.macros').map((c) => c.input)).toEqual([{ sessionId: 's1' }]);
    const rows = [...byTestId(panel, 'macros-view').querySelectorAll<HTMLElement>('[data-testid="macro-row"]')];
    expect(rows.map((r) => r.dataset.name)).toEqual(['char', 'pipeline_weather', 'persona']);
    expect(rows[0]!.textContent).toContain('Mira');
    expect(rows[1]!.textContent).toContain('Pipeline Probe');
    expect(rows[1]!.textContent).toContain('computed at each turn');
    expect(rows[2]!.textContent).toContain('empty');
  });
});

describe('stop, regenerate, errors', () => {
  it('stops a streaming reply: chat.stop, Stopping…, then the kept text marked stopped', async () => {
    const { panel, host, frames } = await openWorkbench();
    await send(panel, 'Go on');
    await stream(host, frames, delta(0, 'Once upon a '));
    await settle(() => buttonNamed(panel, 'Stop').click());
    expect(host.callsTo('chat.stop').map((c) => c.input)).toEqual([{ sessionId: 's1' }]);
    expect(buttonNamed(panel, 'Stopping…').getAttribute('aria-disabled')).toBe('true');
    expect(liveMessage(panel).textContent).toContain('Stopping…');
    await stream(host, frames, finished('stopped', { reason: 'Stopped by the user.' }));
    expect(replyText(liveMessage(panel))).toBe('Once upon a ');
    expect(byTestId(liveMessage(panel), 'message-note').textContent).toContain('Stopped by the user.');
    expect(liveMessage(panel).dataset.streaming).toBeUndefined();
    expect(buttonNamed(panel, 'Send')).toBeTruthy();
  });

  it('regenerates the last reply', async () => {
    const { panel, host, frames } = await openWorkbench((f) => {
      f.sessions.set('s1', session({ messages: [{ id: 'u1', role: 'user', content: 'Hi', createdAt: 1 }, { id: 'old', role: 'assistant', content: 'Old reply', createdAt: 2 }] }));
    });
    expect(panel.textContent).toContain('Old reply');
    await settle(() => buttonNamed(panel, 'Regenerate').click());
    expect(host.callsTo('chat.regenerate').map((c) => c.input)).toEqual([{ sessionId: 's1', council: false }]);
    // The reply being replaced steps aside while the new one streams.
    await stream(host, frames, delta(0, 'New reply', { sessionId: 's1', turnId: 't1' }, 'a1'));
    expect(panel.textContent).not.toContain('Old reply');
    expect(replyText(liveMessage(panel))).toBe('New reply');
  });

  it.each([
    ['LLM_AUTH_FAILED', 'The provider refused the API key (401).', 'Check the connection’s key in Connections.'],
    ['LLM_RATE_LIMITED', 'Too many requests (429); gave up after 3 tries.', 'Wait a minute, or use another model.'],
    ['LLM_SERVER_ERROR', 'The provider failed (500).', 'Try again; the provider may be having trouble.'],
  ])('shows a %s provider error where the reply would be, with code, message and hint', async (code, message, hint) => {
    const { panel, host, frames } = await openWorkbench();
    await send(panel, 'Hi');
    const error = { code, message, hint };
    await stream(host, frames, { type: 'chat.error', ...T1, error }, finished('error', { error }));
    const shown = byTestId(liveMessage(panel), 'chat-error');
    expect(shown.getAttribute('role')).toBe('alert');
    expect(shown.dataset.code).toBe(code);
    expect(shown.textContent).toContain(message);
    expect(shown.textContent).toContain(hint);
    expect(buttonNamed(panel, 'Send')).toBeTruthy();
  });
});

describe('council and dry run', () => {
  const run: CouncilRun = {
    id: 'run-42',
    startedAt: 1,
    totalDurationMs: 850,
    status: 'completed',
    mode: 'sidecar',
    seed: 7,
    rolls: [],
    fallbackUsed: false,
    results: [{ memberId: 'm1', memberName: 'Lumia', toolName: 'builtin:plot', toolDisplayName: 'Plot Enforcer', success: true, content: 'x', durationMs: 800, startedAt: 0, status: 'ok' }],
    deliberationBlock: `## Council deliberation\n**Lumia** (Plot Enforcer): keep the stakes high. ${XSS}`,
    historyBlock: '',
    note: null,
    chatId: 's1',
    retryOf: null,
    timeoutMs: 30000,
    counts: { ok: 1, failed: 0, total: 1 },
  };

  it('follows the council for the turn and shows its deliberation as monospace text, with a trace to download', async () => {
    const created: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => (created.push(blob as Blob), 'blob:x'));
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const { panel, host, frames, store } = await openWorkbench((f, h) => {
      f.runs.set('run-42', run);
      h.settings = { ...h.settings, council: { ...h.settings.council, councilMode: true } };
    });
    expect(byLabel<HTMLInputElement>(panel, 'Council').checked).toBe(true);
    await send(panel, 'What now?');
    expect((host.callsTo('chat.send')[0]!.input as { council: boolean }).council).toBe(true);
    await stream(host, frames, { type: 'chat.council', ...T1, phase: 'started', runId: null });
    expect(byTestId(panel, 'council-turn').dataset.phase).toBe('started');
    expect(byTestId(panel, 'council-turn').textContent).toContain('The council is deliberating…');
    await stream(host, frames, { type: 'chat.council', ...T1, phase: 'completed', runId: 'run-42', reused: false, deliberationChars: 1234 }, delta(0, 'Onward.'));
    const council = byTestId(panel, 'council-turn');
    expect(council.textContent).toContain('Council deliberated · 1,234 characters');
    expect(byTestId(council, 'council-run-id').textContent).toBe('run-42');
    await settle(() => buttonNamed(council, 'Show deliberation').click());
    expect(host.callsTo('runs.get').map((c) => c.input)).toEqual([{ runId: 'run-42' }]);
    const deliberation = byTestId(panel, 'deliberation');
    const pre = deliberation.querySelector('pre')!;
    expect(pre.textContent).toBe(run.deliberationBlock);
    expect(deliberation.querySelector('img')).toBeNull();
    expect(deliberation.textContent).toContain('1 of 1 tools answered');
    expect(deliberation.textContent).toContain('Plot Enforcer');
    await settle(() => buttonNamed(council, 'Hide deliberation').click());
    expect(panel.querySelector('[data-testid="deliberation"]')).toBeNull();
    await settle(() => buttonNamed(council, 'Download trace').click());
    expect(host.callsTo('runs.exportTrace').map((c) => c.input)).toEqual([{ runId: 'run-42' }]);
    expect(created).toHaveLength(1);
    expect(await created[0]!.text()).toBe('{"type":"started"}\n');
    // Watch it where the council lives: the Council section's runs, with this run open.
    await settle(() => buttonNamed(council, 'Open in Council').click());
    expect(store.getState().section).toBe('council');
    expect(store.getState().council.tab).toBe('runs');
  });

  it('a deliberation opened while the reply streams stays open when the reply is saved', async () => {
    const { panel, host, frames, fakes } = await openWorkbench((f, h) => {
      f.runs.set('run-42', run);
      h.settings = { ...h.settings, council: { ...h.settings.council, councilMode: true } };
    });
    await send(panel, 'What now?');
    await stream(host, frames, { type: 'chat.council', ...T1, phase: 'completed', runId: 'run-42', reused: false, deliberationChars: 1234 }, delta(0, 'Onward.'));
    const live = liveMessage(panel);
    await settle(() => buttonNamed(byTestId(panel, 'council-turn'), 'Show deliberation').click());
    expect(byTestId(panel, 'deliberation').querySelector('pre')!.textContent).toBe(run.deliberationBlock);
    // The host stores the reply: the renderer reloads the session and shows the saved message.
    fakes.sessions.get('s1')!.messages.push({ id: 'a1', role: 'assistant', content: 'Onward.', createdAt: 5, finishReason: 'stop', councilRunId: 'run-42' });
    await stream(host, frames, { type: 'chat.sessions.changed', sessionId: 's1', change: 'updated' }, finished('stop'));
    await settle();
    expect(liveMessage(panel)).toBe(live);
    expect(liveMessage(panel).dataset.streaming).toBeUndefined();
    expect(byTestId(panel, 'deliberation').querySelector('pre')!.textContent).toBe(run.deliberationBlock);
    expect(buttonNamed(byTestId(panel, 'council-turn'), 'Hide deliberation')).toBeTruthy();
    expect(host.callsTo('runs.get')).toHaveLength(1);
  });

  it('says when the council failed and the reply went on without it', async () => {
    const { panel, host, frames } = await openWorkbench();
    await send(panel, 'Hi');
    await stream(host, frames, { type: 'chat.council', ...T1, phase: 'failed', error: { code: 'SIDECAR_NOT_CONFIGURED', message: 'No sidecar connection is chosen.', hint: 'Choose one in Sidecar.' } });
    const council = byTestId(panel, 'council-turn');
    expect(council.dataset.phase).toBe('failed');
    expect(council.querySelector('[data-code="SIDECAR_NOT_CONFIGURED"]')?.textContent).toContain('Choose one in Sidecar.');
  });

  it('dry run: builds the prompt and shows it instead of calling the model', async () => {
    const { panel, host } = await openWorkbench();
    await settle(() => byLabel(panel, 'Dry run (prompt only)').click());
    expect(host.callsTo('settings.update')[0]!.input).toEqual({ patch: { chat: { mainConnectionId: 'local-lm', model: '', inlineMaxRounds: 3, dryRun: true } } });
    await send(panel, 'Hi');
    expect((host.callsTo('chat.send')[0]!.input as { dryRun?: boolean }).dryRun).toBe(true);
    const dry = byTestId(panel, 'dry-run');
    expect(dry.textContent).toContain('You are Seraphina.');
    expect(dry.textContent).toContain('nothing was sent');
  });

  it('simulates write tools for a message when asked, and otherwise leaves it to the Safety setting', async () => {
    const { panel, host, frames } = await openWorkbench((_f, h) => {
      h.settings = { ...h.settings, safety: { approveAllWrites: true, dryRun: true, alwaysAllow: [], workbench: {} } };
    });
    const simulate = byLabel<HTMLInputElement>(panel, 'Simulate write tools');
    expect(simulate.checked).toBe(true);
    await send(panel, 'First');
    expect(host.callsTo('chat.send')[0]!.input).toEqual({ sessionId: 's1', text: 'First', council: false });
    await stream(host, frames, finished('stop'));
    await settle(() => simulate.click());
    expect(simulate.checked).toBe(false);
    await send(panel, 'Second');
    expect(host.callsTo('chat.send')[1]!.input).toEqual({ sessionId: 's1', text: 'Second', council: false, toolDryRun: false });
  });
});
