// Whether a Workbench window is in view, as windows say it: within a lease, so one closed without a word lapses.
import { describe, expect, it } from 'vitest';
import { PRESENCE_LEASE_MS, WindowPresence } from '../../../electron/core/window-presence';
import { FakeClock } from '../../helpers/fake-time';

describe('window presence', () => {
  it('is visible while some window says so within the lease, and not after it lapses or the window is hidden', () => {
    const clock = new FakeClock();
    const presence = new WindowPresence(clock);
    expect(presence.visible()).toBe(false);
    presence.report('a', true);
    presence.report('b', false);
    expect(presence.visible()).toBe(true);
    presence.report('a', false);
    expect(presence.visible()).toBe(false);
    presence.report('b', true);
    clock.advance(PRESENCE_LEASE_MS);
    expect(presence.visible()).toBe(true);
    // Closed without a word: its last one lapses.
    clock.advance(1);
    expect(presence.visible()).toBe(false);
  });

  it('remembers a bounded number of windows, the oldest word going first', () => {
    const clock = new FakeClock();
    const presence = new WindowPresence(clock);
    presence.report('first', true);
    for (let i = 0; i < 64; i++) presence.report(`hidden-${i}`, false);
    expect(presence.visible()).toBe(false);
  });
});
