// @vitest-environment real-core
// Your data in the sidebar, on a real core: Back up downloads one file (no key in it) and says what it left out;
// Restore asks first, then restores into the core and says what to add again; a file that is not a backup is refused
// with its code and nothing changes.
import { afterEach, describe, expect, it } from 'vitest';
import type { Backup } from '../../shared/types/backup';
import { byLabel, byTestId, buttonNamed, cleanup, settle } from './harness';
import { disposeAllHosts } from './real-host';
import { captureBlobUrls } from './real-council';
import { closeLlmServers, session } from './real-chat';
import { openWorkbench } from './workbench-harness';

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
  await closeLlmServers();
});

async function choose(input: HTMLInputElement, file: File) {
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  await settle(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
    await new Promise((r) => setTimeout(r, 20));
  });
}

describe('your data', () => {
  it('backs up to one file and restores it after asking', async () => {
    const blobs = captureBlobUrls();
    const { container, host } = await openWorkbench({ sessions: [session({ id: 'keep', title: 'Keep me' })] });
    const data = byTestId(container, 'backup');
    await settle(() => buttonNamed(data, 'Back up…').click());
    expect(blobs).toHaveLength(1);
    const backup = JSON.parse(await blobs[0]!.text()) as Backup;
    expect(backup.format).toBe('council-workbench/backup');
    expect(backup.sessions.map((s) => s.id)).toEqual(['keep']);
    expect(data.textContent).toMatch(/Saved council-workbench-backup-\d{4}-\d\d-\d\d\.json/);

    // Changed after the backup: the restore puts it back.
    await host.arrange('chat.sessions.rename', { sessionId: 'keep', title: 'Renamed' });
    const input = byLabel<HTMLInputElement>(data, 'Backup file to restore');
    await choose(input, new File([JSON.stringify(backup)], 'mine.json', { type: 'application/json' }));
    expect(host.callsTo('backup.import')).toHaveLength(0);
    expect(data.textContent).toContain('Restore mine.json?');
    await settle(() => buttonNamed(data, 'Restore').click());
    expect(host.callsTo('backup.import')).toHaveLength(1);
    expect(byTestId(data, 'backup-restored').textContent).toContain('Restored 1 session, 0 packs and the settings.');
    expect((await host.arrange('chat.sessions.get', { sessionId: 'keep' })).title).toBe('Keep me');
  });

  it('refuses a file that is not a backup, with its code, and Cancel restores nothing', async () => {
    const { container, host } = await openWorkbench();
    const data = byTestId(container, 'backup');
    const input = byLabel<HTMLInputElement>(data, 'Backup file to restore');
    await choose(input, new File(['{"format":"x"}'], 'other.json'));
    await settle(() => buttonNamed(data, 'Cancel').click());
    expect(host.callsTo('backup.import')).toHaveLength(0);
    await choose(input, new File(['{"format":"x"}'], 'other.json'));
    await settle(() => buttonNamed(data, 'Restore').click());
    expect(byTestId(data, 'backup-error').dataset.code).toBe('INVALID_INPUT');
    expect(byTestId(data, 'backup-error').textContent).toContain('not a Council Workbench backup');
  });

  it('B11: lists what it held, each with its reason; the checked ones are accepted by restoring again with their keys', async () => {
    const { container, host } = await openWorkbench();
    const { backup } = await host.arrange('backup.export', {});
    const settings = backup.settings as { mcpServers?: unknown[]; safety: { approveAllWrites: boolean } };
    settings.mcpServers = [{ id: 'evil', name: 'evil', transport: 'stdio', command: '/bin/sh', args: ['-c', 'true'], trusted: false, enabled: true }];
    settings.safety.approveAllWrites = false;
    const data = byTestId(container, 'backup');
    await choose(byLabel<HTMLInputElement>(data, 'Backup file to restore'), new File([JSON.stringify(backup)], 'crafted.json'));
    await settle(() => buttonNamed(data, 'Restore').click());
    const held = byTestId(data, 'backup-held');
    expect([...held.querySelectorAll('label')].map((l) => l.textContent)).toEqual(['evil — new: it runs /bin/sh -c true', 'Ask before every write — write approvals would be turned off']);
    expect((await host.arrange('settings.get', {})).mcpServers).toEqual([expect.objectContaining({ id: 'evil', enabled: false })]);
    // Nothing checked: the button does nothing.
    await settle(() => buttonNamed(held, 'Accept the checked ones').click());
    expect(host.callsTo('backup.import')).toHaveLength(1);
    await settle(() => byLabel<HTMLInputElement>(held, 'evil — new: it runs /bin/sh -c true').click());
    await settle(() => buttonNamed(held, 'Accept the checked ones').click());
    expect(host.callsTo('backup.import').at(-1)!.input).toMatchObject({ accept: ['mcp:evil'] });
    // The second restore finds the server here, held: what it accepted is turning it on.
    expect(byTestId(data, 'backup-restored').textContent).toContain('Accepted: evil — it would be turned on.');
    expect([...byTestId(data, 'backup-held').querySelectorAll('label')].map((l) => l.textContent)).toEqual(['Ask before every write — write approvals would be turned off']);
    expect((await host.arrange('settings.get', {})).mcpServers).toEqual([expect.objectContaining({ id: 'evil', enabled: true })]);
    expect((await host.arrange('settings.get', {})).safety?.approveAllWrites).toBe(true);
  });
});
