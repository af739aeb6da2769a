// Tools slice: the host's tool registry as last reported (tools.list on connect, tools.changed carries the full list).
import type { ToolInfo } from '../../../../shared/types/tools';
import type { Slice } from '../app/slice';

export interface ToolsSlice {
  tools: {
    /** Host truth as last reported, in the host's order. */
    items: readonly ToolInfo[];
    /** False until the first tools.list answer (or tools.changed event) arrived. */
    loaded: boolean;
  };
  toolsReplaced(tools: readonly ToolInfo[]): void;
}

export const createToolsSlice: Slice<ToolsSlice> = (set) => ({
  tools: { items: [], loaded: false },
  toolsReplaced: (tools) => set({ tools: { items: [...tools], loaded: true } }),
});
