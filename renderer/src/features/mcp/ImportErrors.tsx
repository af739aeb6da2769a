// The problems an MCP JSON import found, each with where in the JSON it is.
import type { HostError } from '../../../../shared/errors';
import { Icon } from '../../components/Icon';

/** `/mcpServers/github/args/0` → entry "github", field "args/0". JSON Pointer escapes (~1, ~0) are undone. */
function describeImportPath(path: string | undefined): { entry: string | null; field: string | null } {
  const parts = (path ?? '')
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (parts[0] === 'mcpServers') parts.shift();
  const [entry, ...field] = parts;
  return { entry: entry ?? null, field: field.length ? field.join('/') : null };
}

export function ImportErrors(props: { errors: readonly HostError[] }) {
  return (
    <div className="mcp-import__errors" role="alert" data-testid="mcp-import-errors">
      <p className="mcp-import__errors-title">
        <Icon name="error" />
        {props.errors.length === 1 ? '1 entry was not imported:' : `${props.errors.length} entries were not imported:`}
      </p>
      <ul>
        {props.errors.map((error, i) => {
          const { entry, field } = describeImportPath(error.path);
          const message = error.path && error.message.startsWith(`${error.path}: `) ? error.message.slice(error.path.length + 2) : error.message;
          return (
            <li key={i} data-testid="mcp-import-error" data-path={error.path ?? ''}>
              <span className="mcp-import__where">
                {entry ? (
                  <>
                    <strong>{entry}</strong>
                    {field && (
                      <>
                        {' · field '}
                        <code>{field}</code>
                      </>
                    )}
                  </>
                ) : (
                  <strong>The whole document</strong>
                )}
              </span>
              <span className="mcp-import__message">{message}</span>
              {error.hint && <span className="mcp-import__hint">{error.hint}</span>}
              <code className="inline-error__code">{error.code}</code>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
