// A quick council run on a sample or stored chat, with Abort and Retry failed; the open run's timeline and deliberation.
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { ChatSessionSummary } from '../../../../shared/types/chat';
import type { CouncilChat, CouncilView } from '../../../../shared/types/council';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { listSessionSummaries, readSession } from '../../stores/chat/chat-commands';
import { abortRun, retryFailed, startRun, stillRunning } from '../../stores/council/council-commands';
import { SAMPLE_CHAT, sessionToChat } from './sample-chat';
import { formatDuration } from './timeline-geometry';
import { useAction } from '../../components/use-action';
import { MAX_SEED, parseSeed } from './TestRoll';
import { Progress } from './RunHeader';

type ChatChoice = 'sample' | `session:${string}`;

export function RunCard(props: { view: CouncilView; seedText: string; setSeedText(text: string): void }) {
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
    void listSessionSummaries(host).then((r) => {
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
    const got = await readSession(host, sessionId);
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
      {noneWithTools && <p className="note-line settings__note">
        <Icon name="warning" /> No member has a tool yet, so nobody would take part. Give members tools in the Members tab.
      </p>}
      {waitingHost && running && <p className="panel-note">The run is taking a while; the timeline keeps filling in as the host reports results.</p>}
      {error && <InlineError error={error.error} title={error.title} />}
      {trace && <Progress trace={trace} />}
    </section>
  );
}
