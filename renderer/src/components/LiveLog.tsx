// A capped, followed, plain-text log: read from the host when opened (and after every reconnect), then kept live
// by the caller's store; shared by extension and MCP server logs.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { HostError, Result } from '../../../shared/errors';
import { useAppStore } from '../app/context';
import { selectConnectionState } from '../stores/app/selectors';
import { Icon } from './Icon';
import { InlineError } from './InlineError';

export function LiveLog(props: {
  name: string;
  domId: string;
  /** null until the first read. */
  lines: readonly string[] | null;
  cap: number;
  load: () => Promise<Result<unknown>>;
  /** Stop following once the log closes; reopening reads the host's log again. */
  onClose: () => void;
  testId: string;
  textTestId?: string;
}) {
  const connection = useAppStore(selectConnectionState);
  const [error, setError] = useState<HostError | null>(null);
  const [loading, setLoading] = useState(false);
  const preRef = useRef<HTMLPreElement>(null);
  const pinned = useRef(true);
  const { load, onClose, lines } = props;

  const reload = useMemo(
    () => async () => {
      setLoading(true);
      const result = await load();
      setLoading(false);
      setError(result.ok ? null : result.error);
    },
    [load],
  );

  useEffect(() => {
    if (connection === 'connected') void reload();
  }, [connection, reload]);

  useEffect(() => onClose, [onClose]);

  // Stay at the newest line unless the user scrolled up to read.
  useLayoutEffect(() => {
    const pre = preRef.current;
    if (pre && pinned.current) pre.scrollTop = pre.scrollHeight;
  }, [lines]);

  const count =
    lines === null
      ? loading
        ? 'Loading…'
        : ''
      : `${lines.length} ${lines.length === 1 ? 'line' : 'lines'}${lines.length >= props.cap ? ` (the latest ${props.cap})` : ''}`;
  return (
    <section className="ext-log" id={props.domId} aria-label={`Log of ${props.name}`} data-testid={props.testId}>
      <div className="ext-log__head">
        <Icon name="terminal" />
        <strong>Log</strong>
        <span className="ext-log__count">{count}</span>
        <button type="button" className="btn btn--ghost btn--small" onClick={() => !loading && void reload()} aria-disabled={loading || undefined}>
          <Icon name="refresh" /> Reload
        </button>
      </div>
      {error && <InlineError error={error} title="Could not read the log" />}
      <pre
        ref={preRef}
        className="ext-log__text"
        tabIndex={0}
        role="log"
        aria-live="off"
        aria-label={`Log lines of ${props.name}`}
        data-testid={props.textTestId}
        onScroll={(e) => {
          const el = e.currentTarget;
          pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 8;
        }}
      >
        {lines !== null && lines.length === 0 ? <span className="ext-log__empty">No log lines yet.</span> : (lines?.join('\n') ?? '')}
      </pre>
    </section>
  );
}
