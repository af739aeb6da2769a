// Dialogs a backend opens for the person (spindle.modal.confirm, prompt.input, textEditor, modal.open) through a real
// host and worker: announced to the windows, answered through the contract as the app answers them, the call waiting
// for the person; two open at most, one answer taken, the dialogs gone with the worker.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../../shared/contract/events';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { chatRig, type ChatRig } from '../chat/helpers';
import { fixture, waitFor } from './harness';

const ID = 'lumiverse_dialogs';
let rig: ChatRig;

beforeEach(async () => {
  rig = await chatRig();
  await rig.host.extensions.installFromFolder(fixture(ID), { grant: ['tools'] }, () => undefined);
  await waitFor(() => rig.host.registry.get(`${ID}:ask`), 'the fixture to register its tool');
});
afterEach(async () => {
  await rig.close();
  cleanupTempDirs();
});

type Dialog = Extract<HostEvent, { type: 'extension.dialog' }>['dialog'];
const shown = () => rig.events.flatMap((e) => (e.type === 'extension.dialog' ? [e.dialog] : []));
const closed = () => rig.events.flatMap((e) => (e.type === 'extension.dialog-closed' ? [e.dialogId] : []));

/** Starts the tool; resolves with the dialog it opened and the call's answer to come. */
async function ask(what: string): Promise<{ dialog: Dialog; answer: Promise<unknown> }> {
  const before = shown().length;
  const answer = rig.host.registry.invoke(`${ID}:ask`, { what }, { timeoutMs: 20_000 }).then((outcome) => {
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    return JSON.parse(outcome.content) as unknown;
  });
  const dialog = await waitFor(() => shown()[before], `the ${what} dialog`);
  return { dialog, answer };
}

/** A call that opens no dialog, or is refused before one shows. */
async function run(what: string): Promise<unknown> {
  const outcome = await rig.host.registry.invoke(`${ID}:ask`, { what }, { timeoutMs: 20_000 });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
  return JSON.parse(outcome.content) as unknown;
}

const reply = (dialogId: string, answer: unknown) => rig.call('extensions.dialogAnswer', { dialogId, answer });

describe("a backend's dialogs", () => {
  it('a confirm (SceneMap deleting), a line (Threadverse naming) and a text (LumiStage names) wait for the person and get the answer', async () => {
    const del = await ask('delete');
    expect(del.dialog).toMatchObject({ extensionId: ID, kind: 'confirm', params: { title: 'Delete tracker', message: 'The tracker and its history go.', variant: 'danger', confirmLabel: 'Delete' } });
    expect(await reply(del.dialog.dialogId, { confirmed: true })).toEqual({ ok: true, value: { taken: true } });
    expect(await del.answer).toEqual({ ok: true, value: { confirmed: true } });
    // A second window's answer comes too late.
    expect(await reply(del.dialog.dialogId, { confirmed: false })).toEqual({ ok: true, value: { taken: false } });
    expect(closed()).toContain(del.dialog.dialogId);

    const name = await ask('name');
    expect(name.dialog).toMatchObject({ kind: 'input', params: { defaultValue: 'Untitled', placeholder: 'Preset name' } });
    await reply(name.dialog.dialogId, { value: 'Harbour nights' });
    expect(await name.answer).toEqual({ ok: true, value: { value: 'Harbour nights', cancelled: false } });
    const cancelled = await ask('name');
    await reply(cancelled.dialog.dialogId, null);
    expect(await cancelled.answer).toEqual({ ok: true, value: { value: null, cancelled: true } });

    const names = await ask('names');
    expect(names.dialog).toMatchObject({ kind: 'textEditor', params: { title: 'Edit sprite names', value: 'happy\nsad' } });
    await reply(names.dialog.dialogId, { text: 'joyful\nsad\nangry' });
    expect(await names.answer).toEqual({ ok: true, value: { text: 'joyful\nsad\nangry', cancelled: false } });
  });

  it('the extension closes its own editor and notice by the names it gave them; a malformed dialog is refused at its field', async () => {
    const names = await ask('names');
    expect(await run('close-names')).toEqual({ ok: true, value: null });
    expect(await names.answer).toEqual({ ok: true, value: { text: 'happy\nsad', cancelled: true } });
    expect(closed()).toContain(names.dialog.dialogId);

    const notice = await ask('notice');
    expect(notice.dialog).toMatchObject({ kind: 'modal', params: { title: 'Scene summary', items: [{ type: 'heading', content: 'Harbour' }, { type: 'key_value', label: 'Weather', value: 'Fog' }, { type: 'card', items: [{ type: 'text', content: 'Ships wait.', muted: true }] }] } });
    expect(notice.dialog.params).not.toHaveProperty('modalRequestId');
    expect(await run('close-notice')).toEqual({ ok: true, value: null });
    expect(await notice.answer).toEqual({ ok: true, value: { openRequestId: 'summary', dismissedBy: 'extension' } });

    expect(await run('bad')).toMatchObject({ ok: false, code: 'INVALID_INPUT', message: expect.stringContaining('message') });
  });

  it('two open at once at most; the person closing a notice says so; the worker stopping closes what it left open', async () => {
    const first = await ask('notice');
    const second = await ask('delete');
    expect(await run('name')).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    await reply(first.dialog.dialogId, {});
    expect(await first.answer).toEqual({ ok: true, value: { openRequestId: 'summary', dismissedBy: 'user' } });
    const third = await ask('name');
    const ended = Promise.allSettled([second.answer, third.answer]);
    await rig.host.extensions.disable(ID);
    expect(closed()).toEqual(expect.arrayContaining([second.dialog.dialogId, third.dialog.dialogId]));
    // Their calls ended with the worker; answering now takes nothing.
    expect((await ended).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await reply(second.dialog.dialogId, { confirmed: true })).toEqual({ ok: true, value: { taken: false } });
  });
});
