// Which tools the Tools list shows for the chosen filters and search text (derived on render, never stored).
import type { ToolInfo, ToolSource } from '../../../../shared/types/tools';
import type { ToolFilters } from '../../stores/app/ui-slice';

export const SOURCE_LABELS: Record<ToolSource, string> = { builtin: 'Built-in', extension: 'Extension', mcp: 'MCP' };

function fold(value: string): string {
  return value.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/** Every word of the search must appear in the tool's name, display name, qualified name or description. */
export function matchesSearch(tool: ToolInfo, search: string): boolean {
  const words = fold(search).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = fold([tool.displayName, tool.qualifiedName, tool.alias, tool.description].join('\n'));
  return words.every((word) => haystack.includes(word));
}

export function filterTools(tools: readonly ToolInfo[], filters: ToolFilters): ToolInfo[] {
  return tools.filter(
    (tool) =>
      (filters.source === 'all' || tool.source === filters.source) &&
      (filters.extensionId === 'all' || tool.extensionId === filters.extensionId) &&
      (filters.council === 'all' || tool.councilEligible === (filters.council === 'eligible')) &&
      matchesSearch(tool, filters.search),
  );
}

export function isFiltered(filters: ToolFilters): boolean {
  return filters.source !== 'all' || filters.extensionId !== 'all' || filters.council !== 'all' || filters.search.trim() !== '';
}

/** The extensions that own at least one tool, sorted by the name shown. */
export function toolExtensionIds(tools: readonly ToolInfo[]): string[] {
  return [...new Set(tools.map((t) => t.extensionId).filter((id): id is string => id !== null))].sort();
}
