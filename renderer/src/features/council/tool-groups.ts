// Groups the tools a member may be given, for the tool checkboxes: by source (prompt, pack, extension, MCP) and extension; missing ones last.
import type { MemberView, PackSummary } from '../../../../shared/types/council';
import type { ExtensionInfo } from '../../../../shared/contract/events';
import type { ToolInfo } from '../../../../shared/types/tools';

export type ToolGroupKind = 'prompt' | 'pack' | 'extension' | 'mcp' | 'builtin' | 'missing';

export interface ToolChoice {
  qualifiedName: string;
  displayName: string;
  description: string;
  checked: boolean;
  /** Assigned but not registered now. */
  missing: boolean;
  /** Registered but its source is not running / connected. */
  unavailable: boolean;
  /** Assigned although the tool is not council eligible (it cannot be added again once removed). */
  ineligible: boolean;
  /** Past deliberations of this tool kept for the history block (0–10). */
  retention: number;
}

export interface ToolGroup {
  id: string;
  kind: ToolGroupKind;
  label: string;
  /** Short badge text beside the label. */
  badge: string;
  tools: ToolChoice[];
}

const KIND_ORDER: Record<ToolGroupKind, number> = { prompt: 0, pack: 1, extension: 2, mcp: 3, builtin: 4, missing: 5 };
const BADGES: Record<ToolGroupKind, string> = { prompt: 'Prompt', pack: 'Pack', extension: 'Extension', mcp: 'MCP', builtin: 'Built-in', missing: 'Missing' };

export function sourceIdOf(qualifiedName: string): string {
  const colon = qualifiedName.indexOf(':');
  return colon < 0 ? '' : qualifiedName.slice(0, colon);
}

function groupOf(tool: ToolInfo, extensionNames: ReadonlyMap<string, string>, packNames: ReadonlyMap<string, string>): Omit<ToolGroup, 'tools' | 'badge'> {
  const source = sourceIdOf(tool.qualifiedName);
  if (tool.source === 'extension') {
    const id = tool.extensionId ?? source;
    return { id: `extension:${id}`, kind: 'extension', label: extensionNames.get(id) ?? id };
  }
  if (tool.source === 'mcp') return { id: `mcp:${source}`, kind: 'mcp', label: source.replace(/^mcp[.:]/, '') || 'MCP server' };
  if (source === 'council') return { id: 'prompt', kind: 'prompt', label: 'Council prompt tools' };
  if (source.startsWith('pack.')) {
    const packId = source.slice('pack.'.length);
    return { id: `pack:${packId}`, kind: 'pack', label: packNames.get(packId) ?? packId };
  }
  return { id: `builtin:${source}`, kind: 'builtin', label: source || 'Built-in' };
}

/**
 * Every council-eligible tool, plus whatever the member already has (even if it is not eligible or
 * no longer registered), grouped for the picker. Groups and tools come in a stable order.
 */
export function groupTools(
  tools: readonly ToolInfo[],
  member: Pick<MemberView, 'tools' | 'toolViews'> & Partial<Pick<MemberView, 'toolHistoryRetention'>>,
  extensions: readonly Pick<ExtensionInfo, 'id' | 'name'>[],
  packs: readonly Pick<PackSummary, 'id' | 'name'>[],
): ToolGroup[] {
  const assigned = new Set(member.tools);
  const retention = (q: string) => {
    const kept = member.toolHistoryRetention;
    return kept && Object.prototype.hasOwnProperty.call(kept, q) ? (kept[q] ?? 0) : 0;
  };
  const extensionNames = new Map(extensions.map((e) => [e.id, e.name]));
  const packNames = new Map(packs.map((p) => [p.id, p.name]));
  const groups = new Map<string, ToolGroup>();
  const add = (meta: Omit<ToolGroup, 'tools' | 'badge'>, choice: ToolChoice) => {
    const group = groups.get(meta.id) ?? { ...meta, badge: BADGES[meta.kind], tools: [] };
    group.tools.push(choice);
    groups.set(meta.id, group);
  };
  const registered = new Set<string>();
  for (const tool of tools) {
    registered.add(tool.qualifiedName);
    if (!tool.councilEligible && !assigned.has(tool.qualifiedName)) continue;
    add(groupOf(tool, extensionNames, packNames), {
      qualifiedName: tool.qualifiedName,
      displayName: tool.displayName,
      description: tool.description,
      checked: assigned.has(tool.qualifiedName),
      missing: false,
      unavailable: tool.status !== 'available',
      ineligible: !tool.councilEligible,
      retention: retention(tool.qualifiedName),
    });
  }
  for (const q of member.tools) {
    if (registered.has(q)) continue;
    const view = member.toolViews.find((v) => v.qualifiedName === q);
    add(
      { id: 'missing', kind: 'missing', label: 'Not registered' },
      {
        qualifiedName: q,
        displayName: view && view.displayName !== q ? view.displayName : q,
        description: 'This tool is not registered: its extension may be removed, disabled or stopped, or its MCP server disconnected. It fails as "missing" in runs; uncheck it to take it away.',
        checked: true,
        missing: true,
        unavailable: true,
        ineligible: false,
        retention: retention(q),
      },
    );
  }
  const sorted = [...groups.values()].sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.label.localeCompare(b.label));
  for (const g of sorted) g.tools.sort((a, b) => a.displayName.localeCompare(b.displayName));
  return sorted;
}
