// How an MCP server starts, as facts: the URL and header names (HTTP), or the program, its literal arguments,
// the environment variable names and the folder (stdio). Values of headers and variables are never shown.
import type { McpServerInfo } from '../../../../shared/types/mcp';

export function TransportFacts(props: { server: McpServerInfo }) {
  const { config } = props.server;
  if (config.transport === 'http') {
    const headers = Object.keys(config.headers ?? {});
    return (
      <dl className="meta mcp-transport" data-testid="mcp-transport" data-transport="http">
        <div>
          <dt>URL</dt>
          <dd>
            <code>{config.url}</code>
          </dd>
        </div>
        {headers.length > 0 && (
          <div>
            <dt>Headers</dt>
            <dd>
              {headers.map((h, i) => (
                <span key={h}>
                  {i > 0 && ', '}
                  <code>{h}</code>
                </span>
              ))}{' '}
              <span className="field__unset">(values hidden)</span>
            </dd>
          </div>
        )}
      </dl>
    );
  }
  const args = config.args ?? [];
  const env = Object.keys(config.env ?? {});
  return (
    <dl className="meta mcp-transport" data-testid="mcp-transport" data-transport="stdio">
      <div>
        <dt>Program</dt>
        <dd>
          <code data-testid="mcp-command">{config.command}</code>
        </dd>
      </div>
      <div>
        <dt>Arguments</dt>
        <dd>
          {args.length === 0 ? (
            <span className="field__unset">none</span>
          ) : (
            <ol className="chip-row mcp-argv" aria-label="Arguments, passed literally" data-testid="mcp-argv">
              {args.map((arg, i) => (
                <li key={i}>
                  <code>{arg}</code>
                </li>
              ))}
            </ol>
          )}
        </dd>
      </div>
      <div>
        <dt>Environment</dt>
        <dd>
          {env.length === 0 ? (
            <span className="field__unset">only PATH</span>
          ) : (
            <>
              {env.map((k, i) => (
                <span key={k}>
                  {i > 0 && ', '}
                  <code>{k}</code>
                </span>
              ))}{' '}
              <span className="field__unset">(values hidden) and PATH</span>
            </>
          )}
        </dd>
      </div>
      {config.cwd && (
        <div>
          <dt>Folder</dt>
          <dd>
            <code>{config.cwd}</code>
          </dd>
        </div>
      )}
    </dl>
  );
}
