// One server's tools as the host saw them (mcp.tools): registered or skipped with the reason, mode, annotations as chips,
// schemas as pretty text. Every string here comes from the server and is rendered as text.
import { useEffect, useMemo, useState } from 'react';
import type { HostError } from '../../../../shared/errors';
import type { McpServerInfo, McpToolAnnotations, McpToolView } from '../../../../shared/types/mcp';
import { useAppStore, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { loadMcpTools } from '../../stores/mcp-commands';
import { selectConnectionState } from '../../stores/selectors';

const HINTS: ReadonlyArray<[keyof Omit<McpToolAnnotations, 'title'>, string]> = [
  ['readOnlyHint', 'read-only'],
  ['destructiveHint', 'destructive'],
  ['idempotentHint', 'idempotent'],
  ['openWorldHint', 'open world'],
];

function pretty(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

function AnnotationChips(props: { annotations: McpToolAnnotations | undefined }) {
  const chips = HINTS.filter(([key]) => typeof props.annotations?.[key] === 'boolean');
  if (chips.length === 0 && !props.annotations?.title) return null;
  return (
    <ul className="mcp-chips" aria-label="Annotations (hints from the server)">
      {chips.map(([key, label]) => {
        const value = props.annotations![key] as boolean;
        return (
          <li key={key} className={`mcp-chip mcp-chip--${value ? 'yes' : 'no'}`} data-testid="mcp-annotation" title={`${key}: ${String(value)}`}>
            {value ? label : `not ${label}`}
            <span className="visually-hidden"> ({key}: {String(value)})</span>
          </li>
        );
      })}
      {props.annotations?.title && (
        <li className="mcp-chip" data-testid="mcp-annotation" title="annotations.title">
          title: {props.annotations.title}
        </li>
      )}
    </ul>
  );
}

function modeNote(tool: McpToolView, trusted: boolean): string {
  if (tool.mode === 'read') return 'Runs as a read tool: the server marks it read-only and you trust the server.';
  if (tool.annotations?.readOnlyHint === true && !trusted) return 'Runs as a write tool: the server marks it read-only, but the server is not trusted.';
  return 'Runs as a write tool.';
}

/** Worth a line of its own only when trust decided it; otherwise the badge's tooltip says it. */
function modeMatters(tool: McpToolView): boolean {
  return tool.mode === 'read' || tool.annotations?.readOnlyHint === true;
}

function ToolItem(props: { tool: McpToolView; trusted: boolean }) {
  const { tool } = props;
  const input = useMemo(() => pretty(tool.inputSchema), [tool.inputSchema]);
  const output = useMemo(() => (tool.outputSchema === undefined ? null : pretty(tool.outputSchema)), [tool.outputSchema]);
  return (
    <li className={`mcp-tool${tool.registered ? '' : ' mcp-tool--skipped'}`} data-testid="mcp-tool" data-name={tool.name} data-registered={String(tool.registered)}>
      <div className="mcp-tool__head">
        <code className="mcp-tool__name">{tool.name}</code>
        {tool.title && <span className="mcp-tool__title">{tool.title}</span>}
        <span className={`badge badge--${tool.mode}`} title={modeNote(tool, props.trusted)} data-testid="mcp-tool-mode">
          {tool.mode === 'read' ? 'Read' : 'Write'}
        </span>
        {tool.registered ? (
          <span className="badge badge--ok" data-testid="mcp-tool-state">
            Registered
          </span>
        ) : (
          <span className="badge badge--danger" data-testid="mcp-tool-state">
            Skipped
          </span>
        )}
      </div>
      {tool.registered && (
        <p className="mcp-tool__qname">
          <code>{tool.qualifiedName}</code>
          {tool.alias && (
            <>
              {' · provider name '}
              <code>{tool.alias}</code>
            </>
          )}
        </p>
      )}
      {!tool.registered && tool.error && <InlineError error={tool.error} title="Skipped:" testId="mcp-tool-skip-reason" />}
      {tool.description ? <p className="mcp-tool__description">{tool.description}</p> : <p className="panel-note">No description.</p>}
      {modeMatters(tool) && <p className="mcp-tool__mode-note">{modeNote(tool, props.trusted)}</p>}
      <AnnotationChips annotations={tool.annotations} />
      <details className="mcp-tool__schemas">
        <summary>Schemas</summary>
        <h4 className="mcp-tool__schema-title">Input schema</h4>
        <pre className="code-block" tabIndex={0} aria-label={`Input schema of ${tool.name}`} data-testid="mcp-input-schema">
          {input}
        </pre>
        {output !== null && (
          <>
            <h4 className="mcp-tool__schema-title">Output schema</h4>
            <pre className="code-block" tabIndex={0} aria-label={`Output schema of ${tool.name}`} data-testid="mcp-output-schema">
              {output}
            </pre>
          </>
        )}
      </details>
    </li>
  );
}

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
        <ul className="mcp-tool-list">
          {tools.map((tool, i) => (
            // A server may list a name twice (the second is skipped), so the index keeps keys unique.
            <ToolItem key={`${i}:${tool.name}`} tool={tool} trusted={server.config.trusted} />
          ))}
        </ul>
      )}
    </section>
  );
}
