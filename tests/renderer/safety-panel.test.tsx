// @vitest-environment happy-dom
// The Safety section, member path lists, cache figures, Try it's dry run and flags, and tool-call card badges.
import { afterEach, describe, expect, it } from 'vitest';
import { installCouncil, member } from './council-fixtures';
import { ToolCallCard, cardFromRecord } from '../../renderer/src/features/workbench/ToolCallCard';
import { byLabel, byTestId, buttonNamed, cleanup, FakeHost, navButton, renderShell, settle, tool, typeInto } from './harness';
import { cacheStatsOf, installSafety, XSS, type SafetyFakes } from './safety-fakes';

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

afterEach(() => {
  cleanup();
  delete window.__pwned;
});

async function openSafety(init: Partial<SafetyFakes> = {}, setup: (host: FakeHost) => void = () => undefined) {
  const host = new FakeHost();
  const fakes = installSafety(host, init);
  setup(host);
  const rendered = await renderShell(host);
  await settle(() => navButton(rendered.container, 'Safety').click());
  await settle();
  return { ...rendered, fakes, panel: byTestId(rendered.container, 'panel-safety') };
}

const HASH = 'f'.repeat(64);

describe('Safety section', () => {
  it('lists always-allowed tools, flags changed ones, and revokes', async () => {
    const { panel, host } = await openSafety({
      allowed: [
        { qualifiedName: 'notes:update_note', definitionHash: HASH, grantedAt: Date.UTC(2026, 0, 1), displayName: 'Update note', current: true },
        { qualifiedName: 'scratchpad:append_note', definitionHash: HASH, displayName: XSS, current: false },
      ],
    });
    const rows = panel.querySelectorAll<HTMLElement>('[data-testid="allowed-entry"]');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.querySelector('[data-testid="allowed-stale"]')).toBeNull();
    expect(byTestId(rows[1]!, 'allowed-stale').textContent).toBe('changed since — will ask again');
    expect(rows[1]!.querySelector('img')).toBeNull();
    expect(rows[1]!.textContent).toContain(XSS);
    await settle(() => buttonNamed(panel, 'Revoke Update note').click());
    expect(host.callsTo('approvals.allowed.revoke').map((c) => c.input)).toEqual([{ qualifiedName: 'notes:update_note' }]);
    expect(panel.querySelectorAll('[data-testid="allowed-entry"]')).toHaveLength(1);
  });

  it('reloads the list when the host says it changed', async () => {
    const { panel, host, fakes } = await openSafety();
    expect(byTestId(panel, 'always-allowed-empty')).toBeTruthy();
    fakes.allowed.push({ qualifiedName: 'notes:create_note', definitionHash: HASH, displayName: 'Create note', current: true });
    await settle(() => host.emit({ type: 'approvals.allowed.changed' }));
    expect(panel.querySelectorAll('[data-testid="allowed-entry"]')).toHaveLength(1);
  });

  it('toggles "Ask before every write tool" and the dry-run default, sending only what changed', async () => {
    const { panel, host } = await openSafety();
    const writes = byTestId(panel, 'approve-all-writes') as HTMLInputElement;
    const dry = byTestId(panel, 'dry-run-default') as HTMLInputElement;
    expect(writes.checked).toBe(true);
    expect(dry.checked).toBe(false);
    await settle(() => writes.click());
    await settle(() => dry.click());
    expect(host.callsTo('settings.update').map((c) => c.input)).toEqual([{ patch: { safety: { approveAllWrites: false } } }, { patch: { safety: { dryRun: true } } }]);
    expect((byTestId(panel, 'approve-all-writes') as HTMLInputElement).checked).toBe(false);
    expect((byTestId(panel, 'dry-run-default') as HTMLInputElement).checked).toBe(true);
    expect(host.settings.safety!.approveAllWrites).toBe(false);
  });

  it('edits the Workbench path lists: no restriction, an empty list, and prefixes', async () => {
    const { panel, host } = await openSafety();
    const reads = byTestId(byTestId(panel, 'workbench-paths'), 'paths-read');
    expect(byTestId(reads, 'paths-state').textContent).toContain('Any path inside the notes folder');
    await settle(() => byLabel(reads, 'Only these prefixes').click());
    expect(byTestId(reads, 'paths-state').textContent).toContain('Empty list: nothing may be read');
    await settle(() => buttonNamed(reads, 'Add prefix').click());
    await settle(() => typeInto(byLabel(reads, 'Read paths prefix 1'), ' Journal '));
    await settle(() => buttonNamed(reads, 'Save read paths').click());
    expect(host.callsTo('settings.update').map((c) => c.input)).toEqual([{ patch: { safety: { workbench: { allowedReadPaths: ['Journal'] } } } }]);
    expect(host.settings.safety!.workbench.allowedReadPaths).toEqual(['Journal']);
    // Back to no restriction: the host cannot drop a list, so "." (the whole notes folder) is saved.
    await settle(() => byLabel(reads, 'No restriction').click());
    await settle(() => buttonNamed(reads, 'Save read paths').click());
    expect(host.settings.safety!.workbench.allowedReadPaths).toEqual(['.']);
    expect((byLabel(reads, 'No restriction') as HTMLInputElement).checked).toBe(true);
  });
});

describe('member path lists', () => {
  it('edits a member’s read and write prefixes and saves them with council.setMember', async () => {
    const host = new FakeHost();
    installSafety(host);
    const council = installCouncil(host);
    council.settings.members = [member({ allowedWritePaths: [] })];
    const { container } = await renderShell(host);
    await settle(() => navButton(container, 'Council').click());
    await settle();
    const card = byTestId(container, 'member');
    expect(byTestId(card, 'member-paths-summary').textContent).toBe('read: no restriction · write: nothing');
    await settle(() => byTestId(card, 'member-paths-toggle').click());
    const writes = byTestId(card, 'paths-write');
    expect(byTestId(writes, 'paths-state').textContent).toContain('Empty list: nothing may be written');
    await settle(() => buttonNamed(writes, 'Add prefix').click());
    await settle(() => typeInto(byLabel(writes, 'Write paths prefix 1'), 'Plans'));
    await settle(() => buttonNamed(writes, 'Add prefix').click());
    await settle(() => typeInto(byLabel(writes, 'Write paths prefix 2'), 'Journal/2026'));
    await settle(() => buttonNamed(writes, 'Save write paths').click());
    expect(host.callsTo('council.setMember').map((c) => c.input)).toEqual([{ memberId: 'm-vane', patch: { allowedWritePaths: ['Plans', 'Journal/2026'] } }]);
    expect(council.settings.members[0]!.allowedWritePaths).toEqual(['Plans', 'Journal/2026']);
    // Remove one row and save again.
    await settle(() => buttonNamed(writes, 'Remove write paths prefix Plans').click());
    await settle(() => buttonNamed(writes, 'Save write paths').click());
    expect(council.settings.members[0]!.allowedWritePaths).toEqual(['Journal/2026']);
    const reads = byTestId(card, 'paths-read');
    await settle(() => byLabel(reads, 'Only these prefixes').click());
    await settle(() => buttonNamed(reads, 'Save read paths').click());
    expect(council.settings.members[0]!.allowedReadPaths).toEqual([]);
  });
});

describe('Tools: cache figures, dry run and flags', () => {
  const cachedTool = tool();
  const writeTool = tool({ name: 'append_note', displayName: 'Append to Scratchpad', extensionId: 'scratchpad', mode: 'write', requiresApproval: true, parameters: { type: 'object', properties: { text: { type: 'string' } } } });

  async function openTool(t: typeof cachedTool, init: Partial<SafetyFakes> = {}) {
    const host = new FakeHost();
    host.tools = [cachedTool, writeTool];
    const fakes = installSafety(host, init);
    const rendered = await renderShell(host);
    await settle(() => navButton(rendered.container, 'Tools').click());
    await settle(() => rendered.container.querySelector<HTMLButtonElement>(`button[data-qualified-name="${t.qualifiedName}"]`)!.click());
    await settle();
    return { ...rendered, fakes, details: byTestId(rendered.container, 'tool-details') };
  }

  it('shows hits, misses, hit rate, size and evictions, refreshes after Try it, and clears', async () => {
    const { details, host, fakes } = await openTool(cachedTool, { caches: { [cachedTool.qualifiedName]: cacheStatsOf(cachedTool.qualifiedName) } });
    const metrics = byTestId(details, 'cache-metrics');
    expect(byTestId(metrics, 'cache-hits').textContent).toBe('6');
    expect(byTestId(metrics, 'cache-misses').textContent).toBe('2');
    expect(byTestId(metrics, 'cache-hit-rate').textContent).toBe('75%');
    expect(byTestId(metrics, 'cache-size').textContent).toBe('3 / 50');
    expect(byTestId(metrics, 'cache-evictions').textContent).toBe('1');
    host.handlers['tools.invoke'] = () => ({ ok: true, value: { ok: true, content: 'found', durationMs: 1, cached: true } });
    fakes.caches[cachedTool.qualifiedName]!.hits = 7;
    await settle(() => typeInto(byLabel(details, /^query/i), 'tents'));
    await settle(() => byTestId(details, 'try-it-run').click());
    expect(byTestId(details, 'cache-hits').textContent).toBe('7');
    expect(byTestId(details, 'try-it-flags').textContent).toBe('cached');
    await settle(() => byTestId(details, 'cache-clear').click());
    expect(host.callsTo('tools.clearCache').map((c) => c.input)).toEqual([{ qualifiedName: cachedTool.qualifiedName }]);
    expect(byTestId(details, 'cache-size').textContent).toBe('0 / 50');
    expect(details.textContent).toContain('Cleared 3 entries.');
  });

  it('shows nothing for a tool without a cache', async () => {
    const { details } = await openTool(cachedTool);
    expect(details.querySelector('[data-testid="cache-metrics"]')).toBeNull();
  });

  it('Try it sends dryRun for a write tool and shows simulated / unvalidated', async () => {
    const { details, host } = await openTool(writeTool);
    host.handlers['tools.invoke'] = () => ({ ok: true, value: { ok: true, content: '', durationMs: 1, simulated: true, unvalidated: true } });
    await settle(() => (byTestId(details, 'try-it-dry-run') as HTMLInputElement).click());
    await settle(() => byTestId(details, 'try-it-run').click());
    expect(host.callsTo('tools.invoke').map((c) => (c.input as { dryRun?: boolean }).dryRun)).toEqual([true]);
    expect(byTestId(details, 'try-it-flags').textContent).toBe('simulatedunvalidated');
  });

  it('Try it shows a rejection with the person’s message as text', async () => {
    const { details, host } = await openTool(writeTool);
    host.handlers['tools.invoke'] = () => ({
      ok: true,
      value: { ok: false, error: { code: 'APPROVAL_REJECTED', message: 'The user rejected the call.' }, durationMs: 5, rejectionNote: XSS },
    });
    await settle(() => byTestId(details, 'try-it-run').click());
    expect(byTestId(details, 'tool-error').dataset.code).toBe('APPROVAL_REJECTED');
    expect(byTestId(details, 'tool-error').textContent).toContain('You rejected the call');
    expect(byTestId(details, 'rejection-note').textContent).toBe(`Your message: “${XSS}”`);
    expect(details.querySelector('img')).toBeNull();
  });
});

describe('Workbench tool-call cards', () => {
  it('badge simulated, unvalidated and cached results', async () => {
    const host = new FakeHost();
    installSafety(host);
    const record = { id: 'c1', name: 'notes__create_note', qualifiedName: 'notes:create_note', argsText: '{}', ok: true, result: 'would create', round: 1, simulated: true, unvalidated: true };
    const cached = { id: 'c2', name: 'kb__search', qualifiedName: 'kb:search', argsText: '{}', ok: true, result: 'hit', round: 1, cached: true };
    const plain = { id: 'c3', name: 'kb__search', qualifiedName: 'kb:search', argsText: '{}', ok: true, result: 'x', round: 1 };
    const { container } = await renderShell(
      host,
      <ul>
        <ToolCallCard card={cardFromRecord(record, 0)} live={false} />
        <ToolCallCard card={cardFromRecord(cached, 1)} live={false} />
        <ToolCallCard card={cardFromRecord(plain, 2)} live={false} />
      </ul>,
    );
    const cards = container.querySelectorAll<HTMLElement>('[data-testid="tool-call"]');
    expect(byTestId(cards[0]!, 'tool-call-flags').textContent).toBe('simulatedunvalidated');
    expect(byTestId(cards[1]!, 'tool-call-flags').textContent).toBe('cached');
    expect(cards[2]!.querySelector('[data-testid="tool-call-flags"]')).toBeNull();
  });
});
