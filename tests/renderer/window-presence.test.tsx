// @vitest-environment happy-dom
// The window tells the host whether the person can see it: on mount, when that changes, every RENEW_MS while in view,
// once connected (again after a reconnect), and "not in view" when it goes.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HostConnection } from '../../renderer/src/api/connection';
import { RENEW_MS, useWindowPresence } from '../../renderer/src/app/use-window-presence';

function Presence(props: { host: HostConnection }) {
  useWindowPresence(props.host);
  return null;
}

let visibility: DocumentVisibilityState = 'visible';
beforeEach(() => {
  vi.useFakeTimers();
  visibility = 'visible';
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
});
afterEach(() => vi.useRealTimers());

function fakeHost(state: string) {
  const said: boolean[] = [];
  const windows = new Set<string>();
  let listener: ((info: { state: string }) => void) | null = null;
  const host = {
    invoke: async (method: string, input: { windowId: string; visible: boolean }) => {
      if (method === 'app.visibility') {
        said.push(input.visible);
        windows.add(input.windowId);
      }
      return { ok: true, value: {} };
    },
    getInfo: () => ({ state }),
    onInfo: (l: (info: { state: string }) => void) => ((listener = l), () => (listener = null)),
  } as unknown as HostConnection;
  return { host, said, windows, connect: () => ((state = 'connected'), listener?.({ state })) };
}

const flush = () => act(async () => void (await Promise.resolve()));

describe('window presence', () => {
  it('says in view on mount, hidden and shown again as the page is, renews while shown, and not in view when it goes', async () => {
    const { host, said, windows } = fakeHost('connected');
    const container = document.createElement('div');
    const root = createRoot(container);
    act(() => root.render(<Presence host={host} />));
    await flush();
    expect(said).toEqual([true]);
    visibility = 'hidden';
    document.dispatchEvent(new Event('visibilitychange'));
    await flush();
    // Hidden: no renewal.
    act(() => void vi.advanceTimersByTime(RENEW_MS * 3));
    await flush();
    expect(said).toEqual([true, false]);
    visibility = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    act(() => void vi.advanceTimersByTime(RENEW_MS));
    await flush();
    expect(said).toEqual([true, false, true, true]);
    act(() => root.unmount());
    await flush();
    expect(said.at(-1)).toBe(false);
    expect(windows.size).toBe(1);
  });

  it('says nothing to a host it has not reached, and tells it once connected', async () => {
    const { host, said, connect } = fakeHost('connecting');
    const root = createRoot(document.createElement('div'));
    act(() => root.render(<Presence host={host} />));
    await flush();
    expect(said).toEqual([]);
    act(() => connect());
    await flush();
    expect(said).toEqual([true]);
    act(() => root.unmount());
  });
});
