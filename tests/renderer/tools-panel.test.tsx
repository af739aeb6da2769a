// @vitest-environment real-core
// The Tools section against the real core (in memory): the list and its filters, details, the generated Try it form, raw
// JSON, Copy as. Tools are registered in the core's registry as their extensions' (no workers), except where the test
// is about the bundled extensions themselves; calls run through the core's guard and registry.
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byLabel, byTestId, buttonNamed, cleanup, key, navButton, renderShell, settle, typeInto } from './harness';
import { disposeAllHosts, RealHost } from './real-host';
import { registerTool } from './real-safety';
import { allRunning, APPEND_DTO, BUNDLED_EXTENSIONS, EVERYTHING_DTO, NOW_DTO, recordAnswers, registerExtensionTool, ROLL_DTO, SEARCH_DTO } from './real-tools';
import { FakeClock } from '../helpers/fake-time';
import { DEFAULT_REGISTRY_LIMITS } from '../../electron/core/registry/limits';

import { XSS, XSS_CORPUS } from '../fixtures/xss-corpus';

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
  vi.unstubAllGlobals();
  delete window.__pwned;
});

type Execute = (args: Record<string, unknown>, signal: AbortSignal) => unknown;
type Which = 'search' | 'roll' | 'append' | 'now' | 'everything';

/**
 * A core with the chosen tools registered (each answered by `run[which]`, default 'done'); its clock and timers are a
 * FakeClock, so a tool's duration is what the test makes it and a deadline passes when the test says. The scratchpad's
 * tools are unavailable (its source crashed, as the registry marks it).
 */
async function openTools(which: Which[], run: Partial<Record<Which, Execute>> = {}, clock = new FakeClock()) {
  const host = await RealHost.start({ clock, timers: clock });
  for (const w of which) {
    const execute = run[w];
    if (w === 'search') registerExtensionTool(host, 'knowledge-base', SEARCH_DTO, execute);
    if (w === 'roll') registerExtensionTool(host, 'dice-and-stats', ROLL_DTO, execute);
    if (w === 'append') registerExtensionTool(host, 'scratchpad', APPEND_DTO, execute);
    if (w === 'everything') registerExtensionTool(host, 'fixture', EVERYTHING_DTO, execute);
    // A builtin source's tool, as the note tools are (their executor has no signal to give it).
    if (w === 'now') registerTool(host, 'clock', NOW_DTO, execute && ((args) => execute(args, new AbortController().signal)));
  }
  if (which.includes('append')) host.core.registry.setSourceStatus('scratchpad', 'unavailable');
  const rendered = await renderShell(host);
  await settle(() => navButton(rendered.container, 'Tools').click());
  return { ...rendered, clock, panel: byTestId(rendered.container, 'panel-tools') };
}

/** The core's own tools (council and notes builtins) are listed too; these tests look at the ones they registered. */
const BUILTIN = /^(council|notes):/;

function rows(panel: HTMLElement, all = false): string[] {
  const names = [...panel.querySelectorAll<HTMLButtonElement>('button.tool-row')].map((b) => b.dataset.qualifiedName ?? '');
  return all ? names : names.filter((n) => !BUILTIN.test(n));
}

async function select(panel: HTMLElement, qualifiedName: string) {
  const row = panel.querySelector<HTMLButtonElement>(`button.tool-row[data-qualified-name="${qualifiedName}"]`);
  if (!row) throw new Error(`no row for ${qualifiedName}`);
  await settle(() => row.click());
  return byTestId(panel, 'tool-details');
}

describe('tools list', () => {
  it('lists what tools.list returned, each row with name, qualified name, mode, source and status', async () => {
    const { panel, host } = await openTools(['search', 'roll', 'append', 'now']);
    expect(host.callsTo('tools.list')).toHaveLength(1);
    // Every tool the core has, its builtins included, in its order.
    expect(rows(panel, true)).toEqual(host.core.registry.list().map((t) => t.qualifiedName));
    expect(rows(panel)).toEqual(['clock:now', 'dice-and-stats:roll_dice', 'knowledge-base:search_knowledge_base', 'scratchpad:append_note']);
    const row = panel.querySelector<HTMLButtonElement>('button.tool-row[data-qualified-name="scratchpad:append_note"]')!;
    expect(row.textContent).toContain('Append to Scratchpad');
    expect(row.textContent).toContain('scratchpad:append_note');
    expect([...row.querySelectorAll('.badge')].map((b) => b.textContent)).toEqual(['write', 'Extension', 'unavailable']);
    expect(byTestId(panel, 'tool-count').textContent).toContain(`${host.core.registry.list().length} tools`);
  });

  it('follows tools.changed, which carries the full list', async () => {
    const { panel, host } = await openTools(['search']);
    await settle(() => {
      host.core.registry.unregisterAll('knowledge-base');
      registerExtensionTool(host, 'dice-and-stats', ROLL_DTO);
      registerTool(host, 'clock', NOW_DTO);
    });
    expect(rows(panel)).toEqual(['clock:now', 'dice-and-stats:roll_dice']);
    // Only the first answer was asked for: the rest came as events.
    expect(host.callsTo('tools.list')).toHaveLength(1);
    await settle(() => {
      for (const t of host.core.registry.list()) host.core.registry.unregister(t.qualifiedName.split(':')[0]!, t.name);
    });
    expect(panel.querySelector('.empty-state__title')?.textContent).toBe('No tools registered');
  });

  it('filters the bundled extensions’ tools by source, extension, council eligibility and search text, and clears them', async () => {
    // The real bundled extensions (workers): their tools, and their names as extensions.list reports them.
    const host = await RealHost.start({ bundledExtensionsDir: BUNDLED_EXTENSIONS });
    await allRunning(host);
    const { container } = await renderShell(host);
    await settle(() => navButton(container, 'Tools').click());
    const panel = byTestId(container, 'panel-tools');
    const all = host.core.registry.list();
    const names = (filter: Parameters<typeof host.core.registry.list>[0]) => host.core.registry.list(filter).map((t) => t.qualifiedName);
    expect(rows(panel, true)).toEqual(names({}));

    await settle(() => typeInto(byLabel<HTMLSelectElement>(panel, 'Source'), 'builtin'));
    expect(rows(panel, true)).toEqual(names({ source: 'builtin' }));
    expect(rows(panel)).toEqual([]);
    expect(byTestId(panel, 'tool-count').textContent).toContain(`${names({ source: 'builtin' }).length} of ${all.length} tools`);

    await settle(() => typeInto(byLabel<HTMLSelectElement>(panel, 'Source'), 'extension'));
    expect(rows(panel, true)).toEqual(['dice-and-stats:dice_odds', 'dice-and-stats:roll_dice', 'knowledge-base:search_knowledge_base', 'scratchpad:append_note', 'scratchpad:read_notes']);
    const extensionSelect = byLabel<HTMLSelectElement>(panel, 'Extension');
    // Options name the extensions, by the names the extension list reports.
    expect([...extensionSelect.options].map((o) => o.textContent)).toEqual(['All extensions', 'Dice and Stats', 'Knowledge Base', 'Scratchpad']);
    await settle(() => typeInto(extensionSelect, 'scratchpad'));
    expect(rows(panel)).toEqual(['scratchpad:append_note', 'scratchpad:read_notes']);

    await settle(() => typeInto(byLabel<HTMLSelectElement>(panel, 'Extension'), 'all'));
    await settle(() => typeInto(byLabel<HTMLSelectElement>(panel, 'Council'), 'eligible'));
    expect(rows(panel, true)).toEqual(names({ source: 'extension', councilEligible: true }));
    await settle(() => typeInto(byLabel<HTMLSelectElement>(panel, 'Source'), 'all'));
    await settle(() => typeInto(byLabel<HTMLSelectElement>(panel, 'Council'), 'not-eligible'));
    expect(rows(panel, true)).toEqual(names({ councilEligible: false }));

    await settle(() => buttonNamed(panel, 'Clear filters').click());
    expect(rows(panel, true)).toHaveLength(all.length);
    await settle(() => typeInto(byLabel(panel, 'Search tools'), 'DICE keep highest'));
    expect(rows(panel, true)).toEqual(['dice-and-stats:roll_dice']);
    await settle(() => typeInto(byLabel(panel, 'Search tools'), 'nothing like this'));
    expect(rows(panel, true)).toEqual([]);
    expect(panel.textContent).toContain('No tools match these filters.');
  });

  it('moves between rows with the arrow keys', async () => {
    const { panel } = await openTools(['search', 'roll', 'now']);
    const buttons = [...panel.querySelectorAll<HTMLButtonElement>('button.tool-row')];
    buttons[0]!.focus();
    await settle(() => void key(document.activeElement!, { key: 'ArrowDown' }));
    expect(document.activeElement).toBe(buttons[1]);
    await settle(() => void key(document.activeElement!, { key: 'End' }));
    expect(document.activeElement).toBe(buttons.at(-1));
    await settle(() => void key(document.activeElement!, { key: 'Home' }));
    expect(document.activeElement).toBe(buttons[0]);
  });
});

describe('tool details', () => {
  it('shows description, the schema as text, the flags and the definition hash', async () => {
    const { panel, host } = await openTools(['search', 'append']);
    const details = await select(panel, 'scratchpad:append_note');
    expect(details.querySelector('h2')?.textContent).toBe('Append to Scratchpad');
    expect(details.textContent).toContain('Appends a short note.');
    expect(JSON.parse(byTestId(details, 'tool-schema').textContent!)).toEqual(APPEND_DTO.parameters);
    const flags = Object.fromEntries([...details.querySelectorAll('.flag')].map((f) => [f.querySelector('dt')?.textContent, f.querySelector('.flag__value')?.textContent]));
    expect(flags).toEqual({ 'Council eligible': 'No', 'Inline available': 'No', 'Has simulate': 'Yes', 'Requires approval': 'Yes' });
    expect(byTestId(details, 'definition-hash').textContent).toBe(host.core.registry.get('scratchpad:append_note')!.definitionHash);
    expect(byTestId(details, 'definition-hash').textContent).toMatch(/^[0-9a-f]{64}$/);
    expect(details.textContent).toContain('Unavailable');
    expect(details.textContent).toContain('Running it here really runs it');
    const selectedRow = panel.querySelector('button.tool-row[aria-current="true"]') as HTMLButtonElement;
    expect(selectedRow.dataset.qualifiedName).toBe('scratchpad:append_note');
  });

  it('says so when the open tool leaves the registry', async () => {
    const { panel, host } = await openTools(['search', 'roll']);
    await select(panel, 'dice-and-stats:roll_dice');
    await settle(() => void host.core.registry.unregisterAll('dice-and-stats'));
    expect(panel.textContent).toContain('dice-and-stats:roll_dice is no longer registered');
  });
});

describe('Try it', () => {
  it('generates a field for every schema type, with required markers and defaults filled in', async () => {
    const { panel } = await openTools(['everything']);
    const details = await select(panel, 'fixture:everything');
    const query = byLabel(details, 'query (required)');
    expect(query.tagName).toBe('INPUT');
    expect(query.required).toBe(true);
    expect(document.getElementById(query.getAttribute('aria-describedby')!)?.textContent).toContain('What to look for');

    const comparison = byLabel<HTMLSelectElement>(details, 'comparison');
    expect(comparison.tagName).toBe('SELECT');
    expect([...comparison.options].map((o) => o.textContent)).toEqual(['(not set)', 'at_least', 'at_most', 'exactly']);
    expect(comparison.selectedOptions[0]?.textContent).toBe('at_least');
    expect(byLabel(details, 'limit').value).toBe('5');
    expect(byLabel(details, 'times').value).toBe('');
    const exact = byLabel(details, /^exact/);
    expect(exact.type).toBe('checkbox');
    expect(exact.checked).toBe(false);

    // Nested object: a fieldset with its own required marker.
    const fieldsets = [...details.querySelectorAll('fieldset')];
    const range = fieldsets.find((f) => f.querySelector('legend')?.textContent?.startsWith('range'))!;
    expect(range.querySelector('legend')?.textContent).toContain('(required)');
    expect(byLabel(range, 'from (required)')).toBeTruthy();

    // Array: add and remove items.
    const tags = fieldsets.find((f) => f.querySelector('legend')?.textContent?.startsWith('tags'))!;
    expect(tags.textContent).toContain('No items.');
    await settle(() => buttonNamed(tags, 'Add an item to tags').click());
    await settle(() => buttonNamed(tags, 'Add an item to tags').click());
    expect(tags.querySelectorAll('li')).toHaveLength(2);
    await settle(() => typeInto(byLabel(tags, 'Item 1 (required)'), 'red'));
    await settle(() => typeInto(byLabel(tags, 'Item 2 (required)'), 'blue'));
    await settle(() => buttonNamed(tags, 'Remove item 1 from tags').click());
    expect(tags.querySelectorAll('li')).toHaveLength(1);
    expect(byLabel(tags, 'Item 1 (required)').value).toBe('blue');
  });

  it('runs the tool with typed arguments and shows the result as text with its duration', async () => {
    const received: Array<Record<string, unknown>> = [];
    const clock = new FakeClock();
    const { panel, host } = await openTools(
      ['everything'],
      {
        everything: (args) => {
          received.push(args);
          clock.advance(12.4);
          return 'line one\nline two';
        },
      },
      clock,
    );
    const details = await select(panel, 'fixture:everything');
    await settle(() => typeInto(byLabel(details, 'query (required)'), 'muses'));
    await settle(() => typeInto(byLabel<HTMLSelectElement>(details, 'comparison'), '1'));
    await settle(() => typeInto(byLabel(details, 'times'), '3'));
    await settle(() => byLabel(details, /^exact/).click());
    await settle(() => typeInto(byLabel(details, 'from (required)'), '2'));
    await settle(() => byTestId(details, 'try-it-run').click());

    const args = { query: 'muses', comparison: 'at_most', limit: 5, times: 3, exact: true, range: { from: 2 } };
    expect(host.callsTo('tools.invoke')).toEqual([{ method: 'tools.invoke', input: { qualifiedName: 'fixture:everything', args } }]);
    // The tool ran once, with those arguments as the core validated them.
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject(args);
    const result = byTestId(details, 'tool-result');
    expect(result.querySelector('pre')?.textContent).toBe('line one\nline two');
    expect(byTestId(details, 'tool-duration').textContent).toBe('12 ms');
  });

  it('does not call the host while required fields are empty or numbers are not numbers', async () => {
    const { panel, host } = await openTools(['everything']);
    const details = await select(panel, 'fixture:everything');
    await settle(() => typeInto(byLabel(details, 'times'), '2.5'));
    await settle(() => byTestId(details, 'try-it-run').click());
    expect(host.callsTo('tools.invoke')).toHaveLength(0);
    const query = byLabel(details, 'query (required)');
    expect(query.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(query);
    expect(byLabel(details, 'times').getAttribute('aria-invalid')).toBe('true');
    expect(details.textContent).toContain('Enter a whole number.');
    expect(details.querySelector('[role="alert"]')?.textContent).toContain('3 fields need attention');
  });

  it('a result from before stays no longer under a new input error (a JSON error, or a number out of range)', async () => {
    const { panel, host } = await openTools(['roll'], { roll: () => 'rolled 7' });
    const details = await select(panel, 'dice-and-stats:roll_dice');
    await settle(() => typeInto(byLabel(details, 'notation (required)'), '2d6'));
    await settle(() => byTestId(details, 'try-it-run').click());
    expect(byTestId(details, 'tool-result').textContent).toContain('rolled 7');
    // The form says "from 1 to 20": 50 is an error at the field, not a call, and the old result goes.
    await settle(() => typeInto(byLabel(details, 'times'), '50'));
    await settle(() => byTestId(details, 'try-it-run').click());
    expect(host.callsTo('tools.invoke')).toHaveLength(1);
    expect(details.textContent).toContain('At most 20.');
    expect(details.querySelector('[data-testid="tool-result"]')).toBeNull();
    await settle(() => typeInto(byLabel(details, 'times'), '2'));
    await settle(() => byTestId(details, 'try-it-run').click());
    expect(byTestId(details, 'tool-result').textContent).toContain('rolled 7');
    await settle(() => byLabel(details, 'Edit as JSON').click());
    await settle(() => typeInto(byLabel(details, 'Arguments (JSON object)'), '{"notation": '));
    await settle(() => byTestId(details, 'try-it-run').click());
    expect(byTestId(details, 'json-error').textContent).toContain('Not valid JSON');
    expect(details.querySelector('[data-testid="tool-result"]')).toBeNull();
  });

  it('a rejected call reads as what happened, not as the instructions the model gets', async () => {
    const ran: unknown[] = [];
    const { panel, container, host } = await openTools(['append'], { append: (args) => void ran.push(args) });
    host.core.registry.setSourceStatus('scratchpad', 'available');
    const details = await select(panel, 'scratchpad:append_note');
    await settle(() => byTestId(details, 'try-it-run').click());
    // The core asks; the person rejects it in the approval dialog.
    const dialog = container.querySelector<HTMLElement>('[role="dialog"]')!;
    await settle(() => byTestId(dialog, 'approve-reject').click());
    const error = byTestId(details, 'tool-error');
    expect(error.dataset.code).toBe('APPROVAL_REJECTED');
    expect(error.textContent).toContain('You rejected this call in the approval dialog, so it did not run.');
    expect(error.textContent).not.toMatch(/do not retry/i);
    expect(error.textContent).not.toContain('The user rejected');
    expect(ran).toEqual([]);
    expect(host.core.safety.approvals.list()).toEqual([]);
  });

  it('an approval that timed out reads as what happened, without the advice written for the model', async () => {
    const ran: unknown[] = [];
    const { panel, container, host, clock } = await openTools(['append'], { append: (args) => void ran.push(args) });
    host.core.registry.setSourceStatus('scratchpad', 'available');
    const details = await select(panel, 'scratchpad:append_note');
    await settle(() => byTestId(details, 'try-it-run').click());
    expect(container.querySelector('[role="dialog"]')).not.toBeNull();
    // Nobody answers before Try it's deadline passes in the core.
    await settle(() => clock.advance(30_000));
    const error = byTestId(details, 'tool-error');
    expect(error.dataset.code).toBe('APPROVAL_TIMEOUT');
    expect(error.textContent).toContain('Append to Scratchpad');
    expect(error.textContent).toContain('did not run');
    expect(error.textContent).not.toMatch(/do not retry/i);
    expect(container.querySelector('[role="dialog"]')).toBeNull();
    expect(ran).toEqual([]);
  });

  it('each flag says what its answer means (the inline flag never claims the chat calls a tool on its own)', async () => {
    const { panel } = await openTools(['roll', 'append']);
    const details = await select(panel, 'scratchpad:append_note');
    const help = Object.fromEntries([...details.querySelectorAll('.flag')].map((f) => [f.querySelector('dt')?.textContent, f.querySelector('.flag__help')?.textContent]));
    expect(help['Inline available']).toMatch(/through the council members who hold it/);
    expect(help['Inline available']).not.toMatch(/may call it directly/);
    expect(help['Council eligible']).toBe('Council members cannot be given this tool.');
  });

  it('shows a tool failure with code, message, hint and duration', async () => {
    let aborted = false;
    // A tool that never answers: the registry's backstop ends it, just after Try it's 30 s deadline (with its grace).
    const { panel, clock, host } = await openTools(['roll'], {
      roll: (_args, signal) =>
        new Promise(() => {
          signal.addEventListener('abort', () => (aborted = true));
        }),
    });
    const answers = recordAnswers(host, 'tools.invoke');
    const details = await select(panel, 'dice-and-stats:roll_dice');
    expect(byLabel(details, 'times').value).toBe('1');
    await settle(() => typeInto(byLabel(details, 'notation (required)'), '2d6'));
    // Not settle(): that waits for the core's answer, which comes only once the deadline has passed.
    await act(async () => byTestId(details, 'try-it-run').click());
    expect(byTestId(details, 'try-it-run').textContent).toContain('Running…');
    const waited = 30_000 + DEFAULT_REGISTRY_LIMITS.timeoutGraceMs;
    await settle(() => clock.advance(waited));
    const error = byTestId(details, 'tool-error');
    expect(answers).toHaveLength(1);
    const outcome = answers[0]!.ok ? answers[0]!.value : null;
    if (!outcome || outcome.ok) throw new Error(`expected a failed outcome: ${JSON.stringify(answers)}`);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'TOOL_TIMEOUT' }, durationMs: waited });
    expect(error.dataset.code).toBe('TOOL_TIMEOUT');
    expect(error.textContent).toContain('TOOL_TIMEOUT');
    expect(error.textContent).toContain(outcome.error.message);
    if (outcome.error.hint) expect(error.textContent).toContain(outcome.error.hint);
    expect(error.textContent).toContain(`${waited} ms`);
    expect(aborted).toBe(true);
  });

  it('shows a refused call (the host answered with an error) the same way', async () => {
    const rolled: unknown[] = [];
    const { panel, host } = await openTools(['roll'], { roll: (args) => void rolled.push(args) });
    const details = await select(panel, 'dice-and-stats:roll_dice');
    // Arguments over the core's 1 MiB input limit: the core refuses the call at its door.
    await settle(() => byLabel(details, 'Edit as JSON').click());
    await settle(() => typeInto(byLabel(details, 'Arguments (JSON object)'), JSON.stringify({ notation: '2d6', note: 'x'.repeat(1024 * 1024) })));
    await settle(() => byTestId(details, 'try-it-run').click());
    expect(host.callsTo('tools.invoke')).toHaveLength(1);
    const error = byTestId(details, 'tool-error');
    expect(error.dataset.code).toBe('INPUT_TOO_LARGE');
    expect(error.textContent).toContain('the limit is 1048576 bytes');
    expect(rolled).toEqual([]);
  });

  it('marks the run button busy while the call is in flight and ignores a second submit', async () => {
    const rolled: unknown[] = [];
    const { panel, host } = await openTools(['roll'], { roll: (args) => (rolled.push(args), '7') });
    const details = await select(panel, 'dice-and-stats:roll_dice');
    await settle(() => typeInto(byLabel(details, 'notation (required)'), '2d6'));
    const run = byTestId(details, 'try-it-run');
    const slow = host.hold('tools.invoke');
    await settle(() => run.click());
    expect(run.getAttribute('aria-disabled')).toBe('true');
    expect(run.textContent).toContain('Running…');
    await settle(() => run.click());
    expect(host.callsTo('tools.invoke')).toHaveLength(1);
    await settle(() => slow.release());
    expect(run.getAttribute('aria-disabled')).toBeNull();
    expect(byTestId(details, 'tool-result').textContent).toContain('7');
    expect(rolled).toHaveLength(1);
  });

  it('has a raw JSON fallback: invalid JSON is an error without a call; valid JSON runs; the form takes it back', async () => {
    const received: Array<Record<string, unknown>> = [];
    const { panel, host } = await openTools(['roll'], { roll: (args) => (received.push(args), 'ok') });
    const details = await select(panel, 'dice-and-stats:roll_dice');
    await settle(() => typeInto(byLabel(details, 'notation (required)'), '1d20'));
    const toggle = byLabel(details, 'Edit as JSON');
    expect(toggle.getAttribute('role')).toBe('switch');
    await settle(() => toggle.click());
    const raw = byLabel<HTMLTextAreaElement>(details, 'Arguments (JSON object)');
    expect(JSON.parse(raw.value)).toEqual({ notation: '1d20', times: 1 });

    await settle(() => typeInto(raw, '{"notation": "2d6",'));
    await settle(() => byTestId(details, 'try-it-run').click());
    expect(host.callsTo('tools.invoke')).toHaveLength(0);
    expect(byTestId(details, 'json-error').textContent).toContain('Not valid JSON');
    expect(raw.getAttribute('aria-invalid')).toBe('true');
    // Cannot go back to the form with broken JSON.
    await settle(() => byLabel(details, 'Edit as JSON').click());
    expect(byLabel(details, 'Edit as JSON').checked).toBe(true);

    await settle(() => typeInto(byLabel(details, 'Arguments (JSON object)'), '[1]'));
    await settle(() => byTestId(details, 'try-it-run').click());
    expect(byTestId(details, 'json-error').textContent).toContain('one JSON object');
    expect(host.callsTo('tools.invoke')).toHaveLength(0);

    await settle(() => typeInto(byLabel(details, 'Arguments (JSON object)'), '{"notation": "3d8", "times": 2, "extra": true}'));
    await settle(() => byTestId(details, 'try-it-run').click());
    expect(host.callsTo('tools.invoke').map((c) => c.input)).toEqual([
      { qualifiedName: 'dice-and-stats:roll_dice', args: { notation: '3d8', times: 2, extra: true } },
    ]);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ notation: '3d8', times: 2 });

    await settle(() => byLabel(details, 'Edit as JSON').click());
    expect(byLabel(details, 'notation (required)').value).toBe('3d8');
    expect(byLabel(details, 'times').value).toBe('2');
  });

  it('edits a schema that is not an object with properties as JSON only', async () => {
    const host = await RealHost.start();
    registerExtensionTool(host, 'fixture', { name: 'odd', display_name: 'Odd', description: 'Odd.', mode: 'read', parameters: { type: 'object', oneOf: [{ required: ['a'] }, { required: ['b'] }] } });
    const { container } = await renderShell(host);
    await settle(() => navButton(container, 'Tools').click());
    const details = await select(byTestId(container, 'panel-tools'), 'fixture:odd');
    expect(details.querySelector('[role="switch"]')).toBeNull();
    expect(byLabel<HTMLTextAreaElement>(details, 'Arguments (JSON object)').value).toBe('{}');
  });

  it('says a tool takes no arguments when its schema has no properties', async () => {
    const clock = new FakeClock();
    const { panel, host } = await openTools(
      ['now'],
      {
        now: () => {
          clock.advance(0.2);
          return '09:30';
        },
      },
      clock,
    );
    const details = await select(panel, 'clock:now');
    expect(details.textContent).toContain('This tool takes no arguments.');
    await settle(() => byTestId(details, 'try-it-run').click());
    expect(host.callsTo('tools.invoke').map((c) => c.input)).toEqual([{ qualifiedName: 'clock:now', args: {} }]);
    expect(byTestId(details, 'tool-result').textContent).toContain('09:30');
    expect(byTestId(details, 'tool-duration').textContent).toBe('0.2 ms');
  });
});

describe('Copy as', () => {
  it('asks the host for each format and shows the spec read-only', async () => {
    const { panel, host } = await openTools(['search']);
    const details = await select(panel, 'knowledge-base:search_knowledge_base');
    const group = details.querySelector('[role="group"][aria-label="Copy as"]')!;
    expect([...group.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['OpenAI function', 'OpenAI strict', 'Anthropic tool', 'MCP tool']);
    for (const [label, format] of [
      ['OpenAI function', 'openai'],
      ['OpenAI strict', 'openai-strict'],
      ['Anthropic tool', 'anthropic'],
      ['MCP tool', 'mcp'],
    ] as const) {
      await settle(() => buttonNamed(group, label).click());
      const input = { qualifiedName: 'knowledge-base:search_knowledge_base', format };
      expect(host.callsTo('tools.exportSpec').at(-1)?.input).toEqual(input);
      const text = byTestId(details, 'spec-text') as HTMLTextAreaElement;
      expect(text.readOnly).toBe(true);
      expect(text.dataset.format).toBe(format);
      // The core's own export, as it gives it.
      expect(JSON.parse(text.value)).toEqual((await host.arrange('tools.exportSpec', input)).spec);
      expect(text.value).toContain(host.core.registry.get('knowledge-base:search_knowledge_base')!.alias);
      expect(buttonNamed(group, label).getAttribute('aria-pressed')).toBe('true');
    }
  });

  it('copies with the clipboard API when it is allowed', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, userAgent: 'Linux', clipboard: { writeText } });
    const { panel } = await openTools(['search']);
    const details = await select(panel, 'knowledge-base:search_knowledge_base');
    await settle(() => buttonNamed(details, 'Anthropic tool').click());
    await settle(() => buttonNamed(details, 'Copy').click());
    expect(writeText).toHaveBeenCalledWith((byTestId(details, 'spec-text') as HTMLTextAreaElement).value);
    expect(details.textContent).toContain('Copied to the clipboard.');
  });

  it('selects the text and says "Press Ctrl+C" when the clipboard is refused', async () => {
    const writeText = vi.fn(() => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')));
    vi.stubGlobal('navigator', { ...navigator, userAgent: 'Linux', clipboard: { writeText } });
    const { panel } = await openTools(['search']);
    const details = await select(panel, 'knowledge-base:search_knowledge_base');
    await settle(() => buttonNamed(details, 'MCP tool').click());
    await settle(() => buttonNamed(details, 'Copy').click());
    const text = byTestId(details, 'spec-text') as HTMLTextAreaElement;
    expect(document.activeElement).toBe(text);
    expect(text.selectionStart).toBe(0);
    expect(text.selectionEnd).toBe(text.value.length);
    expect(details.textContent).toContain('press Ctrl+C to copy it');
  });

  it('shows an export failure inline', async () => {
    const { panel, host } = await openTools(['search']);
    const details = await select(panel, 'knowledge-base:search_knowledge_base');
    // The link drops (RealHost answers as the WebSocket transport does while it is down: nothing is sent). The core
    // itself exports any tool the renderer still shows: one that left the registry is gone from the panel first.
    await settle(() => host.setInfo({ state: 'disconnected', willRetry: true }));
    await settle(() => buttonNamed(details, 'OpenAI strict').click());
    const error = details.querySelector<HTMLElement>('[data-testid="inline-error"]')!;
    expect(error.dataset.code).toBe('HOST_SHUTDOWN');
    expect(error.textContent).toContain('Not connected to the host, so tools.exportSpec was not sent.');
    expect(error.textContent).toContain('The workbench reconnects on its own; try again in a moment.');
    expect(details.querySelector('[data-testid="spec-text"]')).toBeNull();
  });
});

describe('hostile strings', () => {
  it('renders tool names, descriptions, schemas and results as text', async () => {
    const host = await RealHost.start();
    registerExtensionTool(
      host,
      'fixture',
      { name: 'evil', display_name: XSS_CORPUS[1]!, description: `Looks harmless ${XSS}`, mode: 'read', parameters: { type: 'object', properties: { q: { type: 'string', description: XSS, enum: [XSS] } } } },
      () => XSS,
    );
    const { container } = await renderShell(host);
    await settle(() => navButton(container, 'Tools').click());
    const panel = byTestId(container, 'panel-tools');
    const details = await select(panel, 'fixture:evil');
    await settle(() => byTestId(details, 'try-it-run').click());
    await settle(() => buttonNamed(details, 'OpenAI function').click());
    // The core refuses a display name over 128 characters: one payload of the corpus, the rest in the description.
    expect(panel.querySelector('button.tool-row[data-qualified-name="fixture:evil"]')?.textContent).toContain(XSS_CORPUS[1]);
    expect(details.querySelector('h2')?.textContent).toBe(XSS_CORPUS[1]);
    expect(details.textContent).toContain(`Looks harmless ${XSS}`);
    expect(byTestId(details, 'tool-result').querySelector('pre')?.textContent).toBe(XSS);
    expect((byTestId(details, 'spec-text') as HTMLTextAreaElement).value).toContain(JSON.stringify(XSS).slice(1, -1));
    expect(container.querySelector('img')).toBeNull();
    expect(window.__pwned).toBeUndefined();
  });
});
