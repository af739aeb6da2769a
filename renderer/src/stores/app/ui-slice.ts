// UI slice: which section the shell shows and how the Tools section is filtered. Renderer-only state, not mirrored from the host.
import { DEFAULT_SECTION, type SectionId } from '../../app/sections';
import type { ToolSource } from '../../../../shared/types/tools';
import type { Slice } from './slice';

export interface ToolFilters {
  source: ToolSource | 'all';
  /** An extension id, or 'all'. */
  extensionId: string;
  council: 'all' | 'eligible' | 'not-eligible';
  search: string;
}

export const NO_TOOL_FILTERS: ToolFilters = { source: 'all', extensionId: 'all', council: 'all', search: '' };

export interface UiSlice {
  section: SectionId;
  sectionSelected(section: SectionId): void;
  toolFilters: ToolFilters;
  toolFiltersChanged(patch: Partial<ToolFilters>): void;
  /** The tool whose details are open, by qualified name; it may since have left the registry. */
  selectedTool: string | null;
  toolSelected(qualifiedName: string | null): void;
}

export const createUiSlice: Slice<UiSlice> = (set) => ({
  section: DEFAULT_SECTION,
  sectionSelected: (section) => set({ section }),
  toolFilters: NO_TOOL_FILTERS,
  toolFiltersChanged: (patch) => set((s) => ({ toolFilters: { ...s.toolFilters, ...patch } })),
  selectedTool: null,
  toolSelected: (qualifiedName) => set({ selectedTool: qualifiedName }),
});
