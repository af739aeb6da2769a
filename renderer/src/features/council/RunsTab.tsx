// The Runs tab: Test roll (who would take part, and why), a quick Run with Abort and Retry failed, the open run's
// timeline and deliberation block, and the stored runs to open again or export as a JSON Lines trace.
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { MethodOutput } from '../../../../shared/contract';
import type { ChatSessionSummary } from '../../../../shared/types/chat';
import type { CouncilChat, CouncilView, RunSummary } from '../../../../shared/types/council';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { abortRun, openRun, reloadRuns, retryFailed, startRun, stillRunning } from '../../stores/council-commands';
import type { RunTrace } from '../../stores/runs-slice';
import { FileExport } from './FileExport';
import { progressOf } from './run-model';
import { SAMPLE_CHAT, sessionToChat } from './sample-chat';
import { Timeline } from './Timeline';
import { formatDuration } from './timeline-geometry';
import { useAction } from './use-action';
import { AskingHost } from '../../components/AskingHost';

type TestRollResult = MethodOutput<'council.testRoll'>;

const MAX_SEED = 4294967295;

export function parseSeed(text: string): number | null | 'invalid' {
  const t = text.trim();
  if (!t) return null;
  if (!/^\d{1,10}$/.test(t)) return 'invalid';
  const n = Number(t);
  return n <= MAX_SEED ? n : 'invalid';
}

function when(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
}

function reasonText(r: TestRollResult['rolls'][number]): string {
  switch (r.reason) {
    case 'always':
      return 'chance 100%: always';
    case 'never':
      return 'chance 0%: never';
    case 'no-tools':
      return 'no tools: sits out';
    case 'fallback':
      return 'every roll failed: picked by the at-least-one fallback';
    default:
      return r.active ? `${r.roll.toFixed(2)} < ${r.chance}` : `${r.roll.toFixed(2)} ≥ ${r.chance}`;
  }
}

function RollTable(props: { rolls: TestRollResult['rolls']; caption: string }) {
  return (
    <table className="roll-table" data-testid="roll-table">
      <caption className="visually-hidden">{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Member</th>
          <th scope="col">Chance</th>
          <th scope="col">Roll</th>
          <th scope="col">Takes part</th>
          <th scope="col">Why</th>
        </tr>
      </thead>
      <tbody>
        {props.rolls.map((r) => (
          <tr key={r.memberId} className={r.active ? 'roll-table__in' : 'roll-table__out'} data-testid="roll-row" data-active={r.active}>
            <th scope="row">{r.memberName}</th>
            <td>{r.chance}%</td>
            <td>
              <span className="roll-meter" aria-hidden="true">
                <span className="roll-meter__chance" style={{ width: `${r.chance}%` }} />
                <span className={`roll-meter__roll roll-meter__roll--${r.active ? 'in' : 'out'}`} style={{ left: `${Math.min(100, Math.max(0, r.roll))}%` }} />
              </span>
              <code>{r.roll.toFixed(2)}</code>
            </td>
            <td>{r.active ? <span className="badge badge--ok">yes</span> : <span className="badge badge--neutral">no</span>}</td>
            <td className="roll-table__why">{reasonText(r)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function TestRoll(props: { seedText: string; onUseSeed(seed: number): void }) {
  const host = useHost();
  const id = useId();
  const { busy, error, run } = useAction<'roll'>();
  const [result, setResult] = useState<TestRollResult | null>(null);
  const seed = parseSeed(props.seedText);

  const roll = () => {
    if (seed === 'invalid') return;
    void run('roll', 'Could not roll', () => host.invoke('council.testRoll', seed === null ? {} : { seed })).then((r) => {
      if (r?.ok) setResult(r.value);
    });
  };

  const active = result?.rolls.filter((r) => r.active) ?? [];
  return (
    <section className="card test-roll" aria-labelledby={`${id}-title`} data-testid="test-roll">
      <div className="card__head">
        <div>
          <h2 id={`${id}-title`} className="card__title">
            Test roll
          </h2>
          <p className="card__lead">Preview who would take part: every member with tools rolls 0–100 and takes part when the roll is under its chance. Nothing runs.</p>
        </div>
        <button type="button" className="btn" aria-disabled={busy !== null || seed === 'invalid' || undefined} onClick={roll}>
          <Icon name="refresh" />
          {busy ? 'Rolling…' : 'Test roll'}
        </button>
      </div>
      {result && (
        <div className="test-roll__result" data-testid="roll-result">
          <p className="test-roll__summary" role="status">
            Seed <code data-testid="roll-seed">{result.seed}</code>: {active.length} of {result.rolls.length} {result.rolls.length === 1 ? 'member takes' : 'members take'} part
            {active.length > 0 ? ` (${active.map((r) => r.memberName).join(', ')})` : ''}.
            {result.fallbackUsed && ' Every roll failed, so the at-least-one fallback picked one.'}
            <button type="button" className="link-button" onClick={() => props.onUseSeed(result.seed)}>
              Use this seed for the run
            </button>
          </p>
          {result.rolls.length > 0 ? <RollTable rolls={result.rolls} caption={`Rolls for seed ${result.seed}`} /> : <p className="panel-note">The council has no members.</p>}
        </div>
      )}
      {error && <InlineError error={error.error} title={error.title} />}
    </section>
  );
}

function Progress(props: { trace: RunTrace }) {
  const p = progressOf(props.trace);
  if (!p.running) return null;
  return (
    <div className="run-progress" data-testid="run-progress">
      <progress max={Math.max(1, p.total)} value={p.done} aria-label="Council run progress" />
      <span role="status">
        {p.done} of {p.total} {p.total === 1 ? 'tool' : 'tools'} done
      </span>
    </div>
  );
}

function RunHeader(props: { trace: RunTrace }) {
  const { trace } = props;
  const run = trace.run;
  const status = run ? run.status : 'running';
  return (
    <div className="run-head" data-testid="run-head" data-status={status}>
      <span className={`status-badge status-badge--${status === 'completed' ? (run && run.counts.failed > 0 ? 'warn' : 'ok') : status === 'aborted' ? 'danger' : status === 'running' ? 'warn' : 'ok'}`}>
        <span className={`status-badge__dot${status === 'running' ? ' status-badge__dot--pulse' : ''}`} aria-hidden="true" />
        {status}
      </span>
      <code className="run-head__id">{trace.id}</code>
      <span>
        seed <code data-testid="run-seed">{trace.seed}</code>
      </span>
      <span>{trace.mode} mode</span>
      <span>{when(trace.startedAt)}</span>
      {run && <span>took {formatDuration(run.totalDurationMs)}</span>}
      {run && (
        <span data-testid="run-counts">
          {run.counts.ok} ok · {run.counts.failed} failed
        </span>
      )}
      {trace.retryOf && <span>retry of <code>{trace.retryOf}</code></span>}
      {run?.dryRun && (
        <span className="badge badge--write" data-testid="run-dry-run" title="Write tools were simulated: nothing was written.">
          dry run
        </span>
      )}
    </div>
  );
}

type ChatChoice = 'sample' | `session:${string}`;

function RunCard(props: { view: CouncilView; seedText: string; setSeedText(text: string): void }) {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const trace = useAppStore((s) => (s.runs.openId !== null && Object.prototype.hasOwnProperty.call(s.runs.traces, s.runs.openId) ? s.runs.traces[s.runs.openId]! : null));
  const workbenchSession = useAppStore((s) => s.chat?.openId ?? null);
  const dryRunDefault = useAppStore((s) => s.settings?.safety?.dryRun ?? false);
  const [dryRunChoice, setDryRunChoice] = useState<boolean | null>(null);
  const dryRun = dryRunChoice ?? dryRunDefault;
  const [sessions, setSessions] = useState<ChatSessionSummary[]>([]);
  const [choice, setChoice] = useState<ChatChoice>('sample');
  const [waitingHost, setWaitingHost] = useState(false);
  const { busy, error, setError, run } = useAction<'run' | 'abort' | 'retry'>();
  const seed = parseSeed(props.seedText);

  useEffect(() => {
    let live = true;
    void host.invoke('chat.sessions.list', {}).then((r) => {
      if (!live || !r.ok) return;
      setSessions(r.value);
      if (workbenchSession && r.value.some((s) => s.id === workbenchSession)) setChoice(`session:${workbenchSession}`);
    });
    return () => void (live = false);
    // Only the first answer picks the default: the Workbench's open session (read once, not followed).
  }, [host]); // workbenchSession deliberately left out

  const running = trace !== null && trace.run === null;
  const starting = busy === 'run' && trace === null;

  const chatFor = async (): Promise<CouncilChat | { error: string }> => {
    if (choice === 'sample') return SAMPLE_CHAT;
    const sessionId = choice.slice('session:'.length);
    const got = await host.invoke('chat.sessions.get', { sessionId });
    if (!got.ok) return { error: got.error.message };
    return sessionToChat(got.value);
  };

  const go = (event: FormEvent) => {
    event.preventDefault();
    if (seed === 'invalid' || running) return;
    setWaitingHost(false);
    void run('run', 'The council run failed', async () => {
      const chat = await chatFor();
      if ('error' in chat) return { ok: false as const, error: { code: 'NOT_FOUND', message: `Could not read the Workbench session: ${chat.error}` } };
      const result = await startRun(store, host, chat, { ...(seed === null ? {} : { seed }), dryRun });
      if (!result.ok && stillRunning(result.error)) {
        // The run goes on in the host; its events finish the timeline.
        setWaitingHost(true);
        return null;
      }
      return result;
    });
  };

  const abort = () => {
    if (!trace || trace.run) return;
    void abortRun(host, trace.id).then((r) => {
      if (!r.ok) setError({ title: 'Could not abort', error: r.error });
    });
  };

  const failed = trace?.run && trace.run.status !== 'inline' ? trace.run.results.filter((r) => !r.success).length : 0;
  const retry = () => {
    if (!trace?.run || failed === 0) return;
    void run('retry', 'Retry failed', () => retryFailed(store, host, trace.id));
  };

  const noneWithTools = props.view.members.every((m) => m.tools.length === 0);
  return (
    <section className="card run-card" aria-labelledby={`${id}-title`} data-testid="run-card">
      <h2 id={`${id}-title`} className="card__title">
        Run the council
      </h2>
      <p className="card__lead">
        A quick run against a chat: the dice roll, the active members’ tools run under the deadline ({formatDuration(props.view.settings.toolsSettings.timeoutMs)}), and the results become the
        deliberation block. {props.view.settings.councilMode ? '' : 'Council Mode is off; runs started here work anyway.'}
      </p>
      <form className="run-form" onSubmit={go} noValidate>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-chat`}>
            Chat
          </label>
          <select id={`${id}-chat`} className="input input--select" value={choice} onChange={(e) => setChoice(e.target.value as ChatChoice)}>
            <option value="sample">Sample scene (airship in a storm, 4 messages)</option>
            {sessions.map((s) => (
              <option key={s.id} value={`session:${s.id}`}>
                Workbench: {s.title} ({s.messageCount} {s.messageCount === 1 ? 'message' : 'messages'})
              </option>
            ))}
          </select>
        </div>
        <div className="field run-form__seed">
          <label className="field__label" htmlFor={`${id}-seed`}>
            Seed <span className="field__title">(optional)</span>
          </label>
          <input
            id={`${id}-seed`}
            className="input input--mono"
            inputMode="numeric"
            value={props.seedText}
            placeholder="random"
            aria-invalid={seed === 'invalid' || undefined}
            aria-describedby={seed === 'invalid' ? `${id}-seed-error` : `${id}-seed-help`}
            onChange={(e) => props.setSeedText(e.target.value)}
          />
        </div>
        <label className="field__check run-form__dry" title="Write tools describe what they would do instead of doing it (default from the safety settings)">
          <input type="checkbox" checked={dryRun} onChange={(e) => setDryRunChoice(e.target.checked)} data-testid="dry-run" />
          Dry run
        </label>
        <div className="run-form__actions">
          <button type="submit" className="btn btn--primary" aria-disabled={running || busy !== null || seed === 'invalid' || undefined} data-testid="run-button">
            <Icon name="play" />
            {starting ? 'Starting…' : running ? 'Running…' : 'Run'}
          </button>
          {running && (
            <button type="button" className="btn btn--danger" onClick={abort} data-testid="abort-button">
              <Icon name="close" />
              Abort
            </button>
          )}
          {!running && failed > 0 && (
            <button type="button" className="btn" aria-disabled={busy !== null || undefined} onClick={retry} data-testid="retry-button" title="Re-run only the failed tools, with the same rolls">
              <Icon name="refresh" />
              {busy === 'retry' ? 'Retrying…' : `Retry failed (${failed})`}
            </button>
          )}
        </div>
      </form>
      <p className="field__hint" id={`${id}-seed-help`}>
        Same seed, same rolls: use one from Test roll to run exactly that line-up.
      </p>
      {seed === 'invalid' && (
        <p className="field__error" id={`${id}-seed-error`}>
          <Icon name="error" /> A seed is a whole number from 0 to {MAX_SEED}.
        </p>
      )}
      {noneWithTools && <p className="settings__note">
        <Icon name="warning" /> No member has a tool yet, so nobody would take part. Give members tools in the Members tab.
      </p>}
      {waitingHost && running && <p className="panel-note">The run is taking a while; the timeline keeps filling in as the host reports results.</p>}
      {error && <InlineError error={error.error} title={error.title} />}
      {trace && <Progress trace={trace} />}
    </section>
  );
}

function OpenRun(props: { trace: RunTrace }) {
  const { trace } = props;
  const id = useId();
  const run = trace.run;
  return (
    <section className="card open-run" aria-labelledby={`${id}-title`} data-testid="open-run">
      <h2 id={`${id}-title`} className="card__title">
        Timeline
      </h2>
      <RunHeader trace={trace} />
      <Timeline trace={trace} />
      {run?.note && (
        <p className="open-run__note" data-testid="run-note">
          <Icon name="info" /> {run.note}
        </p>
      )}
      {run && run.deliberationBlock && (
        <section className="deliberation" aria-labelledby={`${id}-block`}>
          <h3 id={`${id}-block`} className="settings__subtitle">
            Deliberation block
          </h3>
          <pre className="code-block deliberation__text" tabIndex={0} aria-label="Deliberation block" data-testid="deliberation">
            {run.deliberationBlock}
          </pre>
        </section>
      )}
      {run && run.historyBlock && (
        <details className="deliberation">
          <summary className="settings__subtitle">History block (earlier deliberations, main model only)</summary>
          <pre className="code-block deliberation__text" tabIndex={0} aria-label="History block">
            {run.historyBlock}
          </pre>
        </details>
      )}
    </section>
  );
}

function PastRuns() {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const items = useAppStore((s) => s.runs.items);
  const loaded = useAppStore((s) => s.runs.loaded);
  const loadError = useAppStore((s) => s.runs.loadError);
  const openId = useAppStore((s) => s.runs.openId);
  const traces = useAppStore((s) => s.runs.traces);
  const live = Object.values(traces).filter((t) => t.run === null && t.id !== openId);
  const { busy, error, run } = useAction<string>();
  const [exported, setExported] = useState<{ runId: string; fileName: string; content: string } | null>(null);

  const open = (runId: string) =>
    void run(`open:${runId}`, `Could not open ${runId}`, () => openRun(store, host, runId)).then((r) => {
      if (r?.ok) document.querySelector<HTMLElement>('[data-testid="open-run"] h2')?.scrollIntoView?.({ block: 'nearest' });
    });
  const exportTrace = (runId: string) =>
    void run(`export:${runId}`, `Could not export ${runId}`, () => host.invoke('runs.exportTrace', { runId })).then((r) => {
      if (r?.ok) setExported({ runId, ...r.value });
    });

  const row = (r: RunSummary) => (
    <li key={r.id} className={`past-run${r.id === openId ? ' past-run--open' : ''}`} data-testid="past-run" data-run-id={r.id}>
      <div className="past-run__text">
        <span className={`badge badge--${r.status === 'aborted' ? 'danger' : r.counts.failed > 0 ? 'write' : 'ok'}`}>{r.status}</span>
        <span className="past-run__when">{when(r.startedAt)}</span>
        <span className="past-run__counts">
          {r.counts.ok}/{r.counts.total} ok · {r.activeMembers} {r.activeMembers === 1 ? 'member' : 'members'} · {formatDuration(r.totalDurationMs)}
        </span>
        <code className="past-run__id">{r.id}</code>
        {r.retryOf && <span className="past-run__retry">retry</span>}
      </div>
      <div className="past-run__actions">
        <button type="button" className="btn btn--small" aria-pressed={r.id === openId} aria-label={`Open run ${r.id}`} aria-disabled={busy !== null || undefined} onClick={() => busy === null && open(r.id)}>
          <span aria-hidden="true">{busy === `open:${r.id}` ? 'Opening…' : 'Open'}</span>
        </button>
        <button type="button" className="btn btn--small" aria-label={`Export trace of run ${r.id}`} aria-disabled={busy !== null || undefined} onClick={() => busy === null && exportTrace(r.id)}>
          <span aria-hidden="true">{busy === `export:${r.id}` ? 'Exporting…' : 'Export trace'}</span>
        </button>
      </div>
    </li>
  );

  return (
    <section className="card past-runs" aria-labelledby={`${id}-title`} data-testid="past-runs">
      <div className="card__head">
        <h2 id={`${id}-title`} className="card__title">
          Past runs
        </h2>
        <button type="button" className="btn btn--small btn--ghost" onClick={() => void reloadRuns(store, host)} aria-label="Reload past runs">
          <Icon name="refresh" />
        </button>
      </div>
      {live.length > 0 && (
        <ul className="past-run-list" aria-label="Runs in progress">
          {live.map((t) => (
            <li key={t.id} className="past-run past-run--live" data-testid="live-run" data-run-id={t.id}>
              <div className="past-run__text">
                <span className="status-badge status-badge--warn">
                  <span className="status-badge__dot status-badge__dot--pulse" aria-hidden="true" />
                  running
                </span>
                <span className="past-run__when">{when(t.startedAt)}</span>
                <span className="past-run__counts">
                  {t.results.length} of {t.planned.length} tools done{t.retryOf ? ' · retry' : ''}
                </span>
                <code className="past-run__id">{t.id}</code>
              </div>
              <div className="past-run__actions">
                <button type="button" className="btn btn--small" aria-label={`Watch run ${t.id}`} onClick={() => store.getState().runOpened(t.id)}>
                  <span aria-hidden="true">Watch</span>
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {loadError && <InlineError error={loadError} title="Could not list the stored runs" />}
      {items.length > 0 ? (
        <ul className="past-run-list" aria-label="Stored runs, newest first">
          {items.map(row)}
        </ul>
      ) : (
        // Asking only while an answer can come: not beside the error that ended it, nor under the "not connected" banner.
        loaded ? (
          <p className="panel-note">No runs yet. Runs from here and from the Workbench chat are stored and listed here.</p>
        ) : (
          !loadError && <AskingHost>for stored runs</AskingHost>
        )
      )}
      {exported && (
        <FileExport
          fileName={exported.fileName}
          content={exported.content}
          mime="application/x-ndjson"
          title={`Trace of ${exported.runId} (JSON Lines)`}
          onClose={() => setExported(null)}
          testId="trace-export"
        />
      )}
      {error && <InlineError error={error.error} title={error.title} />}
    </section>
  );
}

export function RunsTab(props: { view: CouncilView }) {
  const [seedText, setSeedText] = useState('');
  const trace = useAppStore((s) => (s.runs.openId !== null && Object.prototype.hasOwnProperty.call(s.runs.traces, s.runs.openId) ? s.runs.traces[s.runs.openId]! : null));
  return (
    <div className="panel-stack">
      <TestRoll seedText={seedText} onUseSeed={(seed) => setSeedText(String(seed))} />
      <RunCard view={props.view} seedText={seedText} setSeedText={setSeedText} />
      {trace && <OpenRun trace={trace} />}
      <PastRuns />
    </div>
  );
}
