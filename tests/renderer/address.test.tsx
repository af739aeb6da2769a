// @vitest-environment real-core
// Places have addresses (issue 49): the section, the open session and a message are in the hash; a reload at an
// address comes back there, back and forward move between places, and a search result's address names its message.
import { afterEach, describe, expect, it } from 'vitest';
import { addressOf, placeOf } from '../../renderer/src/app/address';
import type { ChatMessage } from '../../shared/types/chat';
import { byLabel, byTestId, buttonNamed, cleanup, navButton, settle, typeInto } from './harness';
import { disposeAllHosts } from './real-host';
import { closeLlmServers, session } from './real-chat';
import { openWorkbench } from './workbench-harness';

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
  await closeLlmServers();
});

const msgs = (id: string, texts: string[]): ChatMessage[] => texts.map((content, i) => ({ id: `${id}-${i}`, role: i % 2 ? 'assistant' : 'user', content, createdAt: i }) as ChatMessage);
const TWO = [
  session({ id: 's1', title: 'Tavern night', updatedAt: 20, messages: msgs('s1', ['Hello', 'Welcome in.']) }),
  session({ id: 's2', title: 'River crossing', updatedAt: 10, messages: msgs('s2', ['When does the ferry leave?', 'At dawn.', 'And the ferry back?', 'At dusk.']) }),
];

describe('addresses', () => {
  it('reads and writes places; what names none is none', () => {
    for (const place of [{ section: 'tools' as const }, { section: 'workbench' as const, sessionId: 's 1/é' }, { section: 'workbench' as const, sessionId: 's1', messageId: 'm-2' }]) {
      expect(placeOf(addressOf(place))).toEqual(place);
    }
    expect(placeOf('')).toBeNull();
    expect(placeOf('#token=abc')).toBeNull();
    expect(placeOf('#/nowhere')).toBeNull();
    expect(placeOf('#/tools/extra')).toEqual({ section: 'tools' });
  });

  it('the section and the open session are in the address; back and forward move between them', async () => {
    const { container, panel } = await openWorkbench({ sessions: TWO });
    expect(location.hash).toBe('#/workbench/s1');
    await settle(() => navButton(container, 'Tools').click());
    expect(location.hash).toBe('#/tools');
    await settle(() => history.back());
    await settle();
    expect(byTestId(container, 'panel-workbench')).toBeTruthy();
    expect(location.hash).toBe('#/workbench/s1');
    await settle(() => buttonNamed(panel, /River crossing/).click());
    expect(location.hash).toBe('#/workbench/s2');
    await settle(() => history.back());
    await settle();
    expect(byTestId(container, 'open-session').dataset.sessionId).toBe('s1');
  });

  it('a reload at a message’s address opens its session and focuses it; a search result’s address names it', async () => {
    history.replaceState(null, '', '#/workbench/s2/s2-2');
    const { panel } = await openWorkbench({ sessions: TWO });
    expect(byTestId(panel, 'open-session').dataset.sessionId).toBe('s2');
    expect((document.activeElement as HTMLElement).dataset.messageId).toBe('s2-2');
    expect(location.hash).toBe('#/workbench/s2/s2-2');

    await settle(() => typeInto(byLabel(panel, 'Search chats'), 'welcome'));
    await settle(() => buttonNamed(panel, 'Search').click());
    await settle(() => panel.querySelector<HTMLButtonElement>('[data-testid="search-hit"]')!.click());
    await settle();
    expect(location.hash).toBe('#/workbench/s1/s1-1');
    expect((document.activeElement as HTMLElement).dataset.messageId).toBe('s1-1');
  });
});
