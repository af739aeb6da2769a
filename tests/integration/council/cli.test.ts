import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/headless/cli/run-cli';
import { cli } from '../../helpers/cli-run';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { sampleChat } from './helpers';

afterEach(cleanupTempDirs);


describe('council and packs CLI', () => {
  it('packs list / export / import, council add-member / set-member / set / show / run / remove-member', async () => {
    const dir = tempDir();
    const d = ['--data-dir', dir];
    const list = await cli(['packs', 'list', ...d, '--json']);
    expect((JSON.parse(list.out) as Array<{ id: string }>).map((p) => p.id)).toEqual(expect.arrayContaining(['story-council', 'craft-circle']));

    const exported = path.join(dir, 'out.json');
    expect((await cli(['packs', 'export', 'craft-circle', '--out', exported, ...d])).code).toBe(0);
    const pack = JSON.parse(fs.readFileSync(exported, 'utf8')) as { id: string };
    pack.id = 'craft-copy';
    fs.writeFileSync(exported, JSON.stringify(pack));
    expect((await cli(['packs', 'import', exported, ...d])).out).toBe('Installed craft-copy (3 items).');

    const added = await cli(['council', 'add-member', '--pack', 'story-council', '--item', 'plot-enforcer', '--role', 'Plot Enforcer', '--chance', '80', '--tools', 'council:pacing_review,nope:gone', ...d, '--json']);
    const { memberId } = JSON.parse(added.out) as { memberId: string };
    expect(memberId).toMatch(/^m-/);
    for (const bad of ['101', '-1', '50x', 'NaN']) {
      const r = await cli(['council', 'set-member', memberId, `--chance=${bad}`, ...d, '--json']);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.out).error.path).toMatch(/chance/);
    }
    expect((await cli(['council', 'set-member', memberId, '--chance', '100', '--tools', 'council:pacing_review', ...d])).code).toBe(0);
    expect((await cli(['council', 'set', '--mode', 'sidecar', '--timeout-ms', '2000', '--on', ...d])).code).toBe(0);
    const show = await cli(['council', 'show', ...d]);
    expect(show.out).toMatch(/Council Mode: on {3}mode: sidecar {3}timeout: 2000 ms/);
    expect(show.out).toContain('Marshal Vane — Plot Enforcer  100%');

    const chatFile = path.join(dir, 'chat.json');
    fs.writeFileSync(chatFile, JSON.stringify(sampleChat()));
    const run = await cli(['council', 'run', '--chat', chatFile, '--seed', '42', ...d, '--json']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.out) as { seed: number; rolls: unknown[]; results: Array<{ errorCode: string }>; deliberationBlock: string; totalDurationMs: number };
    expect(out).toMatchObject({ seed: 42, rolls: [{ memberId, active: true, reason: 'always' }], deliberationBlock: expect.stringMatching(/No council tools ran/), totalDurationMs: expect.any(Number) });
    expect(out.results[0]!.errorCode).toBe('SIDECAR_NOT_CONFIGURED');
    const human = await cli(['council', 'run', '--chat', chatFile, '--seed', '42', ...d]);
    expect(human.out).toMatch(/seed 42[\s\S]*\[error\] Marshal Vane \/ Pacing Review/);

    fs.writeFileSync(chatFile, JSON.stringify({ messages: [{ role: 'narrator', content: 'x' }] }));
    const badChat = await cli(['council', 'run', '--chat', chatFile, ...d, '--json']);
    expect(JSON.parse(badChat.out).error).toMatchObject({ code: 'INVALID_INPUT', path: '/chat/messages/0/role' });

    expect((await cli(['council', 'remove-member', memberId, ...d])).out).toMatch(/No members/);
  });
});

describe('council show reads the folder only', () => {
  it('starts no extension: the tools of an installed extension are shown as not checked, an unknown tool as missing', async () => {
    const dir = tempDir();
    const d = ['--data-dir', dir];
    // The bundled extensions are installed in this folder (their workers are not started by council show).
    const run = (args: string[]) => runCli(args, { out: (t) => out.push(t), err: () => undefined }, {});
    const out: string[] = [];
    await cli(['council', 'add-member', '--pack', 'story-council', '--item', 'plot-enforcer', '--tools', 'dice-and-stats:roll_dice,nope:gone', ...d]);
    expect(await run(['council', 'show', ...d, '--json'])).toBe(0);
    const view = JSON.parse(out.join('\n')) as { members: Array<{ toolViews: Array<{ qualifiedName: string; missing: boolean; unchecked?: boolean }>; missingTools: string[] }>; warnings: string[] };
    expect(view.members[0]!.toolViews.map((t) => [t.qualifiedName, t.missing, t.unchecked === true])).toEqual([
      ['dice-and-stats:roll_dice', false, true],
      ['nope:gone', true, false],
    ]);
    expect(view.members[0]!.missingTools).toEqual(['nope:gone']);
    expect(view.warnings.join('\n')).not.toContain('dice-and-stats');
    out.length = 0;
    await run(['council', 'show', ...d]);
    expect(out.join('\n')).toMatch(/dice-and-stats:roll_dice .*not checked: not started here/);
    expect(out.join('\n')).toMatch(/nope:gone .*MISSING/);
  });
});
