// Paste the `{ "mcpServers": { … } }` JSON other MCP apps write: the host adds the valid entries (untrusted, and disabled
// unless "enable" is ticked) and reports every rejected one with the field it names.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { HostError } from '../../../../shared/errors';
import type { McpServerInfo } from '../../../../shared/types/mcp';
import { useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { importMcpJson } from '../../stores/mcp/mcp-commands';
import { ImportErrors } from './ImportErrors';
import { FormStatus } from '../../components/FormStatus';

const EXAMPLE = `{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]
    },
    "remote": { "url": "https://example.org/mcp" }
  }
}`;

export function ImportForm(props: { onCancel(): void; onImported?(added: readonly McpServerInfo[]): void }) {
  const store = useAppStoreApi();
  const host = useHost();
  const uid = useId();
  const [json, setJson] = useState('');
  const [enable, setEnable] = useState(false);
  const [busy, setBusy] = useState(false);
  const [empty, setEmpty] = useState(false);
  const [failure, setFailure] = useState<HostError | null>(null);
  const [outcome, setOutcome] = useState<{ added: McpServerInfo[]; errors: HostError[] } | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => void (mounted.current = false);
  }, []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    if (json.trim() === '') {
      setEmpty(true);
      document.getElementById(`${uid}-json`)?.focus();
      return;
    }
    setEmpty(false);
    setBusy(true);
    setOutcome(null);
    const result = await importMcpJson(store, host, json, enable);
    if (!mounted.current) return;
    setBusy(false);
    if (!result.ok) return setFailure(result.error);
    setOutcome(result.value);
    if (result.value.added.length > 0) props.onImported?.(result.value.added);
  };

  return (
    <section className="card mcp-import" aria-labelledby={`${uid}-title`} data-testid="mcp-import">
      <h2 id={`${uid}-title`} className="card__title">
        Import mcpServers JSON
      </h2>
      <p className="card__lead">
        Paste the <code>mcpServers</code> block from Claude Desktop, Cursor or another MCP app. Each valid entry is added untrusted; review it, then
        trust it yourself if you want its read-only hints believed.
      </p>
      <form onSubmit={(e) => void submit(e)} noValidate aria-busy={busy || undefined}>
        <div className="field">
          <label className="field__label" htmlFor={`${uid}-json`}>
            JSON
          </label>
          <textarea
            id={`${uid}-json`}
            className="input input--area input--mono"
            rows={9}
            value={json}
            spellCheck={false}
            placeholder={EXAMPLE}
            aria-invalid={empty || undefined}
            aria-describedby={empty ? `${uid}-empty` : undefined}
            onChange={(e) => setJson(e.target.value)}
          />
          {empty && (
            <p className="field__error" id={`${uid}-empty`}>
              <Icon name="error" />
              Paste the JSON first.
            </p>
          )}
        </div>
        <label className="perm-check">
          <input type="checkbox" checked={enable} onChange={(e) => setEnable(e.target.checked)} />
          <span>
            <strong>Enable</strong> the imported servers and start them now. Unticked, they are added disabled: nothing runs until you enable one.
          </span>
        </label>
        {failure && <InlineError error={failure} title="Could not import" />}
        {outcome && (
          <div className="mcp-import__outcome" data-testid="mcp-import-outcome">
            <p className="saved-note" role="status">
              <Icon name={outcome.added.length ? 'check' : 'info'} />
              {outcome.added.length === 0
                ? 'Nothing was added.'
                : `Added ${outcome.added.length} ${outcome.added.length === 1 ? 'server' : 'servers'}: ${outcome.added.map((s) => s.config.name).join(', ')} — untrusted${
                    outcome.added.some((s) => s.config.enabled) ? '' : ' and disabled'
                  }.`}
            </p>
            {outcome.errors.length > 0 && <ImportErrors errors={outcome.errors} />}
          </div>
        )}
        <div className="form-actions">
          <button type="submit" className="btn btn--primary" aria-disabled={busy || undefined}>
            <Icon name="plus" />
            {busy ? 'Importing…' : 'Import'}
          </button>
          <button type="button" className="btn btn--ghost" onClick={props.onCancel}>
            Close
          </button>
          <FormStatus busy={busy && 'Importing…'} />
        </div>
      </form>
    </section>
  );
}
