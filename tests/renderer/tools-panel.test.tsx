// @vitest-environment happy-dom
// The Tools section against a fake host: the list and its filters, details, the generated Try it form, raw JSON, Copy as.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ToolInfo } from '../../shared/types/tools';
import { byLabel, byTestId, buttonNamed, cleanup, extension, FakeHost, key, navButton, renderShell, settle, tool, typeInto } from './harness';

import { XSS } from '../fixtures/xss-corpus';

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  delete window.__pwned;
});

const knowledge = tool();
const roll = tool({
  name: 'roll_dice',
  displayName: 'Roll Dice',
  extensionId: 'dice-and-stats',
  description: 'Rolls dice in standard notation.',
  parameters: {
    type: 'object',
    properties: {
      notation: { type: 'string', description: 'Dice notation, e.g. 2d6+3', maxLength: 100 },
      times: { type: 'integer', default: 1, minimum: 1, maximum: 20 },
    },
    required: ['notation'],
  },
});
const append = tool({
  name: 'append_note',
  displayName: 'Append to Scratchpad',
  extensionId: 'scratchpad',
  description: 'Appends a short note.',
  mode: 'write',
  councilEligible: false,
  requiresApproval: true,
  hasSimulate: true,
  status: 'unavailable',
});
const clock = tool({ name: 'now', displayName: 'Current Time', extensionId: null, source: 'builtin', description: 'The time.', parameters: { type: 'object', properties: {} } });
const everything = tool({
  name: 'everything',
  displayName: 'Every Field Type',
  extensionId: 'fixture',
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What to look for' },
      comparison: { type: 'string', enum: ['at_least', 'at_most', 'exactly'], default: 'at_least' },
      limit: { type: 'number', default: 5 },
      times: { type: 'integer' },
      exact: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
      range: { type: 'object', properties: { from: { type: 'integer' }, to: { type: 'integer' } }, required: ['from'] },
    },
    required: ['query', 'range'],
  },
});

async function openTools(tools: ToolInfo[], setup: (host: FakeHost) => void = () => undefined) {
  const host = new FakeHost();
  host.tools = tools;
  host.extensions = [
    extension(),
    extension({ id: 'dice-and-stats', name: 'Dice and Stats' }),
    extension({ id: 'scratchpad', name: 'Scratchpad', status: 'crashed' }),
  ];
  setup(host);
  const rendered = await renderShell(host);
  await settle(() => navButton(rendered.container, 'Tools').click());
  return { ...rendered, panel: byTestId(rendered.container, 'panel-tools') };
}

function rows(panel: HTMLElement): string[] {
  return [...panel.querySelectorAll<HTMLButtonElement>('button.tool-row')].map((b) => b.dataset.qualifiedName ?? '');
}

async function select(panel: HTMLElement, qualifiedName: string) {
  const row = panel.querySelector<HTMLButtonElement>(`button.tool-row[data-qualified-name="${qualifiedName}"]`);
  if (!row) throw new Error(`no row for ${qualifiedName}`);
  await settle(() => row.click());
  return byTestId(panel, 'tool-details');
}

describe('tools list', () => {
  it('lists what tools.list returned, each row with name, qualified name, mode, source and status', async () => {
    const { panel, host } = await openTools([knowledge, roll, append, clock]);
    expect(host.callsTo('tools.list')).toHaveLength(1);
    expect(rows(panel)).toEqual(['knowledge-base:search_knowledge_base', 'dice-and-stats:roll_dice', 'scratchpad:append_note', 'builtin:now']);
    const row = panel.querySelector<HTMLButtonElement>('button.tool-row[data-qualified-name="scratchpad:append_note"]')!;
    expect(row.textContent).toContain('Append to Scratchpad');
    expect(row.textContent).toContain('scratchpad:append_note');
    expect([...row.querySelectorAll('.badge')].map((b) => b.textContent)).toEqual(['write', 'Extension', 'unavailable']);
    expect(byTestId(panel, 'tool-count').textContent).toContain('4 tools');
  });

  it('follows tools.changed, which carries the full list', async () => {
    const { panel, host } = await openTools([knowledge]);
    await settle(() => host.emit({ type: 'tools.changed', tools: [roll, clock] }));
    expect(rows(panel)).toEqual(['dice-and-stats:roll_dice', 'builtin:now']);
    await settle(() => host.emit({ type: 'tools.changed', tools: [] }));
    expect(panel.querySelector('.empty-state__title')?.textContent).toBe('No tools registered');
  });

  it('filters by source, extension, council eligibility and search text, and clears them', async () => {
    const { panel } = await openTools([knowledge, roll, append, clock]);
    await settle(() => typeInto(byLabel<HTMLSelectElement>(panel, 'Source'), 'builtin'));
    expect(rows(panel)).toEqual(['builtin:now']);
    expect(byTestId(panel, 'tool-count').textContent).toContain('1 of 4 tools');

    await settle(() => typeInto(byLabel<HTMLSelectElement>(panel, 'Source'), 'extension'));
    const extensionSelect = byLabel<HTMLSelectElement>(panel, 'Extension');
    // Options name the extensions, by the names the extension list reports.
    expect([...extensionSelect.options].map((o) => o.textContent)).toEqual(['All extensions', 'Dice and Stats', 'Knowledge Base', 'Scratchpad']);
    await settle(() => typeInto(extensionSelect, 'scratchpad'));
    expect(rows(panel)).toEqual(['scratchpad:append_note']);

    await settle(() => typeInto(byLabel<HTMLSelectElement>(panel, 'Extension'), 'all'));
    await settle(() => typeInto(byLabel<HTMLSelectElement>(panel, 'Council'), 'eligible'));
    expect(rows(panel)).toEqual(['knowledge-base:search_knowledge_base', 'dice-and-stats:roll_dice']);
    await settle(() => typeInto(byLabel<HTMLSelectElement>(panel, 'Council'), 'not-eligible'));
    expect(rows(panel)).toEqual(['scratchpad:append_note']);

    await settle(() => buttonNamed(panel, 'Clear filters').click());
    expect(rows(panel)).toHaveLength(4);
    await settle(() => typeInto(byLabel(panel, 'Search tools'), 'DICE notation'));
    expect(rows(panel)).toEqual(['dice-and-stats:roll_dice']);
    await settle(() => typeInto(byLabel(panel, 'Search tools'), 'nothing like this'));
    expect(rows(panel)).toEqual([]);
    expect(panel.textContent).toContain('No tools match these filters.');
  });

  it('moves between rows with the arrow keys', async () => {
    const { panel } = await openTools([knowledge, roll, clock]);
    const buttons = [...panel.querySelectorAll<HTMLButtonElement>('button.tool-row')];
    buttons[0]!.focus();
    await settle(() => void key(document.activeElement!, { key: 'ArrowDown' }));
    expect(document.activeElement).toBe(buttons[1]);
    await settle(() => void key(document.activeElement!, { key: 'End' }));
    expect(document.activeElement).toBe(buttons[2]);
    await settle(() => void key(document.activeElement!, { key: 'Home' }));
    expect(document.activeElement).toBe(buttons[0]);
  });
});

describe('tool details', () => {
  it('shows description, the schema as text, the flags and the definition hash', async () => {
    const { panel } = await openTools([knowledge, append]);
    const details = await select(panel, 'scratchpad:append_note');
    expect(details.querySelector('h2')?.textContent).toBe('Append to Scratchpad');
    expect(details.textContent).toContain('Appends a short note.');
    expect(JSON.parse(byTestId(details, 'tool-schema').textContent!)).toEqual(append.parameters);
    const flags = Object.fromEntries([...details.querySelectorAll('.flag')].map((f) => [f.querySelector('dt')?.textContent, f.querySelector('.flag__value')?.textContent]));
    expect(flags).toEqual({ 'Council eligible': 'No', 'Inline available': 'No', 'Has simulate': 'Yes', 'Requires approval': 'Yes' });
    expect(byTestId(details, 'definition-hash').textContent).toBe('a'.repeat(64));
    expect(details.textContent).toContain('Unavailable');
    expect(details.textContent).toContain('Running it here really runs it');
    const selectedRow = panel.querySelector('button.tool-row[aria-current="true"]') as HTMLButtonElement;
    expect(selectedRow.dataset.qualifiedName).toBe('scratchpad:append_note');
  });

  it('says so when the open tool leaves the registry', async () => {
    const { panel, host } = await openTools([knowledge, roll]);
    await select(panel, 'dice-and-stats:roll_dice');
    await settle(() => host.emit({ type: 'tools.changed', tools: [knowledge] }));
    expect(panel.textContent).toContain('dice-and-stats:roll_dice is no longer registered');
  });
});

describe('Try it', () => {
  it('generates a field for every schema type, with required markers and defaults filled in', async () => {
    const { panel } = await openTools([everything]);
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
    const { panel, host } = await openTools([everything], (h) => {
      h.handlers['tools.invoke'] = () => ({ ok: true, value: { ok: true, content: 'line one\nline two', durationMs: 12.4 } });
    });
    const details = await select(panel, 'fixture:everything');
    await settle(() => typeInto(byLabel(details, 'query (required)'), 'muses'));
    await settle(() => typeInto(byLabel<HTMLSelectElement>(details, 'comparison'), '1'));
    await settle(() => typeInto(byLabel(details, 'times'), '3'));
    await settle(() => byLabel(details, /^exact/).click());
    await settle(() => typeInto(byLabel(details, 'from (required)'), '2'));
    await settle(() => byTestId(details, 'try-it-run').click());

    expect(host.callsTo('tools.invoke')).toEqual([
      {
        method: 'tools.invoke',
        input: { qualifiedName: 'fixture:everything', args: { query: 'muses', comparison: 'at_most', limit: 5, times: 3, exact: true, range: { from: 2 } } },
      },
    ]);
    const result = byTestId(details, 'tool-result');
    expect(result.querySelector('pre')?.textContent).toBe('line one\nline two');
    expect(byTestId(details, 'tool-duration').textContent).toBe('12 ms');
  });

  it('does not call the host while required fields are empty or numbers are not numbers', async () => {
    const { panel, host } = await openTools([everything]);
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
    const { panel, host } = await openTools([roll], (h) => {
      h.handlers['tools.invoke'] = () => ({ ok: true, value: { ok: true, content: 'rolled 7', durationMs: 1 } });
    });
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
    const { panel } = await openTools([roll], (h) => {
      h.handlers['tools.invoke'] = () => ({
        ok: true,
        value: { ok: false, error: { code: 'APPROVAL_REJECTED', message: 'The user rejected this call of Roll; it did not run.', hint: 'Do not retry the same call. Take the rejection note into account as the user’s feedback.' }, durationMs: 3 },
      });
    });
    const details = await select(panel, 'dice-and-stats:roll_dice');
    await settle(() => typeInto(byLabel(details, 'notation (required)'), '2d6'));
    await settle(() => byTestId(details, 'try-it-run').click());
    const error = byTestId(details, 'tool-error');
    expect(error.textContent).toContain('You rejected this call in the approval dialog, so it did not run.');
    expect(error.textContent).not.toContain('Do not retry');
    expect(error.textContent).not.toContain('The user rejected');
  });

  it('an approval that timed out reads as what happened, without the advice written for the model', async () => {
    const { panel } = await openTools([roll], (h) => {
      h.handlers['tools.invoke'] = () => ({
        ok: true,
        value: {
          ok: false,
          error: { code: 'APPROVAL_TIMEOUT', message: 'Nobody approved Roll before its deadline, so it did not run.', hint: 'Treat this as a rejection; do not retry the same call unless the user asks.' },
          durationMs: 3,
        },
      });
    });
    const details = await select(panel, 'dice-and-stats:roll_dice');
    await settle(() => typeInto(byLabel(details, 'notation (required)'), '2d6'));
    await settle(() => byTestId(details, 'try-it-run').click());
    const error = byTestId(details, 'tool-error');
    expect(error.textContent).toContain('Nobody approved Roll before its deadline, so it did not run.');
    expect(error.textContent).not.toMatch(/do not retry/i);
  });

  it('each flag says what its answer means (the inline flag never claims the chat calls a tool on its own)', async () => {
    const { panel } = await openTools([roll, append]);
    const details = await select(panel, 'scratchpad:append_note');
    const help = Object.fromEntries([...details.querySelectorAll('.flag')].map((f) => [f.querySelector('dt')?.textContent, f.querySelector('.flag__help')?.textContent]));
    expect(help['Inline available']).toMatch(/through the council members who hold it/);
    expect(help['Inline available']).not.toMatch(/may call it directly/);
    expect(help['Council eligible']).toBe('Council members cannot be given this tool.');
  });

  it('shows a tool failure with code, message, hint and duration', async () => {
    const { panel } = await openTools([roll], (h) => {
      h.handlers['tools.invoke'] = () => ({
        ok: true,
        value: { ok: false, error: { code: 'TOOL_TIMEOUT', message: 'roll_dice did not answer within 30 s.', hint: 'Try a smaller expression.' }, durationMs: 30000 },
      });
    });
    const details = await select(panel, 'dice-and-stats:roll_dice');
    expect(byLabel(details, 'times').value).toBe('1');
    await settle(() => typeInto(byLabel(details, 'notation (required)'), '2d6'));
    await settle(() => byTestId(details, 'try-it-run').click());
    const error = byTestId(details, 'tool-error');
    expect(error.dataset.code).toBe('TOOL_TIMEOUT');
    expect(error.textContent).toContain('TOOL_TIMEOUT');
    expect(error.textContent).toContain('roll_dice did not answer within 30 s.');
    expect(error.textContent).toContain('Try a smaller expression.');
    expect(error.textContent).toContain('30000 ms');
  });

  it('shows a refused call (the host answered with an error) the same way', async () => {
    const { panel } = await openTools([roll], (h) => {
      h.handlers['tools.invoke'] = () => ({ ok: false, error: { code: 'HOST_SHUTDOWN', message: 'Not connected to the host, so tools.invoke was not sent.' } });
    });
    const details = await select(panel, 'dice-and-stats:roll_dice');
    await settle(() => typeInto(byLabel(details, 'notation (required)'), '2d6'));
    await settle(() => byTestId(details, 'try-it-run').click());
    expect(byTestId(details, 'tool-error').textContent).toContain('HOST_SHUTDOWN');
  });

  it('marks the run button busy while the call is in flight and ignores a second submit', async () => {
    let answer!: (value: { ok: true; value: { ok: true; content: string; durationMs: number } }) => void;
    const { panel, host } = await openTools([roll], (h) => {
      h.handlers['tools.invoke'] = () => new Promise((resolve) => (answer = resolve));
    });
    const details = await select(panel, 'dice-and-stats:roll_dice');
    await settle(() => typeInto(byLabel(details, 'notation (required)'), '2d6'));
    const run = byTestId(details, 'try-it-run');
    await settle(() => run.click());
    expect(run.getAttribute('aria-disabled')).toBe('true');
    expect(run.textContent).toContain('Running…');
    await settle(() => run.click());
    expect(host.callsTo('tools.invoke')).toHaveLength(1);
    await settle(() => answer({ ok: true, value: { ok: true, content: '7', durationMs: 3 } }));
    expect(run.getAttribute('aria-disabled')).toBeNull();
    expect(byTestId(details, 'tool-result').textContent).toContain('7');
  });

  it('has a raw JSON fallback: invalid JSON is an error without a call; valid JSON runs; the form takes it back', async () => {
    const { panel, host } = await openTools([roll], (h) => {
      h.handlers['tools.invoke'] = () => ({ ok: true, value: { ok: true, content: 'ok', durationMs: 1 } });
    });
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

    await settle(() => byLabel(details, 'Edit as JSON').click());
    expect(byLabel(details, 'notation (required)').value).toBe('3d8');
    expect(byLabel(details, 'times').value).toBe('2');
  });

  it('edits a schema that is not an object with properties as JSON only', async () => {
    const odd = tool({ name: 'odd', displayName: 'Odd', extensionId: 'fixture', parameters: { oneOf: [{ type: 'object' }, { type: 'string' }] } });
    const { panel } = await openTools([odd]);
    const details = await select(panel, 'fixture:odd');
    expect(details.querySelector('[role="switch"]')).toBeNull();
    expect(byLabel<HTMLTextAreaElement>(details, 'Arguments (JSON object)').value).toBe('{}');
  });

  it('says a tool takes no arguments when its schema has no properties', async () => {
    const { panel, host } = await openTools([clock], (h) => {
      h.handlers['tools.invoke'] = () => ({ ok: true, value: { ok: true, content: '09:30', durationMs: 0.2 } });
    });
    const details = await select(panel, 'builtin:now');
    expect(details.textContent).toContain('This tool takes no arguments.');
    await settle(() => byTestId(details, 'try-it-run').click());
    expect(host.callsTo('tools.invoke').map((c) => c.input)).toEqual([{ qualifiedName: 'builtin:now', args: {} }]);
    expect(byTestId(details, 'tool-duration').textContent).toBe('0.2 ms');
  });
});

describe('Copy as', () => {
  it('asks the host for each format and shows the spec read-only', async () => {
    const { panel, host } = await openTools([knowledge]);
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
      expect(host.callsTo('tools.exportSpec').at(-1)?.input).toEqual({ qualifiedName: 'knowledge-base:search_knowledge_base', format });
      const text = byTestId(details, 'spec-text') as HTMLTextAreaElement;
      expect(text.readOnly).toBe(true);
      expect(text.dataset.format).toBe(format);
      expect(JSON.parse(text.value)).toMatchObject({ format, name: knowledge.alias });
      expect(buttonNamed(group, label).getAttribute('aria-pressed')).toBe('true');
    }
  });

  it('copies with the clipboard API when it is allowed', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, userAgent: 'Linux', clipboard: { writeText } });
    const { panel } = await openTools([knowledge]);
    const details = await select(panel, 'knowledge-base:search_knowledge_base');
    await settle(() => buttonNamed(details, 'Anthropic tool').click());
    await settle(() => buttonNamed(details, 'Copy').click());
    expect(writeText).toHaveBeenCalledWith((byTestId(details, 'spec-text') as HTMLTextAreaElement).value);
    expect(details.textContent).toContain('Copied to the clipboard.');
  });

  it('selects the text and says "Press Ctrl+C" when the clipboard is refused', async () => {
    const writeText = vi.fn(() => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')));
    vi.stubGlobal('navigator', { ...navigator, userAgent: 'Linux', clipboard: { writeText } });
    const { panel } = await openTools([knowledge]);
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
    const { panel } = await openTools([knowledge], (h) => {
      h.handlers['tools.exportSpec'] = () => ({ ok: false, error: { code: 'UNKNOWN_TOOL', message: 'No such tool.', hint: 'It may have been unregistered.' } });
    });
    const details = await select(panel, 'knowledge-base:search_knowledge_base');
    await settle(() => buttonNamed(details, 'OpenAI strict').click());
    const error = details.querySelector<HTMLElement>('[data-testid="inline-error"]')!;
    expect(error.textContent).toContain('UNKNOWN_TOOL');
    expect(error.textContent).toContain('It may have been unregistered.');
  });
});

describe('hostile strings', () => {
  it('renders tool names, descriptions, schemas and results as text', async () => {
    const evil = tool({
      name: 'evil',
      extensionId: 'fixture',
      displayName: XSS,
      description: `Looks harmless ${XSS}`,
      parameters: { type: 'object', properties: { q: { type: 'string', description: XSS, enum: [XSS] } } },
    });
    const { panel, container } = await openTools([evil], (h) => {
      h.handlers['tools.invoke'] = () => ({ ok: true, value: { ok: true, content: XSS, durationMs: 1 } });
      h.handlers['tools.exportSpec'] = () => ({ ok: true, value: { spec: { description: XSS } } });
    });
    const details = await select(panel, 'fixture:evil');
    await settle(() => byTestId(details, 'try-it-run').click());
    await settle(() => buttonNamed(details, 'OpenAI function').click());
    expect(panel.querySelector('button.tool-row')?.textContent).toContain(XSS);
    expect(details.querySelector('h2')?.textContent).toBe(XSS);
    expect(details.textContent).toContain(`Looks harmless ${XSS}`);
    expect(byTestId(details, 'tool-result').querySelector('pre')?.textContent).toBe(XSS);
    expect((byTestId(details, 'spec-text') as HTMLTextAreaElement).value).toContain(JSON.stringify(XSS).slice(1, -1));
    expect(container.querySelector('img')).toBeNull();
    expect(window.__pwned).toBeUndefined();
  });
});
