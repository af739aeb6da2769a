// The built-in note tools: names, every operation, diff previews in approvals, concurrent writes, rename with link updates.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { patternApprovalPolicy } from '../../../electron/core/safety/approval-policy';
import { parseNoteName } from '../../../electron/core/notes/note-names';
import { readFrontmatter, updateFrontmatter } from '../../../electron/core/notes/markdown';
import { unifiedDiff } from '../../../shared/text/line-diff';
import type { ToolInfo, ToolOutcome } from '../../../shared/types/tools';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { approvalRequested, call, safetyHost, type SafetyHost } from './helpers';

let host: SafetyHost;
afterEach(async () => {
  await host?.dispose();
  cleanupTempDirs();
});

const note = (tool: string, args: Record<string, unknown>) => call<ToolOutcome>(host, 'tools.invoke', { qualifiedName: `notes:${tool}`, args });
const file = (name: string) => path.join(host.dataDir, 'notes', ...`${name}.md`.split('/'));
const text = (name: string) => fs.readFileSync(file(name), 'utf8');
const ok = (outcome: ToolOutcome) => {
  if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
  return outcome.content;
};

describe('note tools', () => {
  it('are registered as builtin source `notes`: reads are read-only, writes need approval and declare their path params', async () => {
    host = await safetyHost();
    const tools = await call<ToolInfo[]>(host, 'tools.list', { source: 'builtin' });
    const notes = tools.filter((t) => t.qualifiedName.startsWith('notes:'));
    expect(notes.map((t) => `${t.name}:${t.mode}:${t.requiresApproval}`).sort()).toEqual([
      'create_note:write:true',
      'get_page_info:read:false',
      'list_pages:read:false',
      'read_note:read:false',
      'rename_note:write:true',
      'search_replace:write:true',
      'update_frontmatter:write:true',
      'update_note:write:true',
    ]);
    expect(host.registry.getDefinition('notes:rename_note')).toMatchObject({ write_path_param: ['page', 'newName'] });
    expect(host.registry.getDefinition('notes:read_note')).toMatchObject({ read_path_param: ['page'] });
  });

  it('create, read (whole or one section), update (replace/append/prepend, per section), search/replace, frontmatter, info, list', async () => {
    host = await safetyHost({ policy: patternApprovalPolicy(['notes:*']) });
    ok(await note('create_note', { page: 'Journal/Day 1', content: '---\ntitle: Day one\ntags: [a, b]\n---\n# Day 1\n\n## Morning\nTea.\n\n## Evening\nSee [[Ideas]] and [[Ideas#Big|the big one]].\n' }));
    expect(await note('create_note', { page: 'Journal/Day 1', content: 'again' })).toMatchObject({ ok: false, error: { code: 'NOTE_EXISTS' } });
    expect(ok(await note('read_note', { page: 'Journal/Day 1', section: 'morning' }))).toBe('## Morning\nTea.');
    expect(await note('read_note', { page: 'Journal/Day 1', section: 'Night' })).toMatchObject({ ok: false, error: { code: 'SECTION_NOT_FOUND' } });
    expect(await note('read_note', { page: 'Nope' })).toMatchObject({ ok: false, error: { code: 'NOTE_NOT_FOUND' } });

    ok(await note('update_note', { page: 'Journal/Day 1', section: 'Morning', content: 'Coffee.', mode: 'append' }));
    expect(ok(await note('read_note', { page: 'Journal/Day 1', section: 'Morning' }))).toBe('## Morning\nTea.\nCoffee.');
    ok(await note('update_note', { page: 'Journal/Day 1', section: 'Evening', content: 'Early night.', mode: 'replace' }));
    expect(text('Journal/Day 1')).toContain('## Evening\nEarly night.\n');
    ok(await note('update_note', { page: 'Journal/Day 1', content: 'Prepended.', mode: 'prepend' }));
    expect(text('Journal/Day 1').startsWith('---\ntitle: Day one\ntags: [a, b]\n---\nPrepended.\n# Day 1')).toBe(true);
    ok(await note('update_note', { page: 'Journal/Day 1', content: 'The end. [[Ideas]]', mode: 'append' }));
    expect(text('Journal/Day 1').endsWith('Early night.\nThe end. [[Ideas]]')).toBe(true);

    ok(await note('create_note', { page: 'Ideas', content: 'one two one two one' }));
    ok(await note('search_replace', { page: 'Ideas', search: 'one', replace: '1' }));
    expect(text('Ideas')).toBe('1 two one two one');
    ok(await note('search_replace', { page: 'Ideas', search: 'one', replace: 'ONE', occurrence: 'nth', n: 2 }));
    expect(text('Ideas')).toBe('1 two one two ONE');
    ok(await note('search_replace', { page: 'Ideas', search: 'two', replace: '2', occurrence: 'all' }));
    expect(text('Ideas')).toBe('1 2 one 2 ONE');
    expect(await note('search_replace', { page: 'Ideas', search: 'zzz', replace: 'y' })).toMatchObject({ ok: false, error: { code: 'TEXT_NOT_FOUND' } });
    expect(await note('search_replace', { page: 'Ideas', search: 'one', replace: 'y', occurrence: 'nth', n: 5 })).toMatchObject({ ok: false, error: { code: 'TEXT_NOT_FOUND' } });

    ok(await note('update_frontmatter', { page: 'Journal/Day 1', set: { title: 'Day: one', mood: 3, done: true }, remove: ['tags'] }));
    expect(text('Journal/Day 1').startsWith('---\ntitle: "Day: one"\nmood: 3\ndone: true\n---\nPrepended.')).toBe(true);
    ok(await note('update_frontmatter', { page: 'Ideas', set: { status: 'draft' } }));
    expect(text('Ideas')).toBe('---\nstatus: draft\n---\n1 2 one 2 ONE');

    const info = JSON.parse(ok(await note('get_page_info', { page: 'Journal/Day 1' }))) as Record<string, unknown>;
    expect(info).toMatchObject({
      page: 'Journal/Day 1',
      bytes: Buffer.byteLength(text('Journal/Day 1')),
      headings: [{ level: 1, text: 'Day 1' }, { level: 2, text: 'Morning' }, { level: 2, text: 'Evening' }],
      frontmatter: { title: 'Day: one', mood: 3, done: true },
      links: ['Ideas'],
    });
    expect(JSON.parse(ok(await note('list_pages', {})))).toEqual({ pages: ['Ideas', 'Journal/Day 1'] });
    expect(JSON.parse(ok(await note('list_pages', { folder: 'Journal' })))).toEqual({ pages: ['Journal/Day 1'] });
    expect(JSON.parse(ok(await note('list_pages', { recursive: false })))).toEqual({ pages: ['Ideas'] });
  });

  it('rename moves the note and updates [[links]] to it in other notes (anchors and labels kept)', async () => {
    host = await safetyHost({ policy: patternApprovalPolicy(['notes:*']) });
    ok(await note('create_note', { page: 'Ideas', content: '# Ideas' }));
    ok(await note('create_note', { page: 'Journal/Day', content: 'See [[Ideas]], [[Ideas#Big|big]] and [[Ideas.md]] but not [[Ideas2]].' }));
    expect(await note('rename_note', { page: 'Ideas', newName: 'Journal/Day' })).toMatchObject({ ok: false, error: { code: 'NOTE_EXISTS' } });
    const result = JSON.parse(ok(await note('rename_note', { page: 'Ideas', newName: 'Archive/Old ideas' }))) as Record<string, unknown>;
    expect(result).toEqual({ page: 'Archive/Old ideas', renamedFrom: 'Ideas', linksUpdatedIn: ['Journal/Day'] });
    expect(fs.existsSync(file('Ideas'))).toBe(false);
    expect(text('Archive/Old ideas')).toBe('# Ideas');
    expect(text('Journal/Day')).toBe('See [[Archive/Old ideas]], [[Archive/Old ideas#Big|big]] and [[Archive/Old ideas]] but not [[Ideas2]].');
  });

  it('note names: unicode and folders are fine; reserved, hidden, empty and control-character names are INVALID_NOTE_NAME', async () => {
    host = await safetyHost({ policy: patternApprovalPolicy(['notes:*']) });
    ok(await note('create_note', { page: '日記/2024 – été ✨', content: 'bonjour' }));
    expect(fs.readFileSync(path.join(host.dataDir, 'notes', '日記', '2024 – été ✨.md'), 'utf8')).toBe('bonjour');
    expect(ok(await note('read_note', { page: '日記/2024 – été ✨.md' }))).toBe('bonjour');
    for (const bad of ['CON', 'nul', 'Journal/aux.md', 'com1.txt', 'LPT9', '.hidden', 'Journal/.git/config', ' padded', 'trailing.', 'a<b', 'what?', 'tab\there', 'rtl\u202Eexe.md']) {
      const outcome = await note('create_note', { page: bad, content: 'x' });
      expect(outcome, bad).toMatchObject({ ok: false, error: { code: expect.stringMatching(/^(INVALID_NOTE_NAME|PATH_NOT_ALLOWED)$/) } });
    }
    // `..` and an empty name: the guard stops an escape first; the note tool itself refuses them too.
    expect(await note('read_note', { page: '..' })).toMatchObject({ ok: false, error: { code: 'PATH_NOT_ALLOWED' } });
    // `a/..` normalizes to "" (the folder itself), which the schema refuses before anything runs.
    expect(await note('read_note', { page: 'a/..' })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    // (Through the guard `a//b` is normalized to `a/b` first, and that is a fine name.)
    for (const bad of ['..', '', 'a/../b', '/abs', 'x/', 'a//b']) expect(parseNoteName(bad), JSON.stringify(bad)).toMatchObject({ ok: false, error: { code: 'INVALID_NOTE_NAME' } });
    expect(parseNoteName('Journal/Ünïcødé')).toEqual({ ok: true, value: { name: 'Journal/Ünïcødé', segments: ['Journal', 'Ünïcødé.md'] } });
    expect(fs.readdirSync(path.join(host.dataDir, 'notes')).sort()).toEqual(['日記']);
  });

  it('50 concurrent appends to one note: none lost, no torn file, no temp files left', async () => {
    host = await safetyHost({ policy: patternApprovalPolicy(['notes:*']) });
    ok(await note('create_note', { page: 'Log', content: 'start\n' }));
    const lines = Array.from({ length: 50 }, (_, i) => `line ${String(i).padStart(2, '0')} ${'x'.repeat(2000)}\n`);
    const outcomes = await Promise.all(lines.map((line) => note('update_note', { page: 'Log', content: line, mode: 'append' })));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    const final = text('Log').split('\n').filter(Boolean);
    expect(final).toHaveLength(51);
    expect(final[0]).toBe('start');
    expect(new Set(final.slice(1))).toEqual(new Set(lines.map((l) => l.trimEnd())));
    expect(fs.readdirSync(path.join(host.dataDir, 'notes'))).toEqual(['Log.md']);
  });

  it('rename updates links only in notes the caller may write; the others are named, untouched, in the result and the preview', async () => {
    host = await safetyHost();
    host.safety.approvals.setPolicy(patternApprovalPolicy(['notes:create_note']));
    ok(await note('create_note', { page: 'Drafts/a', content: 'draft' }));
    ok(await note('create_note', { page: 'Drafts/b', content: 'see [[Drafts/a]]' }));
    ok(await note('create_note', { page: 'World/c', content: 'see [[Drafts/a]]' }));
    await call(host, 'settings.update', { patch: { safety: { alwaysAllow: [], workbench: { allowedReadPaths: ['Drafts', 'World'], allowedWritePaths: ['Drafts'] } } } });
    host.safety.approvals.setPolicy((await import('../../../electron/core/safety/approval-policy')).interactiveApprovalPolicy);

    const pending = note('rename_note', { page: 'Drafts/a', newName: 'Drafts/a2' });
    const request = await approvalRequested(host);
    expect(request.diff?.unified).toContain('+++ b/Drafts/b.md');
    expect(request.diff?.unified).toContain('links left unchanged in World/c.md (outside the allowed write paths)');
    expect(request.diff?.unified).not.toContain('+++ b/World/c.md');
    await call(host, 'approvals.respond', { id: request.id, argsHash: request.argsHash, decision: 'once' });
    const result = JSON.parse(ok(await pending)) as Record<string, unknown>;
    expect(result).toMatchObject({ page: 'Drafts/a2', linksUpdatedIn: ['Drafts/b'], linksLeftUnchanged: ['World/c'] });
    expect(text('Drafts/b')).toBe('see [[Drafts/a2]]');
    expect(text('World/c')).toBe('see [[Drafts/a]]');
  });

  it('a write waits for approval with a unified diff preview computed by the host', async () => {
    host = await safetyHost();
    await call(host, 'settings.update', { patch: { safety: { alwaysAllow: [] } } });
    host.safety.approvals.setPolicy(patternApprovalPolicy(['notes:create_note']));
    ok(await note('create_note', { page: 'Plan', content: 'a\nb\nc\nd\ne\nf\ng\n' }));
    host.safety.approvals.setPolicy((await import('../../../electron/core/safety/approval-policy')).interactiveApprovalPolicy);

    const pending = note('search_replace', { page: 'Plan', search: 'd', replace: 'D' });
    const request = await approvalRequested(host);
    expect(request.diff).toEqual({
      path: 'Plan',
      before: 'a\nb\nc\nd\ne\nf\ng\n',
      after: 'a\nb\nc\nD\ne\nf\ng\n',
      unified: '--- a/Plan.md\n+++ b/Plan.md\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n',
      created: false,
      inferred: false,
    });
    await call(host, 'approvals.respond', { id: request.id, argsHash: request.argsHash, decision: 'once' });
    ok(await pending);
    expect(text('Plan')).toBe('a\nb\nc\nD\ne\nf\ng\n');

    const creating = note('create_note', { page: 'New', content: 'hello\n' });
    const second = await approvalRequested(host, 2);
    expect(second.diff).toMatchObject({ created: true, unified: '--- /dev/null\n+++ b/New.md\n@@ -0,0 +1,1 @@\n+hello\n' });
    await call(host, 'approvals.respond', { id: second.id, argsHash: second.argsHash, decision: 'reject' });
    expect(await creating).toMatchObject({ ok: false, error: { code: 'APPROVAL_REJECTED' } });
    expect(fs.existsSync(file('New'))).toBe(false);
  });
});

describe('markdown helpers and the line diff', () => {
  it('frontmatter keeps lines it does not understand and never reads prototype keys', () => {
    const page = '---\ntitle: A\nnested:\n  deep: 1\n# comment\n__proto__: x\n---\nbody';
    expect(readFrontmatter(page)).toEqual({ title: 'A', nested: null });
    expect(Object.getPrototypeOf(readFrontmatter(page))).toBe(Object.prototype);
    expect(updateFrontmatter(page, { nested: 'flat' }, [])).toBe('---\ntitle: A\nnested: flat\n# comment\n__proto__: x\n---\nbody');
    expect(updateFrontmatter('plain', { a: 'b c' }, [])).toBe('---\na: b c\n---\nplain');
  });

  it('unified diff hunks with context, far-apart changes in separate hunks', () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n');
    const after = before.replace('l2', 'L2').replace('l17', 'L17');
    const diff = unifiedDiff('f.md', before, after);
    expect(diff.match(/^@@/gm)).toHaveLength(2);
    expect(diff).toContain('@@ -1,6 +1,6 @@\n l0\n l1\n-l2\n+L2\n l3\n l4\n l5\n');
    expect(unifiedDiff('f', 'same', 'same')).toBe('');
  });
});
