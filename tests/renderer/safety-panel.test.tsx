// @vitest-environment real-core
// The Safety section, member path lists, cache figures, Try it's dry run and flags, and tool-call card badges, against
// the real core (in memory): allowed tools, settings, council members and tool caches are the core's own.
import { afterEach, describe, expect, it } from 'vitest';
import { ToolCallCard, cardFromRecord } from '../../renderer/src/features/workbench/ToolCallCard';
import { byLabel, byTestId, buttonNamed, cleanup, navButton, renderShell, settle, typeInto } from './harness';
import { BUNDLED_PACKS, disposeAllHosts, RealHost, type RealHostOptions } from './real-host';
import { ask, registerTool } from './real-safety';
import { XSS, XSS_CORPUS } from '../fixtures/xss-corpus';

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
  delete window.__pwned;
});

async function openSafety(arrange: (host: RealHost) => Promise<unknown> = async () => undefined, options: RealHostOptions = {}) {
  const host = await RealHost.start(options);
  await arrange(host);
  const rendered = await renderShell(host);
  await settle(() => navButton(rendered.container, 'Safety').click());
  await settle();
  return { ...rendered, panel: byTestId(rendered.container, 'panel-safety') };
}

const HASH = 'f'.repeat(64);

describe('Safety section', () => {
  it('lists always-allowed tools, flags changed ones, and revokes', async () => {
    const { panel, host } = await openSafety(async (h) => {
      // A hostile tool that was allowed in an earlier definition (its hash no longer matches).
      registerTool(h, 'scratchpad', { name: 'append_note', display_name: XSS_CORPUS[1]!, description: 'Appends.', parameters: { type: 'object', properties: {} }, mode: 'write' });
      const current = h.core.registry.get('notes:update_note')!.definitionHash;
      await h.arrange('settings.update', {
        patch: {
          safety: {
            alwaysAllow: [
              { qualifiedName: 'notes:update_note', definitionHash: current, grantedAt: Date.UTC(2026, 0, 1) },
              { qualifiedName: 'scratchpad:append_note', definitionHash: HASH },
            ],
          },
        },
      });
    });
    const rows = panel.querySelectorAll<HTMLElement>('[data-testid="allowed-entry"]');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.querySelector('[data-testid="allowed-stale"]')).toBeNull();
    expect(byTestId(rows[1]!, 'allowed-stale').textContent).toBe('changed since — will ask again');
    expect(rows[1]!.querySelector('img')).toBeNull();
    expect(rows[1]!.textContent).toContain(XSS_CORPUS[1]);
    await settle(() => buttonNamed(panel, 'Revoke Update note').click());
    expect(host.callsTo('approvals.allowed.revoke').map((c) => c.input)).toEqual([{ qualifiedName: 'notes:update_note' }]);
    expect(panel.querySelectorAll('[data-testid="allowed-entry"]')).toHaveLength(1);
    expect(host.core.settings.get().safety!.alwaysAllow.map((a) => a.qualifiedName)).toEqual(['scratchpad:append_note']);
  });

  it('reloads the list when the host says it changed', async () => {
    const { panel, host } = await openSafety();
    expect(byTestId(panel, 'always-allowed-empty')).toBeTruthy();
    // Someone else (another window) answers a council member's call with "always".
    await settle(async () => {
      const { request } = await ask(host);
      await host.core.api.call('approvals.respond', { id: request.id, argsHash: request.argsHash, decision: 'always' }, { origin: 'ws' });
    });
    const rows = panel.querySelectorAll('[data-testid="allowed-entry"]');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.textContent).toContain('Create note');
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
    expect(host.core.settings.get().safety).toMatchObject({ approveAllWrites: false, dryRun: true });
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
    expect(host.core.settings.get().safety!.workbench.allowedReadPaths).toEqual(['Journal']);
    // Back to no restriction: the host cannot drop a list, so "." (the whole notes folder) is saved.
    await settle(() => byLabel(reads, 'No restriction').click());
    await settle(() => buttonNamed(reads, 'Save read paths').click());
    expect(host.core.settings.get().safety!.workbench.allowedReadPaths).toEqual(['.']);
    expect((byLabel(reads, 'No restriction') as HTMLInputElement).checked).toBe(true);
  });
});

describe('member path lists', () => {
  it('edits a member’s read and write prefixes and saves them with council.setMember', async () => {
    const host = await RealHost.start({ bundledPacksDir: BUNDLED_PACKS });
    const { memberId } = await host.arrange('council.addMember', { packId: 'story-council', itemId: 'plot-enforcer' });
    await host.arrange('council.setMember', { memberId, patch: { allowedWritePaths: [] } });
    const members = () => host.core.settings.get().council.members;
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
    expect(host.callsTo('council.setMember').map((c) => c.input)).toEqual([{ memberId, patch: { allowedWritePaths: ['Plans', 'Journal/2026'] } }]);
    expect(members()[0]!.allowedWritePaths).toEqual(['Plans', 'Journal/2026']);
    // Remove one row and save again.
    await settle(() => buttonNamed(writes, 'Remove write paths prefix Plans').click());
    await settle(() => buttonNamed(writes, 'Save write paths').click());
    expect(members()[0]!.allowedWritePaths).toEqual(['Journal/2026']);
    const reads = byTestId(card, 'paths-read');
    await settle(() => byLabel(reads, 'Only these prefixes').click());
    await settle(() => buttonNamed(reads, 'Save read paths').click());
    expect(members()[0]!.allowedReadPaths).toEqual([]);
  });
});

describe('Tools: cache figures, dry run and flags', () => {
  const SEARCH = {
    name: 'search_knowledge_base',
    display_name: 'Search Knowledge Base',
    description: 'Searches the knowledge base.',
    parameters: { type: 'object', properties: { query: { type: 'string', description: 'Search query' } }, required: ['query'] },
    mode: 'read',
    cache: { ttl_ms: 60_000, max_entries: 3 },
  };
  const APPEND = {
    name: 'append_note',
    display_name: 'Append to Scratchpad',
    description: 'Appends a note.',
    parameters: { type: 'object', properties: { text: { type: 'string' } } },
    mode: 'write',
    requires_approval: true,
  };

  /** The two tools in the core; `warm` runs searches through the core's guard first (as the council would). */
  async function openTool(which: 'search' | 'append', warm: string[] = []) {
    const host = await RealHost.start();
    const appended: unknown[] = [];
    const search = registerTool(host, 'knowledge-base', SEARCH, (args) => `found ${String(args.query)}`);
    const append = registerTool(host, 'scratchpad', APPEND, (args) => void appended.push(args));
    for (const query of warm) await host.core.safety.guard.invoke(search, { query }, { timeoutMs: 5000, origin: 'manual' });
    const rendered = await renderShell(host);
    await settle(() => navButton(rendered.container, 'Tools').click());
    const name = which === 'search' ? search : append;
    await settle(() => rendered.container.querySelector<HTMLButtonElement>(`button[data-qualified-name="${name}"]`)!.click());
    await settle();
    return { ...rendered, appended, details: byTestId(rendered.container, 'tool-details') };
  }

  it('shows hits, misses, hit rate, size and evictions, refreshes after Try it, and clears', async () => {
    // Four queries into a cache of three (4 misses, 1 eviction), then two of them again (2 hits).
    const { details, host } = await openTool('search', ['moss', 'tents', 'rope', 'lanterns', 'tents', 'rope']);
    const metrics = byTestId(details, 'cache-metrics');
    expect(byTestId(metrics, 'cache-hits').textContent).toBe('2');
    expect(byTestId(metrics, 'cache-misses').textContent).toBe('4');
    expect(byTestId(metrics, 'cache-hit-rate').textContent).toBe('33%');
    expect(byTestId(metrics, 'cache-size').textContent).toBe('3 / 3');
    expect(byTestId(metrics, 'cache-evictions').textContent).toBe('1');
    await settle(() => typeInto(byLabel(details, /^query/i), 'tents'));
    await settle(() => byTestId(details, 'try-it-run').click());
    expect(byTestId(details, 'cache-hits').textContent).toBe('3');
    expect(byTestId(details, 'try-it-flags').textContent).toBe('cached');
    await settle(() => byTestId(details, 'cache-clear').click());
    expect(host.callsTo('tools.clearCache').map((c) => c.input)).toEqual([{ qualifiedName: 'knowledge-base:search_knowledge_base' }]);
    expect(byTestId(details, 'cache-size').textContent).toBe('0 / 3');
    expect(details.textContent).toContain('Cleared 3 entries.');
  });

  it('shows nothing for a tool without a cache', async () => {
    const { details } = await openTool('append');
    expect(details.querySelector('[data-testid="cache-metrics"]')).toBeNull();
  });

  it('Try it sends dryRun for a write tool and shows simulated / unvalidated', async () => {
    const { details, host, appended } = await openTool('append');
    await settle(() => (byTestId(details, 'try-it-dry-run') as HTMLInputElement).click());
    await settle(() => byTestId(details, 'try-it-run').click());
    expect(host.callsTo('tools.invoke').map((c) => (c.input as { dryRun?: boolean }).dryRun)).toEqual([true]);
    expect(byTestId(details, 'try-it-flags').textContent).toBe('simulatedunvalidated');
    // Simulated: nothing ran, nothing asked.
    expect(appended).toEqual([]);
    expect(await host.arrange('approvals.list', {})).toEqual([]);
  });

  it('Try it shows a rejection with the person’s message as text', async () => {
    const { container, details, appended } = await openTool('append');
    // The call waits for a person: the approval dialog asks, and the person rejects it with a (hostile) message.
    await settle(() => byTestId(details, 'try-it-run').click());
    const dialog = container.querySelector<HTMLElement>('[role="dialog"]')!;
    await settle(() => typeInto(byTestId(dialog, 'approval-message') as HTMLTextAreaElement, XSS));
    await settle(() => byTestId(dialog, 'approve-reject').click());
    expect(byTestId(details, 'tool-error').dataset.code).toBe('APPROVAL_REJECTED');
    expect(byTestId(details, 'tool-error').textContent).toContain('You rejected the call');
    expect(byTestId(details, 'rejection-note').textContent).toBe(`Your message: “${XSS}”`);
    expect(details.querySelector('img')).toBeNull();
    expect(window.__pwned).toBeUndefined();
    expect(appended).toEqual([]);
  });
});

describe('Workbench tool-call cards', () => {
  it('badge simulated, unvalidated and cached results', async () => {
    const host = await RealHost.start();
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
