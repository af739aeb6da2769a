// @vitest-environment real-core
// Message actions in the Workbench on a real core and the LLM test server: swipes (‹ n/m ›, ←/→, → past the last
// writes a new one), edit (Ctrl+Enter saves, Escape cancels), delete (asked twice), copy, branch, continue; all wait
// while a reply streams, and a refusal shows on the message.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../shared/types/chat';
import { byLabel, byTestId, buttonNamed, cleanup, key, settle, typeInto } from './harness';
import { disposeAllHosts } from './real-host';
import { gate } from './real-council';
import { closeLlmServers, finishes, session, streamed } from './real-chat';
import { liveMessage, openWorkbench, replyText, savedSession, send, sentMessages, until } from './workbench-harness';

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
  await closeLlmServers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const user = (id: string, content: string, createdAt = 1): ChatMessage => ({ id, role: 'user', content, createdAt });
const reply = (id: string, content: string, createdAt = 2): ChatMessage => ({ id, role: 'assistant', content, createdAt });
const withSwipes = (id: string, texts: string[], shown: number): ChatMessage => ({
  ...reply(id, texts[shown]!),
  swipes: texts.map((content, i) => ({ content, createdAt: 2 + i })),
  swipeId: shown,
});

const articles = (panel: HTMLElement) => [...panel.querySelectorAll<HTMLElement>('[data-testid="chat"] .chat__slot > [data-testid="message"]')];
const texts = (panel: HTMLElement) => articles(panel).map((a) => (a.dataset.role === 'assistant' ? replyText(a) : a.querySelector('.msg__text')?.textContent));

describe('swipes', () => {
  it('‹ › and ←/→ show the swipes; → past the last one of the last reply writes a new one in its place', async () => {
    const w = await openWorkbench({ sessions: [session({ messages: [user('u1', 'Hi'), withSwipes('a1', ['First', 'Second'], 1)] })] });
    const { panel, host } = w;
    const message = liveMessage(panel);
    expect(byTestId(message, 'swipe-count').textContent).toBe('2/2');
    expect(buttonNamed(message, 'Next swipe').getAttribute('aria-disabled')).toBe('true');
    await settle(() => buttonNamed(message, 'Previous swipe').click());
    expect(host.callsTo('chat.messages.swipe').map((c) => c.input)).toEqual([{ sessionId: 's1', messageId: 'a1', direction: 'left' }]);
    expect(replyText(liveMessage(panel))).toBe('First');
    expect(byTestId(liveMessage(panel), 'swipe-count').textContent).toBe('1/2');

    liveMessage(panel).focus();
    await settle(() => void key(liveMessage(panel), { key: 'ArrowRight' }));
    expect(replyText(liveMessage(panel))).toBe('Second');
    expect((await savedSession(host)).messages[1]).toMatchObject({ content: 'Second', swipeId: 1 });

    const end = gate();
    w.llm.enqueue({ text: 'Third', holds: [{ after: 2, until: end.promise }] });
    await settle(() => void key(liveMessage(panel), { key: 'ArrowRight' }));
    expect(host.callsTo('chat.regenerate').map((c) => c.input)).toEqual([{ sessionId: 's1', swipe: true }]);
    await until(w, 'the new swipe', (e) => streamed(e) === 'Third');
    // Drawn in the reply's place while it streams: two messages, not three.
    expect(texts(panel)).toEqual(['Hi', 'Third']);
    expect(sentMessages(w, 0).slice(1)).toEqual([{ role: 'user', content: 'Hi' }]);
    await settle(() => end.open());
    await until(w, 'the end of the reply', (e) => finishes(e).length === 1);
    await settle();
    expect(texts(panel)).toEqual(['Hi', 'Third']);
    expect(byTestId(liveMessage(panel), 'swipe-count').textContent).toBe('3/3');
    expect((await savedSession(host)).messages[1]!.swipes!.map((s) => s.content)).toEqual(['First', 'Second', 'Third']);
  });
});

describe('edit, delete, copy, branch', () => {
  it('edits a message in place: Escape leaves it, Ctrl+Enter saves it', async () => {
    const { panel, host } = await openWorkbench({ sessions: [session({ messages: [user('u1', 'Helo'), reply('a1', 'Hello!')] })] });
    const first = articles(panel)[0]!;
    await settle(() => buttonNamed(first, 'Edit').click());
    const box = byLabel<HTMLTextAreaElement>(first, 'Message text');
    expect(box.value).toBe('Helo');
    expect(document.activeElement).toBe(box);
    await settle(() => typeInto(box, 'Nope'));
    await settle(() => void key(box, { key: 'Escape' }));
    expect(host.callsTo('chat.messages.edit')).toEqual([]);
    expect(texts(panel)).toEqual(['Helo', 'Hello!']);

    await settle(() => buttonNamed(articles(panel)[0]!, 'Edit').click());
    const again = byLabel<HTMLTextAreaElement>(articles(panel)[0]!, 'Message text');
    await settle(() => typeInto(again, 'Hello'));
    await settle(() => void key(again, { key: 'Enter', ctrlKey: true }));
    expect(host.callsTo('chat.messages.edit').map((c) => c.input)).toEqual([{ sessionId: 's1', messageId: 'u1', content: 'Hello' }]);
    expect(texts(panel)).toEqual(['Hello', 'Hello!']);
    expect((await savedSession(host)).messages[0]!.content).toBe('Hello');
  });

  it('deletes only after the second click; Keep it leaves the message', async () => {
    const { panel, host } = await openWorkbench({ sessions: [session({ messages: [user('u1', 'One'), reply('a1', 'Two'), user('u2', 'Three')] })] });
    await settle(() => buttonNamed(articles(panel)[1]!, 'Delete').click());
    await settle(() => buttonNamed(articles(panel)[1]!, 'Keep it').click());
    expect(host.callsTo('chat.messages.delete')).toEqual([]);
    await settle(() => buttonNamed(articles(panel)[1]!, 'Delete').click());
    expect(document.activeElement).toBe(buttonNamed(articles(panel)[1]!, 'Delete message'));
    await settle(() => buttonNamed(articles(panel)[1]!, 'Delete message').click());
    expect(texts(panel)).toEqual(['One', 'Three']);
    expect((await savedSession(host)).messages.map((m) => m.id)).toEqual(['u1', 'u2']);
    // The message that held the Tab stop (focus was in it) is gone: the newest holds it again.
    expect(articles(panel).map((a) => a.getAttribute('tabindex'))).toEqual(['-1', '0']);
  });

  it('Escape from an edit gives focus back to the Edit button that opened it', async () => {
    const { panel } = await openWorkbench({ sessions: [session({ messages: [user('u1', 'Helo'), reply('a1', 'Hello!')] })] });
    const opener = buttonNamed(articles(panel)[0]!, 'Edit');
    await settle(() => opener.click());
    await settle(() => void key(byLabel<HTMLTextAreaElement>(articles(panel)[0]!, 'Message text'), { key: 'Escape' }));
    expect(document.activeElement).toBe(buttonNamed(articles(panel)[0]!, 'Edit'));
  });

  it('an edit of a reply with a tool call keeps its card where it was in the text, not at its old character count', async () => {
    const text = '*Seraphina smiles softly.* She rolls.';
    const call = { id: 'c1', name: 'roll', qualifiedName: null, argsText: '{}', ok: true, result: '7', round: 1, textOffset: '*Seraphina smiles softly.*'.length };
    const { panel } = await openWorkbench({ sessions: [session({ messages: [user('u1', 'Roll'), { ...reply('a1', text), toolCalls: [call] }] })] });
    await settle(() => buttonNamed(articles(panel)[1]!, 'Edit').click());
    const box = byLabel<HTMLTextAreaElement>(articles(panel)[1]!, 'Message text');
    await settle(() => typeInto(box, '*Seraphina smiles.* She rolls.'));
    await settle(() => void key(box, { key: 'Enter', ctrlKey: true }));
    // The text before the card, as drawn: the whole sentence, not a word cut where the old offset fell.
    const beforeCard = [...articles(panel)[1]!.querySelectorAll('.msg__text, ol.tool-cards')].map((el) => (el.tagName === 'OL' ? '[card]' : el.textContent));
    expect(beforeCard.join('')).toBe('*Seraphina smiles.*[card] She rolls.');
  });

  it('deleting the newest reply, just streamed, takes its bubble away at once', async () => {
    const w = await openWorkbench({ sessions: [session({ messages: [] })] });
    const { panel, host } = w;
    w.llm.enqueue({ text: 'A reply to delete.' });
    await send(panel, 'Hi');
    await until(w, 'the end of the reply', (e) => finishes(e).length === 1);
    await settle();
    expect(texts(panel)).toEqual(['Hi', 'A reply to delete.']);
    const newest = articles(panel)[1]!;
    await settle(() => buttonNamed(newest, 'Delete').click());
    await settle(() => buttonNamed(articles(panel)[1]!, 'Delete message').click());
    await settle();
    expect(texts(panel)).toEqual(['Hi']);
    expect((await savedSession(host)).messages.map((m) => m.content)).toEqual(['Hi']);
  });

  it('copies the text, and branches a new chat from a message and opens it', async () => {
    const writeText = vi.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { panel, host } = await openWorkbench({ sessions: [session({ messages: [user('u1', 'One'), reply('a1', 'Two'), user('u2', 'Three')] })] });
    await settle(() => buttonNamed(articles(panel)[1]!, 'Copy').click());
    expect(writeText).toHaveBeenCalledWith('Two');
    expect(buttonNamed(articles(panel)[1]!, 'Copied')).toBeTruthy();
    // A clipboard that refuses says so where the button is.
    writeText.mockRejectedValueOnce(new Error('denied'));
    await settle(() => buttonNamed(articles(panel)[0]!, 'Copy').click());
    expect(articles(panel)[0]!.textContent).toContain('The clipboard refused: select the text and press Ctrl+C.');

    await settle(() => buttonNamed(articles(panel)[1]!, 'Branch from here').click());
    await settle();
    const [branch] = host.callsTo('chat.sessions.branch');
    expect(branch!.input).toEqual({ sessionId: 's1', messageId: 'a1' });
    expect(texts(panel)).toEqual(['One', 'Two']);
    expect(panel.textContent).toContain('Tavern night (branch)');
    expect((await savedSession(host)).messages).toHaveLength(3);
  });

  it('continue streams after the reply’s text and adds to it; the model was sent the reply so far', async () => {
    const w = await openWorkbench({ sessions: [session({ messages: [user('u1', 'Tell me'), reply('a1', 'The tide was')] })] });
    const { panel, host } = w;
    const end = gate();
    w.llm.enqueue({ text: [' high', ' that night.'], holds: [{ after: 2, until: end.promise }] });
    await settle(() => buttonNamed(panel, 'Continue').click());
    await until(w, 'the first words', (e) => streamed(e) === ' high');
    expect(texts(panel)).toEqual(['Tell me', 'The tide was high']);
    // While it streams, the messages' actions wait.
    expect(buttonNamed(articles(panel)[0]!, 'Edit').getAttribute('aria-disabled')).toBe('true');
    expect(sentMessages(w, 0).at(-1)).toEqual({ role: 'assistant', content: 'The tide was' });
    await settle(() => end.open());
    await until(w, 'the end of the reply', (e) => finishes(e).length === 1);
    await settle();
    expect(texts(panel)).toEqual(['Tell me', 'The tide was high that night.']);
    expect((await savedSession(host)).messages.map((m) => m.content)).toEqual(['Tell me', 'The tide was high that night.']);
  });

  it('a reply starting and ending flips the buttons of every message already drawn; a swipe at its end stays unavailable', async () => {
    const w = await openWorkbench({ sessions: [session({ messages: [user('u1', 'One'), withSwipes('a1', ['A', 'B'], 1), user('u2', 'Two'), reply('a2', 'Three')] })] });
    const { panel } = w;
    const waiting = () =>
      ['Edit', 'Branch from here', 'Delete'].map((name) => buttonNamed(articles(panel)[0]!, name).getAttribute('aria-disabled')).concat(
        ['Previous swipe', 'Next swipe'].map((name) => buttonNamed(articles(panel)[1]!, name).getAttribute('aria-disabled')),
      );
    expect(waiting()).toEqual([null, null, null, null, 'true']);
    const end = gate();
    w.llm.enqueue({ text: [' and', ' four.'], holds: [{ after: 2, until: end.promise }] });
    await settle(() => buttonNamed(panel, 'Continue').click());
    await until(w, 'the first words', (e) => streamed(e) === ' and');
    expect(waiting()).toEqual(['true', 'true', 'true', 'true', 'true']);
    await settle(() => end.open());
    await until(w, 'the end of the reply', (e) => finishes(e).length === 1);
    await settle();
    expect(texts(panel)).toEqual(['One', 'B', 'Two', 'Three and four.']);
    expect(waiting()).toEqual([null, null, null, null, 'true']);
    // A swipe that reaches its first one: that button is unavailable now, the other one is not.
    await settle(() => buttonNamed(articles(panel)[1]!, 'Previous swipe').click());
    expect(texts(panel)).toEqual(['One', 'A', 'Two', 'Three and four.']);
    expect(waiting()).toEqual([null, null, null, 'true', null]);
  });

  it('a refused change shows on the message with its code', async () => {
    const { panel, host } = await openWorkbench({ sessions: [session({ messages: [user('u1', 'One'), reply('a1', 'Two')] })] });
    await settle(() => buttonNamed(articles(panel)[1]!, 'Edit').click());
    const box = byLabel<HTMLTextAreaElement>(articles(panel)[1]!, 'Message text');
    await settle(() => typeInto(box, 'Two, edited'));
    // The host goes away before the edit is saved: the edit stays open with its text, and the failure shows there.
    await settle(() => host.setInfo({ state: 'disconnected' }));
    await settle(() => void key(box, { key: 'Enter', ctrlKey: true }));
    const error = byTestId(articles(panel)[1]!, 'message-action-error');
    expect(error.dataset.code).toBeTruthy();
    expect(error.textContent).toContain('Could not save the edit');
    expect(byLabel<HTMLTextAreaElement>(articles(panel)[1]!, 'Message text').value).toBe('Two, edited');
  });
});
