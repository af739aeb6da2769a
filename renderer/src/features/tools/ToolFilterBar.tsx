// The Tools section's filters: search, source, extension, mode and status, with how many tools are shown.
import { useId, useMemo } from 'react';
import type { ToolInfo } from '../../../../shared/types/tools';
import { useAppStore } from '../../app/context';
import { Icon } from '../../components/Icon';
import { selectExtensions, selectToolFilters } from '../../stores/app/selectors';
import { NO_TOOL_FILTERS, type ToolFilters } from '../../stores/app/ui-slice';
import { isFiltered, SOURCE_LABELS, toolExtensionIds } from './filter-tools';

export function ToolFilterBar(props: { tools: readonly ToolInfo[]; shown: number }) {
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
