// Builds the safe-tool-use layer for the host: approvals (with the policy port), result caches, the guarded invoker.
import path from 'node:path';
import type { HostEvent } from '../../../shared/contract/events';
import type { Clock, Logger, Timers } from '../ports';
import type { ToolRegistry } from '../registry/tool-registry';
import type { SettingsStore } from '../settings/settings-store';
import type { ApprovalPolicy } from './approval-policy';
import { ApprovalService } from './approvals';
import { GuardedInvoker } from './guarded-invoke';
import { RedefinedTools } from './redefined-tools';
import { ToolResultCache } from './tool-cache';

export interface SafetyServices {
  guard: GuardedInvoker;
  approvals: ApprovalService;
  cache: ToolResultCache;
  /** The note tools' folder, which the guard also confines paths to. */
  notesRoot: string;
  dispose(): void;
}

export function createSafety(options: {
  dataDir: string;
  registry: ToolRegistry;
  settings: SettingsStore;
  policy: ApprovalPolicy;
  clock: Clock;
  timers?: Timers;
  log: Logger;
  emit(event: HostEvent): void;
  /** Extensions whose undeclared tools run without asking (see GuardedInvokerDeps.trustedSource). */
  trustedSource?: (sourceId: string) => boolean;
}): SafetyServices {
  const { registry, settings, clock, log } = options;
  const notesRoot = path.join(options.dataDir, 'notes');
  const approvals = new ApprovalService({ settings, policy: options.policy, clock, emit: options.emit, log, ...(options.timers ? { timers: options.timers } : {}) });
  const cache = new ToolResultCache(clock);
  // A changed or removed tool never serves results cached under its old definition.
  const offRegistry = registry.onEvent((event) => {
    if (event.type === 'tool.replaced' && event.definitionChanged) cache.forget(event.tool.qualifiedName);
    else if (event.type === 'tool.unregistered') cache.forget(event.qualifiedName);
  });
  const redefined = new RedefinedTools(registry);
  const guard = new GuardedInvoker({
    registry,
    redefined,
    settings: () => settings.peek(),
    approvals,
    cache,
    notesRoot,
    clock,
    log,
    ...(options.trustedSource ? { trustedSource: options.trustedSource } : {}),
  });
  return {
    guard,
    approvals,
    cache,
    notesRoot,
    dispose() {
      approvals.dispose();
      offRegistry();
      redefined.dispose();
    },
  };
}
