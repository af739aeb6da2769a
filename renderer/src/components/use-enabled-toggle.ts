// The Enabled switch of a card: the value asked for shows at once and stays until the host has answered, then the
// card's own value (the host's) shows again. The call goes through the card's useAction, so it waits like the rest.
import { useState } from 'react';
import type { Result } from '../../../shared/errors';

type Run = (what: 'enable' | 'disable', title: string, call: () => Promise<Result<unknown>>) => Promise<unknown>;

export function useEnabledToggle(current: boolean, busy: string | null, run: Run, call: (next: boolean) => Promise<Result<unknown>>) {
  const [pending, setPending] = useState<boolean | null>(null);
  const toggle = (next: boolean) => {
    if (busy !== null) return;
    setPending(next);
    void run(next ? 'enable' : 'disable', next ? 'Could not enable' : 'Could not disable', () => call(next)).finally(() => setPending(null));
  };
  return { enabled: pending ?? current, toggle };
}
