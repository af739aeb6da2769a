// Path permissions (seed 003): normalization first, `..`, absolute paths, URLs and symlinks out of the notes folder, member and Workbench lists.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { patternApprovalPolicy } from '../../../electron/core/safety/approval-policy';
import { checkToolPaths, normalizeToolPath } from '../../../electron/core/safety/path-permissions';
import type { CouncilRun } from '../../../shared/types/council';
import type { ToolOutcome } from '../../../shared/types/tools';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { memorySidecar, sampleChat } from '../council/helpers';
import { call, probe, register, safetyHost, type SafetyHost } from './helpers';

let host: SafetyHost;
afterEach(async () => {
  await host?.dispose();
  cleanupTempDirs();
});

const read = (page: string, extra: Record<string, unknown> = {}) => call<ToolOutcome>(host, 'tools.invoke', { qualifiedName: 'notes:read_note', args: { page, ...extra } });

describe('path normalization', () => {
  it('A6: resolves . and .., turns backslashes into slashes, refuses escapes, URLs, drive letters and control characters', () => {
    expect(normalizeToolPath('Journal/./2024/../today')).toEqual({ ok: true, value: { kind: 'relative', path: 'Journal/today' } });
    expect(normalizeToolPath('Journal\\2024')).toEqual({ ok: true, value: { kind: 'relative', path: 'Journal/2024' } });
    expect(normalizeToolPath('./a/')).toEqual({ ok: true, value: { kind: 'relative', path: 'a' } });
    expect(normalizeToolPath('/etc/../etc/passwd')).toEqual({ ok: true, value: { kind: 'absolute', path: '/etc/passwd' } });
    for (const bad of ['../../.ssh/id_rsa', 'Journal/../../x', '..', '..\\..\\secret', 'file:///etc/passwd', 'http://169.254.169.254/', 'javascript:alert(1)', 'C:\\Windows', 'a\u0000b', 'a\nb', 'a\u202Eb']) {
      const result = normalizeToolPath(bad, '/page');
      expect(result, bad).toMatchObject({ ok: false, error: { code: 'PATH_NOT_ALLOWED', path: '/page' } });
    }
    expect(normalizeToolPath(7)).toMatchObject({ ok: false, error: { code: 'PATH_NOT_ALLOWED' } });
  });

  it('prefixes are segment-aware; a write needs read and write access; no list allows only relative paths', () => {
    const def = { read_path_param: ['src'], write_path_param: ['dest'] };
    const scope = { label: 'Member Vane', allowedReadPaths: ['Journal', 'Drafts/'], allowedWritePaths: ['Drafts', 'Out'] };
    expect(checkToolPaths(def, { src: 'Journal/a', dest: 'Drafts/../Drafts/b' }, [scope])).toEqual({ ok: true, value: { src: 'Journal/a', dest: 'Drafts/b' } });
    expect(checkToolPaths(def, { src: 'Journal-private/a' }, [scope])).toMatchObject({ ok: false, error: { code: 'PATH_NOT_ALLOWED', path: '/src' } });
    // Out is writable but not readable: refused.
    expect(checkToolPaths(def, { dest: 'Out/x' }, [scope])).toMatchObject({ ok: false, error: { code: 'PATH_NOT_ALLOWED', message: expect.stringContaining('may not read or write') } });
    expect(checkToolPaths(def, { src: 'anything/at/all' }, [{ label: 'Workbench' }])).toMatchObject({ ok: true });
    expect(checkToolPaths(def, { src: '/etc/passwd' }, [{ label: 'Workbench' }])).toMatchObject({ ok: false, error: { code: 'PATH_NOT_ALLOWED' } });
    expect(checkToolPaths(def, { src: '/srv/notes/a' }, [{ label: 'W', allowedReadPaths: ['/srv/notes'] }])).toMatchObject({ ok: true });
    expect(checkToolPaths(def, { src: '/srv/notes/../x' }, [{ label: 'W', allowedReadPaths: ['/srv/notes'] }])).toMatchObject({ ok: false });
    // Every scope must allow (chat inline: member and Workbench).
    expect(checkToolPaths(def, { src: 'Journal/a' }, [scope, { label: 'Workbench', allowedReadPaths: ['Other'] }])).toMatchObject({ ok: false });
    // An empty list allows nothing.
    expect(checkToolPaths(def, { src: 'a' }, [{ label: 'W', allowedReadPaths: [] }])).toMatchObject({ ok: false });
  });
});

describe('path permissions through the guard', () => {
  it('../ escapes, absolute paths and URLs are PATH_NOT_ALLOWED before the tool runs', async () => {
    host = await safetyHost();
    fs.writeFileSync(path.join(host.dataDir, 'secret.md'), 'outside the notes folder');
    for (const page of ['../secret', '../../etc/passwd', 'Journal/../../secret', '/etc/passwd', path.join(host.dataDir, 'secret.md'), 'file:///etc/passwd']) {
      expect(await read(page), page).toMatchObject({ ok: false, error: { code: 'PATH_NOT_ALLOWED' } });
    }
  });

  it('a symlink inside the notes folder that points outside is PATH_NOT_ALLOWED, for reads and writes', async () => {
    host = await safetyHost({ policy: patternApprovalPolicy(['notes:*']) });
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'secret.md'), 'TOP SECRET');
    const notes = path.join(host.dataDir, 'notes');
    fs.mkdirSync(notes, { recursive: true });
    fs.symlinkSync(outside, path.join(notes, 'escape'));
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(notes, 'leak.md'));
    fs.symlinkSync(path.join(outside, 'nothing-yet.md'), path.join(notes, 'dangling.md'));

    for (const page of ['escape/secret', 'leak']) expect(await read(page), page).toMatchObject({ ok: false, error: { code: 'PATH_NOT_ALLOWED' } });
    const write = (tool: string, args: Record<string, unknown>) => call<ToolOutcome>(host, 'tools.invoke', { qualifiedName: `notes:${tool}`, args });
    expect(await write('update_note', { page: 'leak', content: 'pwned', mode: 'append' })).toMatchObject({ ok: false, error: { code: 'PATH_NOT_ALLOWED' } });
    expect(await write('create_note', { page: 'escape/new', content: 'pwned' })).toMatchObject({ ok: false, error: { code: 'PATH_NOT_ALLOWED' } });
    expect(await write('create_note', { page: 'dangling', content: 'pwned' })).toMatchObject({ ok: false, error: { code: 'PATH_NOT_ALLOWED' } });
    expect(await write('rename_note', { page: 'leak', newName: 'mine' })).toMatchObject({ ok: false, error: { code: 'PATH_NOT_ALLOWED' } });
    expect(fs.readFileSync(path.join(outside, 'secret.md'), 'utf8')).toBe('TOP SECRET');
    expect(fs.existsSync(path.join(outside, 'new.md'))).toBe(false);
    expect(fs.existsSync(path.join(outside, 'nothing-yet.md'))).toBe(false);
  });

  it('the tool receives the normalized path; Workbench lists apply to calls made by hand', async () => {
    host = await safetyHost();
    const tool = probe();
    register(host, { name: 'peek', mode: 'read', read_path_param: 'file', parameters: { type: 'object', properties: { file: { type: 'string' } } } }, tool);
    expect(await call(host, 'tools.invoke', { qualifiedName: 'probe:peek', args: { file: 'Journal/x/../today' } })).toMatchObject({ ok: true });
    expect(tool.calls[0]!.args.file).toBe('Journal/today');

    await call(host, 'settings.update', { patch: { safety: { workbench: { allowedReadPaths: ['Journal'] } } } });
    expect(await call(host, 'tools.invoke', { qualifiedName: 'probe:peek', args: { file: 'Journal/a' } })).toMatchObject({ ok: true });
    expect(await call(host, 'tools.invoke', { qualifiedName: 'probe:peek', args: { file: 'Journal-private/a' } })).toMatchObject({ ok: false, error: { code: 'PATH_NOT_ALLOWED', path: '/file' } });
    expect(tool.calls).toHaveLength(2);
  });

  it("a council member's allowedReadPaths / allowedWritePaths bound its tool calls", async () => {
    host = await safetyHost({ policy: patternApprovalPolicy(['probe:*']) });
    const tool = probe();
    register(
      host,
      { name: 'copy_page', mode: 'write', council_eligible: true, read_path_param: 'from', write_path_param: 'to', parameters: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' } }, required: ['from', 'to'] } },
      tool,
    );
    let planned: Record<string, unknown> = { from: 'Journal/a', to: 'Drafts/b' };
    host.council.setSidecar(memorySidecar(undefined, () => planned));
    const added = await call<{ memberId: string }>(host, 'council.addMember', {
      packId: 'story-council',
      itemId: 'plot-enforcer',
      tools: ['probe:copy_page'],
      allowedReadPaths: ['Journal', 'Drafts'],
      allowedWritePaths: ['Drafts'],
    });
    const view = await call<{ members: Array<{ allowedReadPaths?: string[] }> }>(host, 'council.get', {});
    expect(view.members[0]!.allowedReadPaths).toEqual(['Journal', 'Drafts']);

    const ok = await call<CouncilRun>(host, 'council.run', { chat: sampleChat(), seed: 1 });
    expect(ok.results[0]).toMatchObject({ success: true, approval: 'policy' });
    planned = { from: 'Secret/a', to: 'Drafts/b' };
    const denied = await call<CouncilRun>(host, 'council.run', { chat: sampleChat(), seed: 1 });
    expect(denied.results[0]).toMatchObject({ success: false, errorCode: 'PATH_NOT_ALLOWED' });
    planned = { from: 'Journal/a', to: 'Journal/b' };
    expect((await call<CouncilRun>(host, 'council.run', { chat: sampleChat(), seed: 1 })).results[0]).toMatchObject({ errorCode: 'PATH_NOT_ALLOWED' });
    expect(tool.calls).toHaveLength(1);
    await call(host, 'council.setMember', { memberId: added.memberId, patch: { allowedWritePaths: ['Journal'], allowedReadPaths: ['Journal'] } });
    expect((await call<CouncilRun>(host, 'council.run', { chat: sampleChat(), seed: 1 })).results[0]).toMatchObject({ success: true });
  });
});
