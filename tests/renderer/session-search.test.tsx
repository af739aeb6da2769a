// @vitest-environment real-core
// Searching the chats in the Workbench, on a real core: across sessions and in the open one, results with the match
// marked, a result opening its session with the message focused, Escape clearing, a refusal shown.
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/types/chat';
import { byLabel, byTestId, buttonNamed, cleanup, key, settle, typeInto } from './harness';
import { disposeAllHosts } from './real-host';
import { closeLlmServers, session } from './real-chat';
import { openWorkbench } from './workbench-harness';

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
  await closeLlmServers();
});

const msgs = (id: string, texts: string[]): ChatMessage[] => texts.map((content, i) => ({ id: `${id}-${i}`, role: i % 2 ? 'assistant' : 'user', content, createdAt: i }) as ChatMessage);

async function searchFor(panel: HTMLElement, text: string, scope?: 'all' | 'open') {
  if (scope) await settle(() => typeInto(byLabel<HTMLSelectElement>(panel, 'Where to search'), scope));
  await settle(() => typeInto(byLabel(panel, 'Search chats'), text));
  await settle(() => buttonNamed(panel, 'Search').click());
}

describe('searching the chats', () => {
  it('finds text across sessions, opens a result at its message, and Escape clears', async () => {
    const { panel } = await openWorkbench({
      sessions: [
        session({ id: 's1', title: 'Tavern night', updatedAt: 20, messages: msgs('s1', ['Hello', 'Welcome in.']) }),
        session({ id: 's2', title: 'River crossing', updatedAt: 10, messages: msgs('s2', ['When does the ferry leave?', 'At dawn.', 'And the FERRY back?', 'At dusk.']) }),
      ],
    });
    expect(byTestId(panel, 'open-session').dataset.sessionId).toBe('s1');
    await searchFor(panel, 'ferry');
    const hits = [...panel.querySelectorAll<HTMLButtonElement>('[data-testid="search-hit"]')];
    expect(hits.map((h) => h.textContent)).toEqual(['River crossing · message 1When does the ferry leave?', 'River crossing · message 3And the FERRY back?']);
    expect(hits[1]!.querySelector('mark')!.textContent).toBe('FERRY');
    expect(byTestId(panel, 'search-results').textContent).toContain('2 found.');

    await settle(() => hits[1]!.click());
    await settle();
    expect(byTestId(panel, 'open-session').dataset.sessionId).toBe('s2');
    expect((document.activeElement as HTMLElement).dataset.messageId).toBe('s2-2');

    await settle(() => void key(byLabel(panel, 'Search chats'), { key: 'Escape' }));
    expect(panel.querySelector('[data-testid="search-results"]')).toBeNull();
    expect(byLabel<HTMLInputElement>(panel, 'Search chats').value).toBe('');
  });

  it('searches only the open chat when asked, says when nothing is found, and shows a failure', async () => {
    const { panel, host } = await openWorkbench({
      sessions: [
        session({ id: 's1', title: 'Tavern night', updatedAt: 20, messages: msgs('s1', ['the lantern', 'ok']) }),
        session({ id: 's2', title: 'River crossing', updatedAt: 10, messages: msgs('s2', ['the lantern again']) }),
      ],
    });
    await searchFor(panel, 'lantern', 'open');
    expect(host.callsTo('chat.sessions.search').map((c) => c.input)).toEqual([{ query: 'lantern', sessionId: 's1' }]);
    expect(panel.querySelectorAll('[data-testid="search-hit"]')).toHaveLength(1);
    await searchFor(panel, 'nothing like it');
    expect(byTestId(panel, 'search-results').textContent).toContain('Nothing found.');
    // The host gone: the failure shows where the search is, with its code.
    await settle(() => host.setInfo({ state: 'disconnected' }));
    await searchFor(panel, 'lantern');
    expect(byTestId(panel, 'search-error').dataset.code).toBeTruthy();
  });
});
