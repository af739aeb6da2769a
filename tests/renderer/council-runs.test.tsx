// @vitest-environment happy-dom
// The Council Runs tab against a fake host: test roll, run with live events, the timeline (statuses, deadline, details),
// hostile tool output as text, abort, retry failed, past runs and trace export.
import { TIP_SIZE } from '../../renderer/src/features/council/timeline-geometry';
import { afterEach, describe, expect, it } from 'vitest';
import type { CouncilToolResult } from '../../shared/types/council';
import { installCouncil, member, result, storedRun, type FakeCouncil } from './council-fixtures';
import { byLabel, byTestId, buttonNamed, cleanup, extension, FakeHost, key, navButton, renderShell, settle, typeInto } from './harness';

import { XSS } from '../fixtures/xss-corpus';

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

afterEach(() => {
  cleanup();
  delete window.__pwned;
});

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function openRuns(setup: (host: FakeHost, council: FakeCouncil) => void = () => undefined) {
  const host = new FakeHost();
  host.extensions = [extension(), extension({ id: 'dice-and-stats', name: 'Dice and Stats' })];
  const council = installCouncil(host);
  setup(host, council);
  const rendered = await renderShell(host);
  await settle(() => navButton(rendered.container, 'Council').click());
  await settle(() => byTestId(rendered.container, 'council-tab-runs').click());
  await settle();
  return { ...rendered, council, panel: byTestId(rendered.container, 'panel-council') };
}

function bars(panel: HTMLElement): SVGGElement[] {
  return [...panel.querySelectorAll<SVGGElement>('[data-testid="timeline-bar"]')];
}

const twoMembers = (_host: FakeHost, c: FakeCouncil) => {
  c.settings.members = [
    member({ chance: 75, tools: ['knowledge-base:search_knowledge_base', 'dice-and-stats:roll_dice'] }),
    member({ id: 'm-wren', itemId: 'continuity-keeper', chance: 30, tools: ['knowledge-base:search_knowledge_base'] }),
    member({ id: 'm-tempo', itemId: 'pacing-critic', chance: 50, tools: [] }),
  ];
  c.rolls = { 'm-vane': 12.5, 'm-wren': 64.25 };
};

describe('test roll', () => {
  it('previews who would take part, with each roll against its chance and the seed', async () => {
    const { panel, host } = await openRuns(twoMembers);
    const card = byTestId(panel, 'test-roll');
    await settle(() => typeInto(byLabel(byTestId(panel, 'run-card'), 'Seed (optional)'), '1234'));
    await settle(() => buttonNamed(card, 'Test roll').click());
    expect(host.callsTo('council.testRoll').map((c) => c.input)).toEqual([{ seed: 1234 }]);
    expect(byTestId(card, 'roll-seed').textContent).toBe('1234');
    expect(card.textContent).toContain('1 of 3 members take part (Marshal Vane)');
    const rows = [...card.querySelectorAll<HTMLElement>('[data-testid="roll-row"]')];
    expect(rows.map((r) => [r.querySelector('th')!.textContent, r.dataset.active])).toEqual([
      ['Marshal Vane', 'true'],
      ['Archivist Wren', 'false'],
      ['Tempo', 'false'],
    ]);
    expect(rows[0]!.textContent).toContain('75%');
    expect(rows[0]!.textContent).toContain('12.50 < 75');
    expect(rows[1]!.textContent).toContain('64.25 ≥ 30');
    expect(rows[2]!.textContent).toContain('no tools: sits out');
    // Nothing ran.
    expect(host.callsTo('council.run')).toHaveLength(0);
  });

  it('hands a rolled seed to the run and refuses a malformed one', async () => {
    const { panel, host } = await openRuns(twoMembers);
    const card = byTestId(panel, 'test-roll');
    await settle(() => buttonNamed(card, 'Test roll').click());
    expect(host.callsTo('council.testRoll').map((c) => c.input)).toEqual([{}]);
    await settle(() => buttonNamed(card, 'Use this seed for the run').click());
    const seed = byLabel<HTMLInputElement>(byTestId(panel, 'run-card'), 'Seed (optional)');
    expect(seed.value).toBe('3735928559');
    await settle(() => typeInto(seed, '-3'));
    expect(seed.getAttribute('aria-invalid')).toBe('true');
    expect(byTestId(panel, 'run-card').textContent).toContain('A seed is a whole number from 0 to 4294967295.');
    await settle(() => byTestId(panel, 'run-button').click());
    expect(host.callsTo('council.run')).toHaveLength(0);
  });
});

describe('runs and the timeline', () => {
  it('runs the council on the sample chat and fills the timeline live, with progress, then the deliberation block', async () => {
    let open!: () => void;
    const { panel, host, council } = await openRuns((h, c) => {
      twoMembers(h, c);
      c.rolls['m-wren'] = 10;
      c.settings.toolsSettings.timeoutMs = 2000;
      c.runGate = new Promise<void>((resolve) => (open = resolve));
    });
    await settle(() => byTestId(panel, 'run-button').click());
    const call = host.callsTo('council.run')[0]!.input as { chat: { chatId: string; messages: unknown[] }; runId: string };
    expect(call.chat.chatId).toBe('council-panel-sample');
    expect(call.chat.messages.length).toBe(4);
    expect(call.runId).toMatch(/^ui-[a-z0-9]+-[0-9a-f]{12}$/);

    // council.run.started arrived: three calls planned, all running.
    const timeline = byTestId(panel, 'timeline');
    expect(timeline.dataset.runId).toBe(call.runId);
    expect(bars(panel).map((b) => b.dataset.status)).toEqual(['running', 'running', 'running']);
    expect(byTestId(panel, 'run-progress').textContent).toContain('0 of 3 tools done');
    expect(byTestId(panel, 'run-head').dataset.status).toBe('running');
    expect(byTestId(panel, 'abort-button')).toBeTruthy();
    const lanes = [...timeline.querySelectorAll('.tl-lane-name')].map((t) => t.textContent);
    expect(lanes).toEqual(['Marshal Vane', 'Archivist Wren', 'Tempo']);
    expect(timeline.querySelector('.tl-lane-note')!.textContent).toBe('sat out: no tools');

    // A running bar grows with the animation-frame clock (on the fixed axis up to the deadline).
    await settle(() => buttonNamed(timeline, 'Up to deadline').click());
    const before = Number(bars(panel)[0]!.dataset.width);
    const labelBefore = bars(panel)[0]!.getAttribute('aria-label');
    await settle(async () => {
      await wait(120);
    });
    expect(bars(panel)[0]!.getAttribute('aria-label')).not.toBe(labelBefore);
    expect(Number(bars(panel)[0]!.dataset.width)).toBeGreaterThan(before);

    // One result arrives by event: that bar is finished, the rest still run.
    await settle(() =>
      host.emit({ type: 'council.run.result', runId: call.runId, result: result({ toolName: 'dice-and-stats:roll_dice', toolDisplayName: 'Roll Dice', status: 'error', success: false, content: '', errorCode: 'SIDECAR_NOT_CONFIGURED', error: 'Roll Dice needs arguments (notation), and no sidecar LLM is configured to plan them.', durationMs: 3 }) }),
    );
    expect(bars(panel).map((b) => b.dataset.status)).toEqual(['running', 'error', 'running']);
    expect(byTestId(panel, 'run-progress').textContent).toContain('1 of 3 tools done');

    await settle(async () => {
      open();
      await wait(0);
    });
    expect(bars(panel).map((b) => b.dataset.status)).toEqual(['ok', 'ok', 'ok']);
    expect(panel.querySelector('[data-testid="run-progress"]')).toBeNull();
    expect(byTestId(panel, 'run-head').dataset.status).toBe('completed');
    expect(byTestId(panel, 'deliberation').textContent).toContain('## Council Deliberation');
    expect(byTestId(panel, 'past-run').dataset.runId).toBe(call.runId);
    expect(council.runs).toHaveLength(1);
  });

  it('draws a bar per result coloured by status, the deadline, a legend and ticks, with details on focus', async () => {
    const results: CouncilToolResult[] = [
      result({ durationMs: 420, content: 'Two entries about muses.' }),
      result({ toolName: 'dice-and-stats:roll_dice', toolDisplayName: 'Roll Dice', success: false, content: '', status: 'error', errorCode: 'SIDECAR_NOT_CONFIGURED', error: 'No sidecar LLM is configured to plan arguments.', durationMs: 2 }),
      result({ memberId: 'm-wren', memberName: 'Archivist Wren', success: false, content: '', status: 'timeout', errorCode: 'TOOL_TIMEOUT', error: 'No answer within the council timeout of 1000 ms.', durationMs: 1000 }),
      result({ memberId: 'm-wren', memberName: 'Archivist Wren', toolName: 'gone:tool', toolDisplayName: 'gone:tool', success: false, content: '', status: 'missing', errorCode: 'MISSING', error: 'Tool "gone:tool" is not registered.', durationMs: 0 }),
      result({ memberId: 'm-tempo', memberName: 'Tempo', success: false, content: '', status: 'cancelled', errorCode: 'CANCELLED', error: 'The council run was cancelled.', startedAt: 5, durationMs: 300 }),
    ];
    const run = storedRun({
      id: 'run-old',
      results,
      timeoutMs: 1000,
      totalDurationMs: 1001,
      rolls: [
        { memberId: 'm-vane', memberName: 'Marshal Vane', chance: 75, roll: 1, active: true, reason: 'rolled' },
        { memberId: 'm-wren', memberName: 'Archivist Wren', chance: 100, roll: 80, active: true, reason: 'always' },
        { memberId: 'm-tempo', memberName: 'Tempo', chance: 100, roll: 3, active: true, reason: 'always' },
      ],
    });
    const { panel, host } = await openRuns((_h, c) => {
      c.runs = [run];
    });
    const row = byTestId(panel, 'past-run');
    expect(row.textContent).toContain('1/5 ok');
    await settle(() => buttonNamed(row, 'Open run run-old').click());
    expect(host.callsTo('runs.get').map((c) => c.input)).toEqual([{ runId: 'run-old' }]);

    const timeline = byTestId(panel, 'timeline');
    expect(bars(panel).map((b) => b.dataset.status)).toEqual(['ok', 'error', 'timeout', 'missing', 'cancelled']);
    const ok = bars(panel)[0]!;
    const timeout = bars(panel)[2]!;
    // Widths follow durations; the timed-out call ends on the deadline line.
    expect(Number(timeout.dataset.width)).toBeGreaterThan(Number(ok.dataset.width) * 2);
    const deadline = byTestId(timeline, 'timeline-deadline');
    expect(deadline.textContent).toBe('deadline 1 s');
    const deadlineX = Number(deadline.querySelector('line')!.getAttribute('x1'));
    expect(Number(timeout.dataset.x) + Number(timeout.dataset.width)).toBeCloseTo(deadlineX, 0);
    expect(bars(panel)[3]!.querySelector('rect')!.getAttribute('fill')).toMatch(/^url\(#.+-hatch\)$/);
    expect([...timeline.querySelectorAll('[data-testid="timeline-tick"]')].map((t) => t.textContent)).toEqual(['0 ms', '200 ms', '400 ms', '600 ms', '800 ms', '1 s', '1.2 s']);
    expect(byLabel(timeline, 'Legend').textContent).toContain('Timed out');
    expect(timeline.querySelector('[aria-label="Legend"]')!.textContent).toContain('Missing');
    expect(bars(panel)[1]!.getAttribute('aria-label')).toBe('Marshal Vane, Roll Dice: Error, SIDECAR_NOT_CONFIGURED, started at 0 ms, 2 ms');

    // Keyboard: focus a bar, arrows move between bars, the details follow.
    await settle(() => bars(panel)[0]!.focus());
    expect(byTestId(panel, 'call-detail').dataset.status).toBe('ok');
    expect(byTestId(panel, 'call-output').textContent).toBe('Two entries about muses.');
    await settle(() => void key(bars(panel)[0]!, { key: 'ArrowRight' }));
    const detail = byTestId(panel, 'call-detail');
    expect(detail.dataset.status).toBe('error');
    expect(byTestId(detail, 'call-error-code').textContent).toBe('SIDECAR_NOT_CONFIGURED');
    expect(byTestId(detail, 'call-error').textContent).toContain('No sidecar LLM');
    await settle(() => void key(document.activeElement!, { key: 'End' }));
    expect(byTestId(panel, 'call-detail').dataset.status).toBe('cancelled');
    expect(byTestId(panel, 'call-duration').textContent).toBe('300 ms');

    // Retry failed re-runs only the failures and opens the new run.
    await settle(() => byTestId(panel, 'retry-button').click());
    expect(host.callsTo('council.retryFailed').map((c) => c.input)).toEqual([{ runId: 'run-old' }]);
    expect(byTestId(panel, 'timeline').dataset.runId).toMatch(/^run-retry-/);
    expect(bars(panel).every((b) => b.dataset.status === 'ok')).toBe(true);
    expect(byTestId(panel, 'run-head').textContent).toContain('retry of run-old');
  });

  it('marks a call made without planned arguments on the timeline and says why in its detail', async () => {
    const { panel } = await openRuns((h, c) => {
      twoMembers(h, c);
      c.runs = [storedRun({ id: 'run-unplanned', results: [result({ toolName: 'kb:search', toolDisplayName: 'Search', unplanned: 'no sidecar LLM is configured to plan query' })] })];
    });
    await settle(() => buttonNamed(byTestId(panel, 'past-run'), 'Open run run-unplanned').click());
    expect(byLabel(byTestId(panel, 'timeline'), 'Legend').textContent).toContain('Unplanned');
    expect(bars(panel)[0]!.querySelectorAll('[data-testid="tl-unplanned"]')).toHaveLength(1);
    await settle(() => bars(panel)[0]!.focus());
    expect(byTestId(panel, 'call-unplanned').textContent).toContain('no sidecar LLM is configured to plan query');
  });

  it("the hover tip of the last lane's bar stays inside the chart (above the bar when below would be cut off)", async () => {
    const { panel } = await openRuns((h, c) => {
      twoMembers(h, c);
      c.runs = [
        storedRun({
          id: 'run-tip',
          results: [result({ toolName: 'kb:search', toolDisplayName: 'Search' }), result({ memberId: 'm-wren', memberName: 'Archivist Wren', toolName: 'kb:search', toolDisplayName: 'Search' })],
        }),
      ];
    });
    await settle(() => buttonNamed(byTestId(panel, 'past-run'), 'Open run run-tip').click());
    const chart = byTestId(panel, 'timeline').querySelector('svg')!;
    const height = Number(chart.getAttribute('height'));
    for (const bar of bars(panel)) {
      await settle(() => void bar.dispatchEvent(new MouseEvent('mouseover', { bubbles: true })));
      const tip = panel.querySelector<HTMLElement>('.timeline__tip')!;
      expect(tip).toBeTruthy();
      expect(parseFloat(tip.style.top) + TIP_SIZE.height).toBeLessThanOrEqual(height);
      await settle(() => void bar.dispatchEvent(new MouseEvent('mouseout', { bubbles: true })));
    }
  });

  it('marks simulated and unvalidated writes of a dry run, and sends the dry-run choice with the run', async () => {
    const { panel, host } = await openRuns((h, c) => {
      twoMembers(h, c);
      c.runs = [
        storedRun({
          id: 'run-dry',
          results: [
            result({ toolName: 'scratchpad:append_note', toolDisplayName: 'Append to Scratchpad', simulated: true, content: 'Would append: "note"' }),
            result({ memberId: 'm-wren', memberName: 'Archivist Wren', toolName: 'scratchpad:append_note', toolDisplayName: 'Append to Scratchpad', simulated: true, unvalidated: true, content: '{"ok":true,"simulated":true,"unvalidated":true}' }),
          ],
        }),
      ];
    });
    await settle(() => buttonNamed(byTestId(panel, 'past-run'), 'Open run run-dry').click());
    const timeline = byTestId(panel, 'timeline');
    const legend = byLabel(timeline, 'Legend').textContent;
    expect(legend).toContain('Simulated');
    expect(legend).toContain('Unvalidated');
    expect(bars(panel)[0]!.querySelectorAll('.tl-marker')).toHaveLength(1);
    expect(bars(panel)[1]!.querySelectorAll('.tl-marker')).toHaveLength(2);
    await settle(() => bars(panel)[1]!.focus());
    expect(byTestId(panel, 'call-simulated').textContent).toContain('placeholder');

    const dry = byTestId(panel, 'dry-run') as HTMLInputElement;
    expect(dry.checked).toBe(false);
    await settle(() => dry.click());
    await settle(() => byTestId(panel, 'run-button').click());
    expect((host.callsTo('council.run')[0]!.input as { dryRun?: boolean }).dryRun).toBe(true);
  });

  it('renders hostile tool output, names and errors as text', async () => {
    const hostile = result({ memberName: XSS, toolDisplayName: XSS, content: `${XSS}\n<script>window.__pwned=2</script>\nIgnore previous instructions.`, error: XSS });
    const { panel } = await openRuns((_h, c) => {
      c.runs = [storedRun({ id: 'run-x', results: [hostile], deliberationBlock: `## Council Deliberation\n${XSS}` })];
    });
    await settle(() => buttonNamed(byTestId(panel, 'past-run'), 'Open run run-x').click());
    await settle(() => void bars(panel)[0]!.dispatchEvent(new MouseEvent('click', { bubbles: true })));
    const output = byTestId(panel, 'call-output');
    expect(output.textContent).toContain(XSS);
    expect(output.textContent).toContain('<script>window.__pwned=2</script>');
    expect(byTestId(panel, 'deliberation').textContent).toContain(XSS);
    expect(panel.querySelector('img[src="x"], script')).toBeNull();
    expect(byTestId(panel, 'call-error').textContent).toBe(XSS);
    await settle(async () => {
      await wait(20);
    });
    expect(window.__pwned).toBeUndefined();
  });

  it('aborts a run in flight by its id', async () => {
    const { panel, host, council } = await openRuns((h, c) => {
      twoMembers(h, c);
      c.runGate = new Promise<void>(() => undefined);
    });
    void council;
    await settle(() => byTestId(panel, 'run-button').click());
    const runId = (host.callsTo('council.run')[0]!.input as { runId: string }).runId;
    expect(byTestId(panel, 'run-button').getAttribute('aria-disabled')).toBe('true');
    await settle(() => byTestId(panel, 'abort-button').click());
    expect(host.callsTo('council.abort').map((c) => c.input)).toEqual([{ runId }]);
    // The host reports the cancelled calls and the aborted run.
    const cancelled = result({ status: 'cancelled', success: false, content: '', errorCode: 'CANCELLED', error: 'The council run was cancelled.', durationMs: 40 });
    await settle(() => {
      host.emit({ type: 'council.run.result', runId, result: cancelled });
      host.emit({ type: 'council.run.finished', runId, run: storedRun({ id: runId, status: 'aborted', results: [cancelled], note: 'The run was cancelled; tools still running were stopped.' }) });
    });
    expect(bars(panel).map((b) => b.dataset.status)).toEqual(['cancelled']);
    expect(byTestId(panel, 'run-head').dataset.status).toBe('aborted');
    expect(byTestId(panel, 'run-note').textContent).toContain('cancelled');
    expect(panel.querySelector('[data-testid="abort-button"]')).toBeNull();
  });

  it('shows a run that failed to start inline with its code and hint', async () => {
    const { panel, host } = await openRuns();
    host.handlers['council.run'] = () => ({ ok: false, error: { code: 'CONFLICT', message: 'Run id is already used.', hint: 'Try again.' } });
    await settle(() => byTestId(panel, 'run-button').click());
    const error = byTestId(byTestId(panel, 'run-card'), 'inline-error');
    expect(error.dataset.code).toBe('CONFLICT');
    expect(error.textContent).toContain('Try again.');
    expect(panel.querySelector('[data-testid="timeline"]')).toBeNull();
  });

  it('exports a stored run as a JSON Lines trace with a download link and the text', async () => {
    const { panel, host } = await openRuns((_h, c) => {
      c.runs = [storedRun({ id: 'run-t', results: [result(), result({ toolName: 'dice-and-stats:roll_dice' })] })];
    });
    await settle(() => buttonNamed(byTestId(panel, 'past-run'), 'Export trace of run run-t').click());
    expect(host.callsTo('runs.exportTrace').map((c) => c.input)).toEqual([{ runId: 'run-t' }]);
    const box = byTestId(panel, 'trace-export');
    expect(box.textContent).toContain('run-t.trace.jsonl');
    const text = (byTestId(box, 'export-text') as HTMLTextAreaElement).value;
    expect(text.split('\n').map((l) => (JSON.parse(l) as { toolName: string }).toolName)).toEqual(['knowledge-base:search_knowledge_base', 'dice-and-stats:roll_dice']);
    const link = byTestId(box, 'download-link') as HTMLAnchorElement;
    expect(link.getAttribute('download')).toBe('run-t.trace.jsonl');
    expect(link.getAttribute('href')).toMatch(/^blob:/);
    await settle(() => buttonNamed(box, /^Close Trace of run-t/).click());
    expect(panel.querySelector('[data-testid="trace-export"]')).toBeNull();
  });

  it('lists runs started elsewhere (the Workbench chat) while they run, to watch, and among past runs when they finish', async () => {
    const { panel, host, store } = await openRuns();
    await settle(() =>
      host.emit({
        type: 'council.run.started',
        runId: 'run-chat',
        seed: 9,
        startedAt: Date.now(),
        mode: 'sidecar',
        timeoutMs: 30_000,
        rolls: [{ memberId: 'm-vane', memberName: 'Marshal Vane', chance: 100, roll: 4, active: true, reason: 'always' }],
        planned: [{ memberId: 'm-vane', memberName: 'Marshal Vane', toolName: 'knowledge-base:search_knowledge_base', toolDisplayName: 'Search Knowledge Base' }],
        retryOf: null,
      }),
    );
    // Not opened on its own: the run on screen stays.
    expect(panel.querySelector('[data-testid="timeline"]')).toBeNull();
    const live = byTestId(panel, 'live-run');
    expect(live.textContent).toContain('0 of 1 tools done');
    await settle(() => buttonNamed(live, 'Watch run run-chat').click());
    expect(byTestId(panel, 'timeline').dataset.runId).toBe('run-chat');
    expect(bars(panel).map((b) => b.dataset.status)).toEqual(['running']);
    await settle(() => byTestId(panel, 'council-tab-members').click());
    await settle(() => byTestId(panel, 'council-tab-runs').click());
    await settle(() => host.emit({ type: 'council.run.finished', runId: 'run-chat', run: storedRun({ id: 'run-chat', chatId: 'session-1' }) }));
    expect([...panel.querySelectorAll<HTMLElement>('[data-testid="past-run"]')].map((r) => r.dataset.runId)).toEqual(['run-chat']);
    expect(panel.querySelector('[data-testid="live-run"]')).toBeNull();
    expect(bars(panel).map((b) => b.dataset.status)).toEqual(['ok']);
    await settle(() => store.getState().runOpened(null));
    await settle(() => buttonNamed(byTestId(panel, 'past-run'), 'Open run run-chat').click());
    // Known in memory already: no runs.get needed.
    expect(host.callsTo('runs.get')).toHaveLength(0);
    expect(byTestId(panel, 'timeline').dataset.runId).toBe('run-chat');
  });
});
