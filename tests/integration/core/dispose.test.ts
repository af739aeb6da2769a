// Quitting loses nothing: dispose() of the core waits for every write already asked for — a settings update and an
// asynchronous file write in flight — so the folder holds them and can be removed at once (the ENOTEMPTY flake).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../electron/core/util/atomic-write';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { chatRig } from '../chat/helpers';

afterEach(cleanupTempDirs);

describe('dispose', () => {
  it('waits for a settings update and a file write still in flight; the folder then holds both and can be removed', async () => {
    const rig = await chatRig();
    const update = rig.call('settings.update', { patch: { ui: { theme: 'dark' } } });
    const note = path.join(rig.dataDir, 'notes', 'late.md');
    fs.mkdirSync(path.dirname(note), { recursive: true });
    const write = writeFileAtomic(note, 'written while quitting');
    await rig.host.dispose();
    // Both landed before dispose answered; nothing is left half-written beside them.
    expect((JSON.parse(fs.readFileSync(path.join(rig.dataDir, 'settings.json'), 'utf8')) as { ui: { theme: string } }).ui.theme).toBe('dark');
    expect(fs.readFileSync(note, 'utf8')).toBe('written while quitting');
    expect(fs.readdirSync(path.dirname(note))).toEqual(['late.md']);
    fs.rmSync(rig.dataDir, { recursive: true });
    await expect(update).resolves.toMatchObject({ ok: true });
    await write;
    await rig.server.close();
  });

  it('waits for a built-in tool still working (the approvals suite\'s ENOTEMPTY: a note written after the folder went)', async () => {
    const rig = await chatRig();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    let wrote = false;
    rig.host.registry.register({ kind: 'builtin', id: 'slow-notes' }, { name: 'write_late', display_name: 'Write late', description: 'Writes a note when let go.', parameters: { type: 'object' } }, {
      async execute() {
        started = true;
        await gate;
        const file = path.join(rig.dataDir, 'notes', 'sub', 'late.md');
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        await writeFileAtomic(file, 'late');
        wrote = true;
        return { ok: true, value: 'written' };
      },
    });
    const call = rig.host.registry.invoke('slow-notes:write_late', {}, { timeoutMs: 60_000 });
    // The executor has its call before the host is asked to go.
    for (let i = 0; i < 100 && !started; i++) await new Promise((r) => setImmediate(r));
    expect(started).toBe(true);
    const disposing = rig.host.dispose();
    release();
    await disposing;
    expect(wrote).toBe(true);
    fs.rmSync(rig.dataDir, { recursive: true });
    await call;
    await rig.server.close();
  });
});
