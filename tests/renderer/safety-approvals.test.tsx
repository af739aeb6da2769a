// @vitest-environment real-core
// The approval dialog against the real core (in memory): tool calls that need a person (the note tools, and a hostile
// tool) wait in the core's approval queue; what the dialog shows, each answer, the queue, answers from elsewhere and
// timeouts, the countdown, keyboard safety (Escape never answers, focus trapped and returned) and hostile strings kept
// as text.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byTestId, cleanup, key, navButton, renderShell, settle, spokenText, typeInto } from './harness';
import { disposeAllHosts, RealHost } from './real-host';
import { FakeClock } from '../helpers/fake-time';
import { XSS, XSS_CORPUS } from '../fixtures/xss-corpus';
import { ask, registerTool, type Ask } from './real-safety';
import type { ApprovalRequest } from '../../shared/types/safety';

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
  vi.useRealTimers();
  delete window.__pwned;
});


/** The core with its timers on a fake clock (approval deadlines fire when the test says). */
async function start() {
  const timers = new FakeClock();
  const host = await RealHost.start({ timers });
  return { host, timers };
}

async function open(...asks: Ask[]) {
  const { host, timers } = await start();
  const requests: ApprovalRequest[] = [];
  for (const a of asks) requests.push((await ask(host, a)).request);
  const rendered = await renderShell(host);
  await settle();
  return { ...rendered, timers, requests };
}

const dialogOf = (root: ParentNode) => root.querySelector<HTMLElement>('[role="dialog"]');

/** A write tool whose names, description and preview are hostile, registered in the core like any builtin source. */
function installHostileTool(host: RealHost): string {
  const qualifiedName = registerTool(host, 'hostile', {
      name: 'hostile_write',
      // Display names are one line of at most 128 characters (the registry checks); descriptions take the whole corpus.
      display_name: XSS_CORPUS[1]!,
      description: `Does things ${XSS}`,
      parameters: { type: 'object', properties: { page: { type: 'string' }, content: { type: 'string' } }, required: ['page', 'content'] },
      mode: 'write',
      requires_approval: true,
  });
  const unified = `--- a/x\n+++ b/x\n@@ -0,0 +1,${XSS.split('\n').length} @@\n${XSS.split('\n').map((line) => `+${line}`).join('\n')}\n`;
  host.core.safety.guard.setPreviewProvider('hostile', async () => ({ path: XSS, before: '', after: XSS, unified, created: true, inferred: true }));
  return qualifiedName;
}

describe('approval dialog', () => {
  it('loads pending approvals on connect and shows member, tool, reason, description, arguments and the diff', async () => {
    const { container } = await open({});
    const dialog = dialogOf(container)!;
    expect(dialog).not.toBeNull();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(byTestId(dialog, 'approval-who').textContent).toBe('Archivist Wren – Continuity');
    expect(byTestId(dialog, 'approval-tool').textContent).toBe('Create note');
    expect(byTestId(dialog, 'approval-qname').textContent).toBe('notes:create_note');
    expect(byTestId(dialog, 'approval-reason').textContent).toBe('requires approval');
    expect(dialog.textContent).toContain('write');
    expect(byTestId(dialog, 'approval-description').textContent).toBe('Creates a new note with the given markdown; fails if a note with that name exists.');
    // As the core hashed them: keys sorted.
    expect(byTestId(dialog, 'approval-args').textContent).toBe(JSON.stringify({ content: 'pack the tent\nbuy stove fuel', page: 'Plans/Trip' }, null, 2));
    const diff = byTestId(dialog, 'approval-diff');
    expect(byTestId(diff, 'diff-path').textContent).toBe('Plans/Trip');
    expect(byTestId(diff, 'diff-created').textContent).toBe('new file');
    expect(diff.querySelectorAll('.diff__line--add')).toHaveLength(2);
    expect(diff.querySelector('.diff__line--add')!.textContent).toContain('+pack the tent');
    expect(diff.querySelector('[data-testid="diff-inferred"]')).toBeNull();
    // The rest of the window is inert while it shows.
    expect(container.querySelector('.shell')!.hasAttribute('inert')).toBe(true);
  });

  it('names the origin when no member asks, says "write policy", and notes an inferred preview', async () => {
    // A write tool that does not ask by itself asks under "approve all writes" (on by default); with one path and a
    // string content, the core infers its preview from the file that is there.
    const { host } = await start();
    const writeFile = registerTool(host, 'files', { name: 'write_file', display_name: 'Write file', description: 'Writes a file.', parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] }, mode: 'write', write_path_param: 'path' });
    // Paths relative to the notes folder are the Workbench's own.
    fs.mkdirSync(host.core.safety.notesRoot, { recursive: true });
    fs.writeFileSync(path.join(host.core.safety.notesRoot, 'a.md'), 'old\n');
    await ask(host, { tool: writeFile, args: { path: 'a.md', content: 'new\n' }, member: null });
    const { container } = await renderShell(host);
    await settle();
    const dialog = dialogOf(container)!;
    expect(byTestId(dialog, 'approval-who').textContent).toBe('Try it (Tools section)');
    expect(byTestId(dialog, 'approval-reason').textContent).toBe('write policy');
    expect(byTestId(dialog, 'diff-inferred').textContent).toContain('assumes the tool writes the whole file');
    expect(dialog.querySelector('[data-testid="diff-created"]')).toBeNull();
    expect(dialog.querySelector('.diff__line--del')!.textContent).toContain('-old');
  });

  it('Approve once sends the argsHash of the request shown, then closes and returns focus', async () => {
    const { host } = await start();
    const { container, store } = await renderShell(host);
    const council = navButton(container, 'Tools');
    council.focus();
    let asked!: Awaited<ReturnType<typeof ask>>;
    await settle(async () => void (asked = await ask(host)));
    const dialog = dialogOf(container)!;
    // Focus starts on the title, never on Approve.
    expect(document.activeElement?.id).toBe(dialog.getAttribute('aria-labelledby'));
    await settle(() => byTestId(dialog, 'approve-once').click());
    expect(host.callsTo('approvals.respond').map((c) => c.input)).toEqual([{ id: asked.request.id, argsHash: asked.request.argsHash, decision: 'once' }]);
    // The call ran: the note is there.
    expect(await asked.outcome).toMatchObject({ ok: true, approval: 'once' });
    expect(fs.readFileSync(path.join(host.core.safety.notesRoot, 'Plans/Trip.md'), 'utf8')).toContain('pack the tent');
    expect(dialogOf(container)).toBeNull();
    expect(store.getState().approvals.queue).toHaveLength(0);
    expect(document.activeElement).toBe(council);
    expect(container.querySelector('.shell')!.hasAttribute('inert')).toBe(false);
  });

  it('Always allow sends decision "always"', async () => {
    const { container, host, requests } = await open({});
    await settle(() => byTestId(dialogOf(container)!, 'approve-always').click());
    expect(host.callsTo('approvals.respond').map((c) => c.input)).toEqual([{ id: requests[0]!.id, argsHash: requests[0]!.argsHash, decision: 'always' }]);
    expect(dialogOf(container)).toBeNull();
    expect((await host.arrange('approvals.allowed.list', {})).map((a) => a.qualifiedName)).toEqual(['notes:create_note']);
  });

  it('Reject sends the optional message (trimmed), and no message when it is blank', async () => {
    const { container, host, requests } = await open({}, { args: { page: 'Plans/Other', content: 'x' } });
    let dialog = dialogOf(container)!;
    await settle(() => typeInto(byTestId(dialog, 'approval-message') as HTMLTextAreaElement, '  Append to the existing note instead  '));
    await settle(() => byTestId(dialog, 'approve-reject').click());
    dialog = dialogOf(container)!;
    expect(dialog.dataset.requestId).toBe(requests[1]!.id);
    // The message box starts empty for the next request.
    expect((byTestId(dialog, 'approval-message') as HTMLTextAreaElement).value).toBe('');
    await settle(() => byTestId(dialog, 'approve-reject').click());
    expect(host.callsTo('approvals.respond').map((c) => c.input)).toEqual([
      { id: requests[0]!.id, argsHash: requests[0]!.argsHash, decision: 'reject', message: 'Append to the existing note instead' },
      { id: requests[1]!.id, argsHash: requests[1]!.argsHash, decision: 'reject' },
    ]);
  });

  it('queues several requests: "1 of 2", then the next one after an answer', async () => {
    const { container, host, requests } = await open({});
    let second!: ApprovalRequest;
    // update_note on a page that is not there: nothing to preview.
    await settle(async () => void (second = (await ask(host, { tool: 'notes:update_note', args: { page: 'Missing', content: 'x' } })).request));
    expect(second.diff).toBeUndefined();
    let dialog = dialogOf(container)!;
    expect(byTestId(dialog, 'approval-position').textContent).toBe('1 of 2');
    expect(byTestId(dialog, 'approval-tool').textContent).toBe('Create note');
    await settle(() => byTestId(dialog, 'approve-once').click());
    dialog = dialogOf(container)!;
    expect(byTestId(dialog, 'approval-tool').textContent).toBe('Update note');
    expect(dialog.querySelector('[data-testid="approval-position"]')).toBeNull();
    expect(dialog.querySelector('[data-testid="approval-diff"]')).toBeNull();
    // Focus moved back to the title, so a second Enter cannot approve the next request by accident.
    expect(document.activeElement?.id).toBe(dialog.getAttribute('aria-labelledby'));
    await settle(() => byTestId(dialog, 'approve-once').click());
    expect(host.callsTo('approvals.respond').map((c) => (c.input as { argsHash: string }).argsHash)).toEqual([requests[0]!.argsHash, second.argsHash]);
  });

  it('closes when approval.resolved says it was answered elsewhere (or timed out)', async () => {
    const { container, host, requests, timers } = await open({ timeoutMs: 60_000 }, { args: { page: 'Plans/Other', content: 'x' }, timeoutMs: 30_000 });
    // Another window answers the first.
    await settle(async () => {
      await host.core.api.call('approvals.respond', { id: requests[0]!.id, argsHash: requests[0]!.argsHash, decision: 'once' }, { origin: 'ws' });
    });
    expect(dialogOf(container)!.dataset.requestId).toBe(requests[1]!.id);
    expect(spokenText(dialogOf(container)!)).toContain('Previous request approved once.');
    // An answer to something else (a request the core never had) changes nothing.
    await settle(async () => {
      await host.core.api.call('approvals.respond', { id: 'ap-nope', argsHash: requests[1]!.argsHash, decision: 'once' }, { origin: 'ws' });
    });
    expect(dialogOf(container)!.dataset.requestId).toBe(requests[1]!.id);
    // The second one's deadline passes in the core.
    await settle(() => timers.advance(30_000));
    expect(dialogOf(container)).toBeNull();
    expect(host.callsTo('approvals.respond')).toHaveLength(0);
  });

  it('counts down to the deadline', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(Date.UTC(2026, 0, 2, 9, 30, 0));
    // The core reads the same (fake) date: the call's deadline is 65 s from now, 09:31:05.
    const { container, requests } = await open({ timeoutMs: 65_000 });
    expect(requests[0]!.deadline).toBe(Date.UTC(2026, 0, 2, 9, 31, 5));
    const countdown = () => byTestId(dialogOf(container)!, 'approval-countdown');
    expect(countdown().textContent).toBe('1:05 left');
    expect(countdown().getAttribute('role')).toBe('timer');
    await settle(() => void vi.advanceTimersByTime(60_000));
    expect(countdown().textContent).toBe('0:05 left');
    expect(countdown().className).toContain('approval__countdown--low');
    await settle(() => void vi.advanceTimersByTime(6_000));
    expect(countdown().textContent).toBe('Time is up — not run');
  });

  it('Escape never answers: the dialog stays, a hint shows and focus goes to Reject; Tab stays inside', async () => {
    const { container, host } = await open({});
    const dialog = dialogOf(container)!;
    let event!: KeyboardEvent;
    await settle(() => void (event = key(document.activeElement!, { key: 'Escape' })));
    expect(event.defaultPrevented).toBe(true);
    expect(dialogOf(container)).not.toBeNull();
    expect(host.callsTo('approvals.respond')).toHaveLength(0);
    expect(dialog.textContent).toContain('Escape does not answer');
    expect(document.activeElement).toBe(byTestId(dialog, 'approve-reject'));
    // Reject is the last control: Tab wraps to the first one inside the dialog.
    const tab = key(document.activeElement!, { key: 'Tab' });
    expect(tab.defaultPrevented).toBe(true);
    expect(dialog.contains(document.activeElement)).toBe(true);
    // Focus that lands outside comes back.
    await settle(() => navButton(container, 'Tools').focus());
    expect(dialog.contains(document.activeElement)).toBe(true);
    // Section shortcuts do not switch panels behind it.
    const shortcut = key(document.activeElement!, { key: '2', ctrlKey: true });
    expect(shortcut.defaultPrevented).toBe(true);
  });

  it('shows a failed answer next to the buttons and keeps the request', async () => {
    const { container, host, requests } = await open({});
    // The answer is lost on the way (the transport's HOST_TIMEOUT): something the core itself never answers.
    host.overrides['approvals.respond'] = () => ({ ok: false, error: { code: 'HOST_TIMEOUT', message: 'The host did not answer.' } });
    await settle(() => byTestId(dialogOf(container)!, 'approve-once').click());
    const dialog = dialogOf(container)!;
    expect(byTestId(dialog, 'approval-error').dataset.code).toBe('HOST_TIMEOUT');
    expect(dialog.dataset.requestId).toBe(requests[0]!.id);
    expect(await host.arrange('approvals.list', {})).toHaveLength(1);
  });

  it('renders hostile description, arguments, names and diff as text', async () => {
    const { host } = await start();
    const tool = installHostileTool(host);
    await ask(host, { tool, args: { page: XSS, content: XSS }, member: { name: XSS, role: XSS } });
    const { container } = await renderShell(host);
    await settle();
    const dialog = dialogOf(container)!;
    expect(dialog.querySelector('img')).toBeNull();
    expect(window.__pwned).toBeUndefined();
    expect(byTestId(dialog, 'approval-description').textContent).toBe(`Does things ${XSS}`);
    expect(byTestId(dialog, 'approval-args').textContent).toContain(JSON.stringify(XSS).slice(1, -1));
    expect(byTestId(dialog, 'diff-path').textContent).toBe(XSS);
    // The hostile text is several lines: each is an added line of the diff, as text.
    const added = [...dialog.querySelectorAll('.diff__line--add')].map((line) => line.textContent ?? '');
    for (const line of XSS.split('\n')) expect(added.some((text) => text.includes(`+${line}`))).toBe(true);
    expect(byTestId(dialog, 'approval-who').textContent).toBe(`${XSS} – ${XSS}`);
  });

  it('the Safety section counts what waits', async () => {
    const { container, host } = await open({}, { args: { page: 'Plans/Other', content: 'x' } });
    await settle(() => byTestId(dialogOf(container)!, 'approve-once').click());
    await settle(() => byTestId(dialogOf(container)!, 'approve-reject').click());
    await settle(() => navButton(container, 'Safety').click());
    expect(byTestId(container, 'pending-approvals').textContent).toBe('No tool call is waiting for approval.');
    expect(await host.arrange('approvals.list', {})).toEqual([]);
  });
});
