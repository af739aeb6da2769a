// Contract handlers for tools.*: list, invoke (a person trying a tool) and spec export.
import type { Handlers } from '../../../shared/contract';
import { fail } from '../../../shared/errors';
import type { ToolRegistry } from '../registry/tool-registry';
import type { GuardedInvoker } from './guarded-invoke';
import { exportToolSpec } from '../registry/spec-export';

/** A tool tried by hand gets the council's default deadline unless the caller names one. */
export const DEFAULT_TRY_TIMEOUT_MS = 30_000;

type ToolHandlers = Pick<Handlers, 'tools.list' | 'tools.invoke' | 'tools.exportSpec'>;

/** tools.invoke goes through the guard (paths, dry run, cache, approval) like every other caller. */
export function toolHandlers(registry: ToolRegistry, guard: GuardedInvoker): ToolHandlers {
  return {
    'tools.list': (filter) => registry.list(filter),
    'tools.invoke': ({ qualifiedName, args, timeoutMs, dryRun }) =>
      guard.invoke(qualifiedName, args, { timeoutMs: timeoutMs ?? DEFAULT_TRY_TIMEOUT_MS, origin: 'manual', dryRun: dryRun === true }),
    'tools.exportSpec': ({ qualifiedName, format }) => {
      const info = registry.resolve(qualifiedName);
      if (!info) fail('UNKNOWN_TOOL', `No tool named "${qualifiedName}".`, { path: '/qualifiedName' });
      return { spec: exportToolSpec(info, format) };
    },
  };
}
