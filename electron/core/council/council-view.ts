// What the council looks like from outside: members with their names, avatars and tools resolved (and what is
// missing said as warnings).
import type { CouncilMember, CouncilSettings, CouncilView, MemberView } from '../../../shared/types/council';
import type { ToolInfo } from '../../../shared/types/tools';
import type { ResolvedItem } from './context';

/** How a member's pack item and tools are found now (packs and tools come and go). */
export interface MemberLookup {
  item(member: Pick<CouncilMember, 'packId' | 'itemId'>): ResolvedItem | null;
  tool(qualifiedName: string): ToolInfo | undefined;
  isPromptTool(info: ToolInfo): boolean;
  /** Whether a tool that is not registered belongs to a source set up here but not started (unknown, not missing). */
  unstarted?(qualifiedName: string): boolean;
}

export function councilView(settings: CouncilSettings, lookup: MemberLookup, sidecarConfigured: boolean): CouncilView {
  const warnings: string[] = [];
  const members: MemberView[] = settings.members.map((m) => {
    const resolved = lookup.item(m);
    const toolViews = m.tools.map((q) => {
      const info = lookup.tool(q);
      const unchecked = !info && lookup.unstarted?.(q) === true;
      return {
        qualifiedName: q,
        displayName: info?.displayName ?? q,
        kind: !info ? (q.startsWith('mcp-') ? ('mcp' as const) : ('extension' as const)) : lookup.isPromptTool(info) ? ('prompt' as const) : info.source,
        missing: !info && !unchecked,
        available: info?.status === 'available',
        ...(unchecked ? { unchecked } : {}),
        retention: m.toolHistoryRetention?.[q] ?? 0,
      };
    });
    const missingTools = toolViews.filter((t) => t.missing).map((t) => t.qualifiedName);
    const name = resolved?.item.name ?? m.itemId;
    if (!resolved) warnings.push(`${name}: pack item ${m.packId}/${m.itemId} is missing.`);
    for (const q of missingTools) warnings.push(`${name}: tool ${q} is not registered.`);
    return {
      id: m.id,
      packId: m.packId,
      itemId: m.itemId,
      role: m.role,
      chance: m.chance,
      tools: [...m.tools],
      toolHistoryRetention: { ...(m.toolHistoryRetention ?? {}) },
      name,
      packName: resolved?.packName ?? null,
      avatarUrl: resolved?.avatarUrl ?? null,
      missingItem: !resolved,
      missingTools,
      toolViews,
      ...(m.allowedReadPaths ? { allowedReadPaths: [...m.allowedReadPaths] } : {}),
      ...(m.allowedWritePaths ? { allowedWritePaths: [...m.allowedWritePaths] } : {}),
    };
  });
  if (!sidecarConfigured && settings.toolsSettings.mode === 'sidecar' && settings.members.some((m) => m.tools.length > 0)) {
    warnings.push('No sidecar LLM is configured: prompt tools and tools that need planned arguments will fail.');
  }
  return { settings, members, warnings, sidecarConfigured };
}
