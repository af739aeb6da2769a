// One tool of an MCP server: name, registered or skipped (and why), mode, annotations and description.
import { useMemo } from 'react';
import type { McpToolView } from '../../../../shared/types/mcp';
import { InlineError } from '../../components/InlineError';
import { AnnotationChips } from './AnnotationChips';

function pretty(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
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

export function McpToolItem(props: { tool: McpToolView; trusted: boolean }) {
  const { tool } = props;
  const input = useMemo(() => pretty(tool.inputSchema), [tool.inputSchema]);
  const output = useMemo(() => (tool.outputSchema === undefined ? null : pretty(tool.outputSchema)), [tool.outputSchema]);
  return (
    <li className={`inset mcp-tool${tool.registered ? '' : ' mcp-tool--skipped'}`} data-testid="mcp-tool" data-name={tool.name} data-registered={String(tool.registered)}>
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
