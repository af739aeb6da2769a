// Tools section: the host's tool registry with filters and search, and one tool's details, Try it and Copy as.
import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { ToolInfo } from '../../../../shared/types/tools';
import { useAppStore } from '../../app/context';
import { sectionById } from '../../app/sections';
import { EmptyState } from '../../components/EmptyState';
import { Icon } from '../../components/Icon';
import { selectExtensions, selectSelectedTool, selectToolFilters, selectTools, selectToolsLoaded } from '../../stores/selectors';
import { NO_TOOL_FILTERS, type ToolFilters } from '../../stores/ui-slice';
import { CacheMetrics } from '../safety/CacheMetrics';
import { CopyAs } from './CopyAs';
import { filterTools, isFiltered, SOURCE_LABELS, toolExtensionIds } from './filter-tools';
import { TryIt } from './TryIt';
import { AskingHost } from '../../components/AskingHost';

const SPEC = sectionById('tools');

const MOVES: Record<string, (index: number, count: number) => number> = {
  ArrowDown: (i, n) => Math.min(n - 1, i + 1),
  ArrowUp: (i) => Math.max(0, i - 1),
  Home: () => 0,
  End: (_i, n) => n - 1,
};

export function ToolBadges(props: { tool: ToolInfo }) {
  const { tool } = props;
  return (
    <span className="badges">
      <span className={`badge badge--${tool.mode}`} title={tool.mode === 'read' ? 'Only reads' : 'May change things'}>
        {tool.mode}
      </span>
      <span className="badge badge--neutral">{SOURCE_LABELS[tool.source]}</span>
      <span className={`badge badge--${tool.status === 'available' ? 'ok' : 'danger'}`}>{tool.status}</span>
    </span>
  );
}

function Filters(props: { tools: readonly ToolInfo[]; shown: number }) {
  const id = useId();
  const filters = useAppStore(selectToolFilters);
  const change = useAppStore((s) => s.toolFiltersChanged);
  const extensions = useAppStore(selectExtensions);
  const extensionIds = useMemo(() => {
    const ids = toolExtensionIds(props.tools);
    // A filter chosen elsewhere ("View its tools") stays selectable even when that extension has no tools now.
    if (filters.extensionId !== 'all' && !ids.includes(filters.extensionId)) ids.push(filters.extensionId);
    return ids;
  }, [props.tools, filters.extensionId]);
  const nameOf = useMemo(() => new Map(extensions.map((e) => [e.id, e.name])), [extensions]);
  const set = (patch: Partial<ToolFilters>) => change(patch);

  return (
    <div className="tool-filters" role="search" aria-label="Filter tools">
      <div className="tool-filters__search">
        <Icon name="search" className="tool-filters__search-icon" />
        <input
          type="search"
          className="input"
          placeholder="Search tools"
          aria-label="Search tools"
          value={filters.search}
          onChange={(e) => set({ search: e.target.value })}
        />
      </div>
      <div className="tool-filters__row">
        <div className="tool-filters__select">
          <label htmlFor={`${id}-source`}>Source</label>
          <select id={`${id}-source`} className="input input--select" value={filters.source} onChange={(e) => set({ source: e.target.value as ToolFilters['source'] })}>
            <option value="all">All sources</option>
            <option value="builtin">{SOURCE_LABELS.builtin}</option>
            <option value="extension">{SOURCE_LABELS.extension}</option>
            <option value="mcp">{SOURCE_LABELS.mcp}</option>
          </select>
        </div>
        <div className="tool-filters__select">
          <label htmlFor={`${id}-extension`}>Extension</label>
          <select id={`${id}-extension`} className="input input--select" value={filters.extensionId} onChange={(e) => set({ extensionId: e.target.value })}>
            <option value="all">All extensions</option>
            {extensionIds.map((id) => (
              <option key={id} value={id}>
                {nameOf.get(id) ?? id}
              </option>
            ))}
          </select>
        </div>
        <div className="tool-filters__select">
          <label htmlFor={`${id}-council`}>Council</label>
          <select id={`${id}-council`} className="input input--select" value={filters.council} onChange={(e) => set({ council: e.target.value as ToolFilters['council'] })}>
            <option value="all">Any</option>
            <option value="eligible">Council eligible</option>
            <option value="not-eligible">Not council eligible</option>
          </select>
        </div>
      </div>
      <div className="tool-filters__count" role="status" data-testid="tool-count">
        {isFiltered(filters) ? `${props.shown} of ${props.tools.length} tools` : `${props.tools.length} ${props.tools.length === 1 ? 'tool' : 'tools'}`}
        {isFiltered(filters) && (
          <button type="button" className="link-button" onClick={() => change(NO_TOOL_FILTERS)}>
            Clear filters
          </button>
        )}
      </div>
    </div>
  );
}

function ToolList(props: { tools: readonly ToolInfo[] }) {
  const selected = useAppStore(selectSelectedTool);
  const select = useAppStore((s) => s.toolSelected);
  const listRef = useRef<HTMLUListElement>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const move = MOVES[event.key];
    if (!move || event.altKey || event.ctrlKey || event.metaKey) return;
    const buttons = [...(listRef.current?.querySelectorAll<HTMLButtonElement>('button.tool-row') ?? [])];
    const current = buttons.findIndex((b) => b === document.activeElement);
    if (current < 0) return;
    event.preventDefault();
    buttons[move(current, buttons.length)]?.focus();
  };

  return (
    <ul className="tool-list" ref={listRef} onKeyDown={onKeyDown} aria-label="Tools" data-testid="tool-list">
      {props.tools.map((tool) => (
        <li key={tool.qualifiedName}>
          <button
            type="button"
            className="tool-row"
            aria-current={tool.qualifiedName === selected ? 'true' : undefined}
            aria-controls="tool-details"
            data-qualified-name={tool.qualifiedName}
            onClick={() => select(tool.qualifiedName)}
          >
            <span className="tool-row__name">{tool.displayName}</span>
            <code className="tool-row__qname">{tool.qualifiedName}</code>
            <ToolBadges tool={tool} />
          </button>
        </li>
      ))}
    </ul>
  );
}

/** A yes/no fact about the tool, with what that answer means (each answer has its own sentence). */
function Flag(props: { label: string; value: boolean; yes: string; no: string }) {
  return (
    <div className="flag">
      <dt>{props.label}</dt>
      <dd>
        <span className={`flag__value flag__value--${props.value ? 'yes' : 'no'}`}>{props.value ? 'Yes' : 'No'}</span>
        <span className="flag__help">{props.value ? props.yes : props.no}</span>
      </dd>
    </div>
  );
}

function ToolDetails(props: { tool: ToolInfo; extensionName: string | null }) {
  const { tool } = props;
  const schemaText = useMemo(() => JSON.stringify(tool.parameters, null, 2), [tool.parameters]);
  // Bumped after each Try it, so the cache figures are read again.
  const [tries, setTries] = useState(0);
  return (
    <article className="tool-details" aria-labelledby="tool-details-title" data-testid="tool-details">
      <header className="tool-details__header">
        <h2 id="tool-details-title" className="tool-details__title">
          {tool.displayName}
        </h2>
        <code className="tool-details__qname">{tool.qualifiedName}</code>
        <ToolBadges tool={tool} />
      </header>
      {tool.description ? <p className="tool-details__description">{tool.description}</p> : <p className="panel-note">No description.</p>}
      {tool.status === 'unavailable' && (
        <p className="tool-details__note">
          <Icon name="warning" /> Unavailable: its {tool.source === 'extension' ? 'extension is not running' : 'source is not connected'}. Calls fail until it is back.
        </p>
      )}

      <dl className="flags">
        <Flag label="Council eligible" value={tool.councilEligible} yes="Council members may be given this tool." no="Council members cannot be given this tool." />
        <Flag
          label="Inline available"
          value={tool.inlineAvailable}
          yes="Its author marks it as callable by a chat model directly. In inline mode the chat offers it through the council members who hold it."
          no="Not marked for direct use; in inline mode the chat still offers it through the council members who hold it, like every member tool."
        />
        <Flag label="Has simulate" value={tool.hasSimulate} yes="It can describe what it would do without doing it." no="A dry run returns a placeholder instead of asking it." />
        <Flag
          label="Requires approval"
          value={tool.requiresApproval}
          yes="A person confirms each call first."
          no="It asks first only when the Safety write policy says so."
        />
      </dl>
      <section className="tool-details__section" aria-labelledby="tool-try-title">
        <h3 id="tool-try-title">Try it</h3>
        <TryIt key={`${tool.qualifiedName}\u0000${tool.definitionHash}`} tool={tool} onRan={() => setTries((n) => n + 1)} />
      </section>
      <CacheMetrics key={tool.qualifiedName} qualifiedName={tool.qualifiedName} revision={tries} />
      <section className="tool-details__section" aria-labelledby="tool-params-title">
        <h3 id="tool-params-title">Parameters</h3>
        <pre className="code-block" tabIndex={0} aria-label="Parameters JSON Schema" data-testid="tool-schema">
          {schemaText}
        </pre>
      </section>
      <section className="tool-details__section" aria-labelledby="tool-copy-title">
        <h3 id="tool-copy-title">Copy as</h3>
        <CopyAs key={tool.qualifiedName} tool={tool} />
      </section>
      <section className="tool-details__section" aria-labelledby="tool-meta-title">
        <h3 id="tool-meta-title">Identity</h3>
        <dl className="meta">
          <div>
            <dt>Source</dt>
            <dd>
              {SOURCE_LABELS[tool.source]}
              {tool.extensionId && (
                <>
                  {' · '}
                  {props.extensionName ?? tool.extensionId} <code>{tool.extensionId}</code>
                </>
              )}
            </dd>
          </div>
          <div>
            <dt>Provider name</dt>
            <dd>
              <code>{tool.alias}</code>
            </dd>
          </div>
          <div>
            <dt>Definition hash</dt>
            <dd>
              <code className="meta__hash" data-testid="definition-hash">
                {tool.definitionHash}
              </code>
            </dd>
          </div>
        </dl>
      </section>
    </article>
  );
}

export function ToolsPanel() {
  const tools = useAppStore(selectTools);
  const loaded = useAppStore(selectToolsLoaded);
  const filters = useAppStore(selectToolFilters);
  const selectedName = useAppStore(selectSelectedTool);
  const select = useAppStore((s) => s.toolSelected);
  const extensionName = useAppStore((s) => {
    const tool = s.tools.items.find((t) => t.qualifiedName === s.selectedTool);
    return tool?.extensionId ? (s.extensions.items.find((e) => e.id === tool.extensionId)?.name ?? null) : null;
  });
  const shown = useMemo(() => filterTools(tools, filters), [tools, filters]);
  const selected = selectedName === null ? null : (tools.find((t) => t.qualifiedName === selectedName) ?? null);

  if (tools.length === 0) {
    return <EmptyState icon="tools" {...SPEC.empty}>{!loaded && <AskingHost>for its tools</AskingHost>}</EmptyState>;
  }

  return (
    <div className="tools-layout">
      <div className="tools-layout__list">
        <Filters tools={tools} shown={shown.length} />
        {shown.length > 0 ? (
          <ToolList tools={shown} />
        ) : (
          <p className="panel-note tool-list__empty">No tools match these filters.</p>
        )}
      </div>
      <div className="tools-layout__details" id="tool-details">
        {selected ? (
          <ToolDetails tool={selected} extensionName={extensionName} />
        ) : selectedName !== null ? (
          <div className="tool-details tool-details--placeholder">
            <p>
              <strong>{selectedName}</strong> is no longer registered. Its extension may have been disabled, removed or restarted with other tools.
            </p>
            <button type="button" className="btn" onClick={() => select(null)}>
              Close
            </button>
          </div>
        ) : (
          <div className="tool-details tool-details--placeholder">
            <Icon name="tools" className="tool-details__placeholder-icon" />
            <p>Pick a tool to see its schema, try it with your own arguments, and copy its definition for OpenAI, Anthropic or MCP.</p>
          </div>
        )}
      </div>
    </div>
  );
}
