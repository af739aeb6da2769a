// Tools section: the host's tool registry with filters and search, and one tool's details, Try it and Copy as.
import { useMemo } from 'react';
import { useAppStore } from '../../app/context';
import { sectionById } from '../../app/sections';
import { EmptyState } from '../../components/EmptyState';
import { Icon } from '../../components/Icon';
import { selectSelectedTool, selectToolFilters, selectTools, selectToolsLoaded } from '../../stores/app/selectors';
import { filterTools } from './filter-tools';
import { AskingHost } from '../../components/AskingHost';
import { ToolFilterBar } from './ToolFilterBar';
import { ToolList } from './ToolList';
import { ToolDetails } from './ToolDetails';

const SPEC = sectionById('tools');

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
        <ToolFilterBar tools={tools} shown={shown.length} />
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
