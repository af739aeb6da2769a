// Tool actions from the Tools panel: run one (Try it) and read its definition in another host's format (Copy as).
// Neither is stored: the panel shows the answer while it is open.
import type { MethodInput } from '../../../../shared/contract';
import type { HostConnection } from '../../api/connection';

export type SpecFormat = MethodInput<'tools.exportSpec'>['format'];

export function invokeTool(host: HostConnection, qualifiedName: string, args: Record<string, unknown>, dryRun: boolean) {
  return host.invoke('tools.invoke', { qualifiedName, args, ...(dryRun ? { dryRun: true } : {}) });
}

export function exportToolSpec(host: HostConnection, qualifiedName: string, format: SpecFormat) {
  return host.invoke('tools.exportSpec', { qualifiedName, format });
}
