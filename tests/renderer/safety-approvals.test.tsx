// @vitest-environment happy-dom
// The approval dialog against a fake host: what it shows, each answer, the queue, answers from elsewhere, the countdown,
// keyboard safety (Escape never answers, focus trapped and returned) and hostile strings kept as text.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byTestId, cleanup, FakeHost, key, navButton, renderShell, settle, spokenText, typeInto } from './harness';
import { approval, installSafety, XSS, type SafetyFakes } from './safety-fakes';

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  delete window.__pwned;
});

async function open(init: Partial<SafetyFakes> = {}) {
  const host = new FakeHost();
  const fakes = installSafety(host, init);
  const rendered = await renderShell(host);
  await settle();
  return { ...rendered, fakes };
}

const dialogOf = (root: ParentNode) => root.querySelector<HTMLElement>('[role="dialog"]');

describe('approval dialog', () => {
  it('loads pending approvals on connect and shows member, tool, reason, description, arguments and the diff', async () => {
    const { container } = await open({ queue: [approval()] });
    const dialog = dialogOf(container)!;
    expect(dialog).not.toBeNull();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(byTestId(dialog, 'approval-who').textContent).toBe('Archivist Wren – Continuity');
    expect(byTestId(dialog, 'approval-tool').textContent).toBe('Create note');
    expect(byTestId(dialog, 'approval-qname').textContent).toBe('notes:create_note');
    expect(byTestId(dialog, 'approval-reason').textContent).toBe('requires approval');
    expect(dialog.textContent).toContain('write');
    expect(byTestId(dialog, 'approval-description').textContent).toBe('Create a new page (fails if it exists).');
    expect(byTestId(dialog, 'approval-args').textContent).toBe(JSON.stringify({ page: 'Plans/Trip', content: 'pack the tent\nbuy stove fuel' }, null, 2));
    const diff = byTestId(dialog, 'approval-diff');
    expect(byTestId(diff, 'diff-path').textContent).toBe('Plans/Trip.md');
    expect(byTestId(diff, 'diff-created').textContent).toBe('new file');
    expect(diff.querySelectorAll('.diff__line--add')).toHaveLength(2);
    expect(diff.querySelector('.diff__line--add')!.textContent).toContain('+pack the tent');
    expect(diff.querySelector('[data-testid="diff-inferred"]')).toBeNull();
    // The rest of the window is inert while it shows.
    expect(container.querySelector('.shell')!.hasAttribute('inert')).toBe(true);
  });

  it('names the origin when no member asks, says "write policy", and notes an inferred preview', async () => {
    const request = approval({
      memberName: null,
      memberRole: null,
      origin: 'manual',
      reason: 'write_policy',
      diff: { path: 'a.md', before: 'old\n', after: 'new\n', unified: '--- a/a.md\n+++ b/a.md\n@@ -1 +1 @@\n-old\n+new\n', created: false, inferred: true },
    });
    const { container } = await open({ queue: [request] });
    const dialog = dialogOf(container)!;
    expect(byTestId(dialog, 'approval-who').textContent).toBe('Try it (Tools section)');
    expect(byTestId(dialog, 'approval-reason').textContent).toBe('write policy');
    expect(byTestId(dialog, 'diff-inferred').textContent).toContain('assumes the tool writes the whole file');
    expect(dialog.querySelector('[data-testid="diff-created"]')).toBeNull();
    expect(dialog.querySelector('.diff__line--del')!.textContent).toContain('-old');
  });

  it('Approve once sends the argsHash of the request shown, then closes and returns focus', async () => {
    const host = new FakeHost();
    const fakes = installSafety(host);
    const { container, store } = await renderShell(host);
    const council = navButton(container, 'Tools');
    council.focus();
    await settle(() => {
      fakes.queue.push(approval());
      host.emit({ type: 'approval.requested', request: approval() });
    });
    const dialog = dialogOf(container)!;
    // Focus starts on the title, never on Approve.
    expect(document.activeElement?.id).toBe(dialog.getAttribute('aria-labelledby'));
    await settle(() => byTestId(dialog, 'approve-once').click());
    expect(host.callsTo('approvals.respond').map((c) => c.input)).toEqual([{ id: 'ap-1', argsHash: 'c'.repeat(64), decision: 'once' }]);
    expect(dialogOf(container)).toBeNull();
    expect(store.getState().approvals.queue).toHaveLength(0);
    expect(document.activeElement).toBe(council);
    expect(container.querySelector('.shell')!.hasAttribute('inert')).toBe(false);
  });

  it('Always allow sends decision "always"', async () => {
    const { container, host } = await open({ queue: [approval()] });
    await settle(() => byTestId(dialogOf(container)!, 'approve-always').click());
    expect(host.callsTo('approvals.respond').map((c) => c.input)).toEqual([{ id: 'ap-1', argsHash: 'c'.repeat(64), decision: 'always' }]);
    expect(dialogOf(container)).toBeNull();
  });

  it('Reject sends the optional message (trimmed), and no message when it is blank', async () => {
    const { container, host } = await open({ queue: [approval(), approval({ id: 'ap-2', argsHash: 'd'.repeat(64) })] });
    let dialog = dialogOf(container)!;
    await settle(() => typeInto(byTestId(dialog, 'approval-message') as HTMLTextAreaElement, '  Append to the existing note instead  '));
    await settle(() => byTestId(dialog, 'approve-reject').click());
    dialog = dialogOf(container)!;
    expect(dialog.dataset.requestId).toBe('ap-2');
    // The message box starts empty for the next request.
    expect((byTestId(dialog, 'approval-message') as HTMLTextAreaElement).value).toBe('');
    await settle(() => byTestId(dialog, 'approve-reject').click());
    expect(host.callsTo('approvals.respond').map((c) => c.input)).toEqual([
      { id: 'ap-1', argsHash: 'c'.repeat(64), decision: 'reject', message: 'Append to the existing note instead' },
      { id: 'ap-2', argsHash: 'd'.repeat(64), decision: 'reject' },
    ]);
  });

  it('queues several requests: "1 of 2", then the next one after an answer', async () => {
    const second = approval({ id: 'ap-2', toolQualifiedName: 'notes:update_note', toolDisplayName: 'Update note', argsHash: 'e'.repeat(64), diff: undefined });
    const { container, host } = await open({ queue: [approval()] });
    await settle(() => host.emit({ type: 'approval.requested', request: second }));
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
    expect(host.callsTo('approvals.respond').map((c) => (c.input as { argsHash: string }).argsHash)).toEqual(['c'.repeat(64), 'e'.repeat(64)]);
  });

  it('closes when approval.resolved says it was answered elsewhere (or timed out)', async () => {
    const { container, host } = await open({ queue: [approval(), approval({ id: 'ap-2' })] });
    await settle(() => host.emit({ type: 'approval.resolved', id: 'ap-1', toolQualifiedName: 'notes:create_note', resolution: 'once' }));
    expect(dialogOf(container)!.dataset.requestId).toBe('ap-2');
    expect(spokenText(dialogOf(container)!)).toContain('Previous request approved once.');
    // An unknown id changes nothing.
    await settle(() => host.emit({ type: 'approval.resolved', id: 'nope', toolQualifiedName: 'x', resolution: 'timeout' }));
    expect(dialogOf(container)!.dataset.requestId).toBe('ap-2');
    await settle(() => host.emit({ type: 'approval.resolved', id: 'ap-2', toolQualifiedName: 'notes:create_note', resolution: 'timeout' }));
    expect(dialogOf(container)).toBeNull();
    expect(host.callsTo('approvals.respond')).toHaveLength(0);
  });

  it('counts down to the deadline', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(Date.UTC(2026, 0, 2, 9, 30, 0));
    const { container } = await open({ queue: [approval({ deadline: Date.UTC(2026, 0, 2, 9, 31, 5) })] });
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
    const { container, host } = await open({ queue: [approval()] });
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
    const { container } = await open({
      queue: [approval()],
      respond: () => ({ ok: false, error: { code: 'HOST_TIMEOUT', message: 'The host did not answer.' } }),
    });
    await settle(() => byTestId(dialogOf(container)!, 'approve-once').click());
    const dialog = dialogOf(container)!;
    expect(byTestId(dialog, 'approval-error').dataset.code).toBe('HOST_TIMEOUT');
    expect(dialog.dataset.requestId).toBe('ap-1');
  });

  it('renders hostile description, arguments, names and diff as text', async () => {
    const request = approval({
      toolDisplayName: XSS,
      description: `Does things ${XSS}`,
      memberName: XSS,
      memberRole: XSS,
      args: { page: XSS, content: XSS },
      argsJson: JSON.stringify({ content: XSS, page: XSS }),
      diff: { path: XSS, before: '', after: XSS, unified: `--- a/x\n+++ b/x\n@@ -0,0 +1,${XSS.split('\n').length} @@\n${XSS.split('\n').map((line) => `+${line}`).join('\n')}\n`, created: true, inferred: true },
    });
    const { container } = await open({ queue: [request] });
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
    const { container } = await open({ queue: [approval(), approval({ id: 'ap-2' })] });
    await settle(() => byTestId(dialogOf(container)!, 'approve-once').click());
    await settle(() => byTestId(dialogOf(container)!, 'approve-reject').click());
    await settle(() => navButton(container, 'Safety').click());
    expect(byTestId(container, 'pending-approvals').textContent).toBe('No tool call is waiting for approval.');
  });
});
