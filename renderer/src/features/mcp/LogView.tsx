// One MCP server's log: read with mcp.log when opened (and after every reconnect), then followed live from mcp.log events;
// capped, monospace, plain text.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { HostError } from '../../../../shared/errors';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { loadMcpLog } from '../../stores/mcp-commands';
import { selectMcpLog } from '../../stores/mcp-selectors';
import { MCP_LOG_LINES_CAP } from '../../stores/mcp-slice';
import { selectConnectionState } from '../../stores/selectors';

export function LogView(props: { id: string; name: string; domId: string }) {
  const store = useAppStoreApi();
  const host = useHost();
  const connection = useAppStore(selectConnectionState);
  const selectLog = useMemo(() => selectMcpLog(props.id), [props.id]);
  const lines = useAppStore(selectLog);
  const [error, setError] = useState<HostError | null>(null);
  const [loading, setLoading] = useState(false);
  const preRef = useRef<HTMLPreElement>(null);
  const pinned = useRef(true);

  const load = useMemo(
    () => async () => {
      setLoading(true);
      const result = await loadMcpLog(store, host, props.id);
      setLoading(false);
      setError(result.ok ? null : result.error);
    },
    [store, host, props.id],
  );

  useEffect(() => {
    if (connection === 'connected') void load();
  }, [connection, load]);

  // Stop following once the view closes; reopening reads the host's log again.
  useEffect(() => () => store.getState().mcpLogClosed(props.id), [store, props.id]);

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
      : `${lines.length} ${lines.length === 1 ? 'line' : 'lines'}${lines.length >= MCP_LOG_LINES_CAP ? ` (the latest ${MCP_LOG_LINES_CAP})` : ''}`;
  return (
    <section className="ext-log" id={props.domId} aria-label={`Log of ${props.name}`} data-testid="mcp-log">
      <div className="ext-log__head">
        <Icon name="terminal" />
        <strong>Log</strong>
        <span className="ext-log__count">{count}</span>
        <button type="button" className="btn btn--ghost btn--small" onClick={() => !loading && void load()} aria-disabled={loading || undefined}>
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
        data-testid="mcp-log-text"
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
