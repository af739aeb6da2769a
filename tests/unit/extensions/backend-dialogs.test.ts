// A backend's dialog nobody answers (no window open, or nobody there) closes as cancelled after its wait, on fake time.
import { describe, expect, it } from 'vitest';
import { BackendDialogs, DIALOG_LIMITS, type DialogEvent } from '../../../electron/core/extensions/spindle-host/backend-dialogs';
import { FakeClock } from '../../helpers/fake-time';
import { anyCaller, callSpindle } from '../../helpers/spindle-call';

describe('backend dialogs', () => {
  it('closes an unanswered dialog as cancelled after its wait, and tells the windows', async () => {
    const clock = new FakeClock();
    const events: DialogEvent[] = [];
    const dialogs = new BackendDialogs((e) => events.push(e), clock, clock);
    const asked = callSpindle(dialogs.handlers(), anyCaller('x'), 'prompt.input', { args: [{ title: 'Name it' }] });
    const confirm = callSpindle(dialogs.handlers(), anyCaller('x'), 'modal.confirm', { args: [{ title: 'Sure?', message: 'Really.' }] });
    clock.advance(DIALOG_LIMITS.waitMs - 1);
    expect(events.filter((e) => e.type === 'extension.dialog-closed')).toHaveLength(0);
    clock.advance(1);
    expect(await asked).toEqual({ value: null, cancelled: true });
    expect(await confirm).toEqual({ confirmed: false });
    expect(events.map((e) => e.type)).toEqual(['extension.dialog', 'extension.dialog', 'extension.dialog-closed', 'extension.dialog-closed']);
  });

  it("one extension's close never reaches another's dialog; an answer of the wrong shape is a cancel", async () => {
    const clock = new FakeClock();
    const events: DialogEvent[] = [];
    const dialogs = new BackendDialogs((e) => events.push(e), clock, clock);
    const mine = callSpindle(dialogs.handlers(), anyCaller('mine'), 'textEditor.open', { args: [{ value: 'draft', editorRequestId: 'ed' }] });
    await callSpindle(dialogs.handlers(), anyCaller('other'), 'textEditor.close', { args: ['ed'] });
    expect(events.filter((e) => e.type === 'extension.dialog-closed')).toHaveLength(0);
    const shown = events.find((e) => e.type === 'extension.dialog')!;
    expect(dialogs.answer(shown.type === 'extension.dialog' ? shown.dialog.dialogId : '', { text: 42 })).toBe(true);
    expect(await mine).toEqual({ text: 'draft', cancelled: true });
  });

  it('a window that opens later finds the dialogs still waiting; ten opened a minute at most, so one reopening after each cancel cannot hold the app', async () => {
    const clock = new FakeClock();
    const dialogs = new BackendDialogs(() => undefined, clock, clock);
    const waiting = callSpindle(dialogs.handlers(), anyCaller('nag'), 'modal.confirm', { args: [{ title: 'Again?', message: 'Sure?' }] });
    expect(dialogs.pending()).toEqual([{ dialogId: expect.any(String), extensionId: 'nag', kind: 'confirm', params: { title: 'Again?', message: 'Sure?' } }]);
    dialogs.answer(dialogs.pending()[0]!.dialogId, { confirmed: false });
    await waiting;
    for (let i = 1; i < DIALOG_LIMITS.perMinute; i++) {
      const asked = callSpindle(dialogs.handlers(), anyCaller('nag'), 'modal.confirm', { args: [{ title: 'Again?', message: 'Sure?' }] });
      dialogs.answer(dialogs.pending()[0]!.dialogId, null);
      await asked;
    }
    await expect(callSpindle(dialogs.handlers(), anyCaller('nag'), 'modal.confirm', { args: [{ title: 'Again?', message: 'Sure?' }] })).rejects.toMatchObject({ error: { code: 'RATE_LIMITED' } });
    // Another extension is not held back by it; a minute on, neither is this one.
    const other = callSpindle(dialogs.handlers(), anyCaller('calm'), 'prompt.input', { args: [{ title: 'Name' }] });
    dialogs.answer(dialogs.pending()[0]!.dialogId, { value: '  indented\n  lines ' });
    expect(await other).toEqual({ value: '  indented\n  lines ', cancelled: false });
    clock.advance(60_000);
    const later = callSpindle(dialogs.handlers(), anyCaller('nag'), 'modal.confirm', { args: [{ title: 'Again?', message: 'Sure?' }] });
    expect(dialogs.pending()).toHaveLength(1);
    dialogs.closeAll('nag');
    expect(await later).toEqual({ confirmed: false });
  });
});
