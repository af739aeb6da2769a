// @vitest-environment real-core
// A long chat in the Workbench, on a real core: it opens with its newest page, older pages come a page at a time
// (from the keyboard too), a search result far back opens the page around it with the way back to the newest, a
// change keeps the part shown, and a message sent from back in time goes to the end with the window.
import { afterEach, describe, expect, it } from 'vitest';
import { SESSION_PAGE, type ChatMessage } from '../../shared/types/chat';
import { byLabel, byTestId, buttonNamed, cleanup, settle, typeInto } from './harness';
import { disposeAllHosts } from './real-host';
import { closeLlmServers, finishes, session } from './real-chat';
import { openWorkbench, send, until } from './workbench-harness';
import { SHOWN_AT_MOST } from '../../renderer/src/stores/chat/chat-commands';
import type { AppStore } from '../../renderer/src/stores/app/app-store';

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
  await closeLlmServers();
});

const TOTAL = 200;
const long = (total = TOTAL) =>
  session({
    id: 's1',
    title: 'Long road',
    messages: Array.from({ length: total }, (_, i) => ({ id: `m${i}`, role: i % 2 ? 'assistant' : 'user', content: i === 7 ? 'The old bridge at Kell.' : `Turn ${i}.`, createdAt: i }) as ChatMessage),
  });

/** The messages the window holds (the virtualized list's rows). */
const heldIds = (w: { store: AppStore }) => w.store.getState().chat.open!.messages.map((m) => m.id);
/** The messages drawn in the document: the list draws those near the view. */
const drawnIds = (panel: HTMLElement) => [...panel.querySelectorAll<HTMLElement>('[data-testid="message"]')].map((m) => m.dataset.messageId);

describe('a long chat in the window', () => {
  it('opens with the newest page and loads older pages on request, each above the ones shown', async () => {
    const w = await openWorkbench({ sessions: [long()] });
    const { panel, host } = w;
    expect(heldIds(w)).toEqual(Array.from({ length: SESSION_PAGE }, (_, i) => `m${TOTAL - SESSION_PAGE + i}`));
    expect(drawnIds(panel)).toEqual(heldIds(w));
    expect(host.callsTo('chat.sessions.window').map((c) => c.input)).toEqual([{ sessionId: 's1' }]);
    const earlier = (byTestId(panel, 'earlier-messages') as HTMLButtonElement);
    expect(earlier.textContent).toBe(`Show earlier messages (${TOTAL - SESSION_PAGE} more)`);
    await settle(() => earlier.click());
    expect(heldIds(w)).toEqual(Array.from({ length: 2 * SESSION_PAGE }, (_, i) => `m${TOTAL - 2 * SESSION_PAGE + i}`));
    // The page came in above the view: what was on screen is still drawn, in order, and the view did not jump to
    // the new rows (the list keeps the first message shown where it was).
    const drawn = drawnIds(panel);
    expect(drawn).toEqual(heldIds(w).slice(heldIds(w).indexOf(drawn[0]!)));
    expect(drawn.slice(-SESSION_PAGE)).toEqual(Array.from({ length: SESSION_PAGE }, (_, i) => `m${TOTAL - SESSION_PAGE + i}`));
    expect(drawn.length).toBeLessThan(2 * SESSION_PAGE);
    expect(byTestId(panel, 'earlier-messages').textContent).toBe(`Show earlier messages (${TOTAL - 2 * SESSION_PAGE} more)`);
    expect(panel.querySelector('[data-testid="later-messages"]')).toBeNull();
    // Who speaks, beside each message: no picture here, so the persona's and the character's first letters.
    const avatars = [...panel.querySelectorAll<HTMLElement>('[data-testid="message"]')].slice(-2).map((m) => [m.dataset.role, byTestId(m, 'message-avatar').textContent]);
    expect(avatars).toEqual([
      ['user', 'A'],
      ['assistant', 'S'],
    ]);
    // The delete confirmation counts the whole chat, not the part shown.
    await settle(() => buttonNamed(panel, 'Delete Long road…').click());
    expect(byTestId(panel, 'confirm-delete').textContent).toContain(`its ${TOTAL} messages`);
  });

  it('holds at most five pages: scrolling far back lets the newest go, and they come back below', async () => {
    const w = await openWorkbench({ sessions: [long(500)] });
    const { panel } = w;
    for (let i = 0; i < 5; i++) await settle(() => (byTestId(panel, 'earlier-messages') as HTMLButtonElement).click());
    const ids = heldIds(w);
    expect([ids.length, ids[0], ids.at(-1)]).toEqual([SHOWN_AT_MOST, 'm140', 'm439']);
    expect(byTestId(panel, 'later-messages').textContent).toBe('Show newer messages (60 more)');
    await settle(() => (byTestId(panel, 'later-messages') as HTMLButtonElement).click());
    const back = heldIds(w);
    expect([back.length, back[0], back.at(-1)]).toEqual([SHOWN_AT_MOST, 'm200', 'm499']);
    expect(panel.querySelector('[data-testid="later-messages"]')).toBeNull();
    // At the newest, the messages a turn adds let the oldest shown go.
    w.llm.enqueue({ text: 'Onward.' });
    await send(panel, 'And then?');
    await until(w, 'the end of the reply', (e) => finishes(e).length === 1);
    await settle();
    const grown = heldIds(w);
    expect([grown.length, grown[0], grown[SHOWN_AT_MOST - 3]]).toEqual([SHOWN_AT_MOST, 'm202', 'm499']);
  });

  it('opens a search result far back at its message, keeps that part through a change, and a message sent goes to the end', async () => {
    const w = await openWorkbench({ sessions: [long()] });
    const { panel, host } = w;
    await settle(() => typeInto(byLabel(panel, 'Search chats'), 'bridge at kell'));
    await settle(() => buttonNamed(panel, 'Search').click());
    await settle(() => (byTestId(panel, 'search-hit') as HTMLButtonElement).click());
    await settle();
    expect(host.callsTo('chat.sessions.window').at(-1)!.input).toEqual({ sessionId: 's1', around: 'm7' });
    expect(heldIds(w)).toEqual(Array.from({ length: SESSION_PAGE }, (_, i) => `m${i}`));
    expect((document.activeElement as HTMLElement).dataset.messageId).toBe('m7');
    expect(panel.querySelector('[data-testid="earlier-messages"]')).toBeNull();
    expect(byTestId(panel, 'later-messages').textContent).toBe(`Show newer messages (${TOTAL - SESSION_PAGE} more)`);

    // A change elsewhere (an extension renames the chat): read again, the same part stays shown.
    await host.arrange('chat.sessions.rename', { sessionId: 's1', title: 'Renamed' });
    await settle();
    expect(host.callsTo('chat.sessions.window').at(-1)!.input).toEqual({ sessionId: 's1', start: 0, end: SESSION_PAGE });
    expect(heldIds(w)).toHaveLength(SESSION_PAGE);

    await settle(() => (byTestId(panel, 'later-messages') as HTMLButtonElement).click());
    expect(heldIds(w)).toHaveLength(2 * SESSION_PAGE);

    w.llm.enqueue({ text: 'Onward.' });
    await send(panel, 'Back to the present.');
    await until(w, 'the end of the reply', (e) => finishes(e).length === 1);
    await settle();
    // The newest page, and after it the message sent and its reply (a window at the newest grows with the chat).
    const ids = heldIds(w);
    expect(ids.slice(0, -2)).toEqual(Array.from({ length: SESSION_PAGE }, (_, i) => `m${TOTAL - SESSION_PAGE + i}`));
    expect(panel.querySelector('[data-testid="later-messages"]')).toBeNull();
    const [sent, reply] = [...panel.querySelectorAll<HTMLElement>('[data-testid="message"]')].slice(-2);
    expect([sent!.dataset.role, sent!.textContent, reply!.dataset.role, reply!.textContent]).toEqual(['user', expect.stringContaining('Back to the present.'), 'assistant', expect.stringContaining('Onward.')]);
  });
});
