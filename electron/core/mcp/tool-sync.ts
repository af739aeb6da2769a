// A server's tools/list brought into the registry: new and changed tools registered, vanished ones dropped,
// ones that cannot be registered skipped with the reason (shown and logged), a name listed twice used once.
import type { McpToolView } from '../../../shared/types/mcp';
import type { ToolExecutor } from '../registry-port';
import { describeSkip, mapMcpTool } from './map-tool';
import type { RegistryPort } from './mcp-types';

export interface SyncedTools {
  views: McpToolView[];
  registered: Set<string>;
  /** Tools whose inputSchema declares `context`: only they receive the host's context argument. */
  wantsContext: Set<string>;
}

export function syncTools(
  listed: readonly unknown[],
  target: { sourceId: string; trusted: boolean; registry: RegistryPort; executor: ToolExecutor; previous: ReadonlySet<string>; warn(text: string): void },
): SyncedTools {
  const { sourceId, registry } = target;
  const views: McpToolView[] = [];
  const registered = new Set<string>();
  const wantsContext = new Set<string>();
  for (const raw of listed) {
    const { view, dto } = mapMcpTool(raw, sourceId, target.trusted);
    if (dto && registered.has(view.name)) {
      view.error = { code: 'CONFLICT', message: `The server listed "${view.name}" more than once; the first one is used`, path: '/name' };
    } else if (dto) {
      const result = registry.register({ kind: 'mcp', id: sourceId }, dto, target.executor);
      if (result.ok) {
        view.registered = true;
        view.qualifiedName = result.value.qualifiedName;
        view.alias = result.value.alias;
        registered.add(view.name);
        if (declaresContext(dto.parameters)) wantsContext.add(view.name);
      } else {
        view.error = describeSkip(result.error);
      }
    }
    if (view.error) target.warn(`tool ${JSON.stringify(view.name.slice(0, 128))} skipped: ${view.error.code} ${view.error.message}`);
    for (const note of view.notes ?? []) target.warn(`tool ${JSON.stringify(view.name.slice(0, 128))}: ${note}`);
    views.push(view);
  }
  for (const name of target.previous) if (!registered.has(name)) registry.unregister(sourceId, name);
  return { views, registered, wantsContext };
}

function declaresContext(schema: unknown): boolean {
  const properties = (schema as { properties?: unknown } | null)?.properties;
  return typeof properties === 'object' && properties !== null && Object.prototype.hasOwnProperty.call(properties, 'context');
}
