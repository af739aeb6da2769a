// MCP servers section: every configured server with its status, tools and log; add one with the form or import mcpServers JSON.
import { useRef, useState } from 'react';
import type { McpServerInfo } from '../../../../shared/types/mcp';
import { useAppStore } from '../../app/context';
import { sectionById } from '../../app/sections';
import { EmptyState } from '../../components/EmptyState';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { selectMcpLoaded, selectMcpLoadError, selectMcpServers } from '../../stores/mcp/mcp-selectors';
import { ImportForm } from './ImportForm';
import { ServerCard } from './ServerCard';
import { ServerForm } from './ServerForm';
import '../connections/connections.css';
import './mcp.css';
import { AskingHost } from '../../components/AskingHost';

const SPEC = sectionById('mcp');

type Open = null | 'add' | 'import';

export function McpPanel() {
  const servers = useAppStore(selectMcpServers);
  const loaded = useAppStore(selectMcpLoaded);
  const loadError = useAppStore(selectMcpLoadError);
  const [open, setOpen] = useState<Open>(null);
  const [added, setAdded] = useState<McpServerInfo | null>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const importRef = useRef<HTMLButtonElement>(null);
  /** Closing a form hands focus back to the button that opened it (it may have moved from the empty state to the toolbar). */
  const close = (which: Exclude<Open, null>) => {
    setOpen(null);
    setTimeout(() => (which === 'add' ? addRef : importRef).current?.focus());
  };

  const toggle = (which: Exclude<Open, null>) => {
    setAdded(null);
    setOpen((o) => (o === which ? null : which));
  };
  const buttons = (
    <div className="mcp-toolbar__buttons">
      <button type="button" ref={addRef} className="btn btn--primary" aria-expanded={open === 'add'} onClick={() => toggle('add')}>
        <Icon name="plus" /> Add server
      </button>
      <button type="button" ref={importRef} className="btn" aria-expanded={open === 'import'} onClick={() => toggle('import')}>
        <Icon name="copy" /> Import JSON
      </button>
    </div>
  );

  const connected = servers.filter((s) => s.status === 'connected').length;
  const troubled = servers.filter((s) => s.status === 'crashed' || s.status === 'failed').length;
  const tools = servers.reduce((n, s) => n + s.toolCount, 0);
  // One tree for both states, so an open form survives the first server being added.
  return (
    <div className="panel-stack">
      {servers.length === 0 ? (
        <EmptyState icon="mcp" {...SPEC.empty}>
          {!loaded && !loadError && <AskingHost>for its MCP servers</AskingHost>}
          {loaded && <div className="empty-state__actions">{buttons}</div>}
        </EmptyState>
      ) : (
        <div className="panel-toolbar">
          <p className="panel-summary" role="status">
            {servers.length} {servers.length === 1 ? 'server' : 'servers'} · {connected} connected · {tools} {tools === 1 ? 'tool' : 'tools'}
            {troubled > 0 && <span className="panel-summary__bad"> · {troubled} need attention</span>}
          </p>
          {buttons}
        </div>
      )}
      {loadError && <InlineError error={loadError} title="Could not read the MCP servers" />}
      {added && (
        <div className="saved-note" role="status" data-testid="mcp-saved-note">
          <Icon name="check" /> Added {added.config.name}
          {added.config.enabled ? '; it connects now.' : '. It is disabled: enable it or press Connect to start it.'}
        </div>
      )}
      {open === 'add' && (
        <ServerForm
          onCancel={() => close('add')}
          onDone={(server) => {
            close('add');
            setAdded(server);
          }}
        />
      )}
      {open === 'import' && <ImportForm onCancel={() => close('import')} />}
      {servers.length > 0 && (
        <ul className="stack-list ext-list" aria-label="MCP servers">
          {servers.map((server) => (
            <ServerCard key={server.config.id} server={server} />
          ))}
        </ul>
      )}
    </div>
  );
}
