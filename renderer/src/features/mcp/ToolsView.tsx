// One server's tools as the host saw them (mcp.tools): registered or skipped with the reason, mode, annotations as chips,
// schemas as pretty text. Every string here comes from the server and is rendered as text.
import { useEffect, useState } from 'react';
import type { HostError } from '../../../../shared/errors';
import type { McpServerInfo, McpToolView } from '../../../../shared/types/mcp';
import { useAppStore, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { loadMcpTools } from '../../stores/mcp/mcp-commands';
import { selectConnectionState } from '../../stores/app/selectors';
import { McpToolItem } from './McpToolItem';

export function ToolsView(props: { server: McpServerInfo; domId: string; onViewInTools(): void }) {
  const host = useHost();
  const connection = useAppStore(selectConnectionState);
  const { server } = props;
  const id = server.config.id;
  const [tools, setTools] = useState<McpToolView[] | null>(null);
  const [error, setError] = useState<HostError | null>(null);
  const [loading, setLoading] = useState(false);
  const [reloads, setReloads] = useState(0);
  // Read again whenever what the server offers may have changed.
  const version = `${server.status}:${server.toolCount}:${server.skippedToolCount}:${reloads}`;

  useEffect(() => {
    if (connection !== 'connected') return;
    let live = true;
    setLoading(true);
    void loadMcpTools(host, id).then((result) => {
      if (!live) return;
      setLoading(false);
      if (result.ok) {
        setTools(result.value);
        setError(null);
      } else setError(result.error);
    });
    return () => void (live = false);
  }, [host, id, version, connection]);

  const registered = tools?.filter((t) => t.registered).length ?? 0;
  const skipped = (tools?.length ?? 0) - registered;
  return (
    <section className="mcp-tools" id={props.domId} aria-label={`Tools of ${server.config.name}`} data-testid="mcp-tools">
      <div className="ext-log__head">
        <Icon name="tools" />
        <strong>Tools</strong>
        <span className="ext-log__count">
          {tools === null ? (loading ? 'Loading…' : '') : `${registered} registered${skipped ? ` · ${skipped} skipped` : ''}`}
        </span>
        {registered > 0 && (
          <button type="button" className="btn btn--ghost btn--small" onClick={props.onViewInTools}>
            Open in Tools
          </button>
        )}
        <button type="button" className="btn btn--ghost btn--small" aria-disabled={loading || undefined} onClick={() => !loading && setReloads((n) => n + 1)}>
          <Icon name="refresh" /> Reload
        </button>
      </div>
      {error && <InlineError error={error} title="Could not read the tools" />}
      {tools !== null && tools.length === 0 && (
        <p className="panel-note">
          {server.status === 'connected' ? 'The server lists no tools.' : 'No tools yet: they are listed once the server is connected.'}
        </p>
      )}
      {tools !== null && tools.length > 0 && (
        <ul className="stack-list mcp-tool-list">
          {tools.map((tool, i) => (
            // A server may list a name twice (the second is skipped), so the index keeps keys unique.
            <McpToolItem key={`${i}:${tool.name}`} tool={tool} trusted={server.config.trusted} />
          ))}
        </ul>
      )}
    </section>
  );
}
