// Quitting loses nothing: dispose() of the core waits for every write already asked for — a settings update and an
// asynchronous file write in flight — so the folder holds them and can be removed at once (the ENOTEMPTY flake).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../electron/core/util/atomic-write';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { chatRig } from '../../unit/chat/helpers';

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
});
