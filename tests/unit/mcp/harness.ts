// Shared set-up for the MCP client tests: a real registry, an in-memory config store, the fixture servers.
import path from 'node:path';
import { McpManager, type McpEvent, type McpManagerOptions } from '../../../electron/core/mcp/mcp-manager';
import { silentLogger, systemClock } from '../../../electron/core/ports';
import { ToolRegistry } from '../../../electron/core/registry/tool-registry';
import type { McpServerConfig } from '../../../shared/types/mcp';
import type { SecretStore } from '../../../electron/core/connections/secret-store';

/** A secret store that refuses every value, as safeStorage does on a desktop without encryption. */
export function refusingSecretStore(message = 'Encryption is not available on this system.'): SecretStore {
  return {
    get: () => undefined,
    delete: () => {},
    describe: () => ({ backend: 'safeStorage' }),
    set: () => {
      throw new Error(message);
    },
  };
}

export const STDIO_FIXTURE = path.resolve(import.meta.dirname, '../../fixtures/mcp/stdio-server.mjs');

export function stdioInput(id: string, mode = 'basic', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, transport: 'stdio', command: process.execPath, args: [STDIO_FIXTURE, '--mode', mode], ...extra };
}

export interface Harness {
  registry: ToolRegistry;
  manager: McpManager;
  events: McpEvent[];
  configs: McpServerConfig[];
  dispose(): Promise<void>;
}

export function makeHarness(options: Partial<McpManagerOptions> = {}, initial: McpServerConfig[] = []): Harness {
  // One time for both, as in the host: a fake clock passed for the manager is the registry's too.
  const registry = new ToolRegistry({ clock: options.clock, timers: options.timers });
  const configs: McpServerConfig[] = [...initial];
  const manager = new McpManager({
    store: {
      read: () => configs,
      change: async (edit) => {
        configs.splice(0, configs.length, ...structuredClone(edit(structuredClone(configs))));
      },
    },
    registry,
    clock: systemClock,
    log: silentLogger,
    initializeTimeoutMs: 5000,
    refreshDebounceMs: 50,
    crash: { baseDelayMs: 100, maxDelayMs: 400 },
    ...options,
  });
  const events: McpEvent[] = [];
  manager.onEvent((event) => events.push(event));
  return {
    registry,
    manager,
    events,
    configs,
    async dispose() {
      await manager.dispose();
      registry.dispose();
    },
  };
}

/** Polls until `check` returns a truthy value; fails with `what` after timeoutMs. */
export async function waitFor<T>(check: () => T | undefined | null | false, what: string, timeoutMs = 8000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
