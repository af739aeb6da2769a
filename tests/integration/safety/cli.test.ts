// The command line: approvals are denied unless --approve patterns allow them; --dry-run simulates writes.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/headless/cli/run-cli';
import { patternApprovalPolicy } from '../../../electron/core/safety/approval-policy';
import { globToRegExp } from '../../../electron/core/safety/glob';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('--approve', () => {
  it('globs match qualified names: * spans anything, ? one character, the rest is literal', () => {
    expect(globToRegExp('notes:*').test('notes:create_note')).toBe(true);
    expect(globToRegExp('notes:*').test('notesX:create_note')).toBe(false);
    expect(globToRegExp('*').test('scratchpad:append_note')).toBe(true);
    expect(globToRegExp('notes:update_?ote').test('notes:update_note')).toBe(true);
    expect(globToRegExp('a.b:*').test('aXb:c')).toBe(false);
    const policy = patternApprovalPolicy(['scratchpad:*']);
    const request = { toolQualifiedName: 'notes:create_note' } as Parameters<typeof policy.decide>[0];
    expect(policy.decide(request)).toMatchObject({ allow: false, hint: expect.stringContaining("--approve 'notes:create_note'") });
  });

  it('tools invoke: denied without a matching pattern (APPROVAL_DENIED), runs with one; --dry-run simulates', async () => {
    const dir = tempDir();
    const args = ['tools', 'invoke', 'notes:create_note', '--args', '{"page":"Plan","content":"step one"}', '--data-dir', dir, '--json'];
    const denied = await cli(args);
    expect(denied.code).toBe(1);
    expect(JSON.parse(denied.out)).toMatchObject({ error: { code: 'APPROVAL_DENIED', hint: expect.stringContaining('--approve') } });
    const wrong = await cli([...args, '--approve', 'scratchpad:*']);
    expect(JSON.parse(wrong.out)).toMatchObject({ error: { code: 'APPROVAL_DENIED' } });
    expect(fs.existsSync(path.join(dir, 'notes', 'Plan.md'))).toBe(false);

    const dry = await cli([...args, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.out)).toMatchObject({ ok: true, simulated: true, unvalidated: true });
    expect(fs.existsSync(path.join(dir, 'notes', 'Plan.md'))).toBe(false);

    const allowed = await cli([...args, '--approve', 'scratchpad:*', '--approve', 'notes:*']);
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.out)).toMatchObject({ ok: true, approval: 'policy' });
    expect(fs.readFileSync(path.join(dir, 'notes', 'Plan.md'), 'utf8')).toBe('step one');

    // Read tools never need a pattern.
    const read = await cli(['tools', 'invoke', 'notes:read_note', '--args', '{"page":"Plan"}', '--data-dir', dir]);
    expect(read).toMatchObject({ code: 0, out: 'step one' });
  });
});
