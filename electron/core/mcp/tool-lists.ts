// A connected server's tool list kept in line with the registry: listed on connect, listed again (debounced) when the
// server says its tools changed, and never two lists of one server at once (a change during a list lists again).
import { mcpSourceId } from '../../../shared/types/mcp';
import type { Timers } from '../ports';
import type { McpSession } from './mcp-connection';
import type { RegistryPort, ServerState } from './mcp-types';
import { syncTools } from './tool-sync';

export interface ToolListsOptions {
  timers: Timers;
  /** Changes announced within this many ms are listed once. */
  debounceMs: number;
  listTimeoutMs: number;
  registry: RegistryPort;
  warn(state: ServerState, text: string): void;
  changed(state: ServerState): void;
}

export class ToolLists {
  constructor(private readonly options: ToolListsOptions) {}

  /** The server said its tools changed: list them again shortly (once for a burst of changes). */
  schedule(state: ServerState): void {
    if (state.refreshTimer) return;
    const { timers } = this.options;
    state.refreshTimer = timers.setTimeout(() => {
      state.refreshTimer = null;
      const conn = state.conn;
      if (!conn || state.status !== 'connected') return;
      if (state.refreshing) {
        state.refreshAgain = true;
        return;
      }
      void this.refresh(state, conn)
        .then(() => this.options.changed(state))
        .catch((error: unknown) => this.options.warn(state, `tools/list failed: ${error instanceof Error ? error.message : String(error)}`));
    }, this.options.debounceMs);
    timers.setRef?.(state.refreshTimer, false);
  }

  /** Lists the tools and brings the registry in line: new and changed ones registered, vanished ones dropped, bad ones skipped and logged. */
  refresh(state: ServerState, conn: McpSession): Promise<void> {
    const gen = state.gen;
    const run = (async () => {
      const listed = await conn.listTools(this.options.listTimeoutMs);
      if (state.gen !== gen || state.conn !== conn) return;
      const synced = syncTools(listed, {
        sourceId: mcpSourceId(state.config.id),
        trusted: state.config.trusted,
        registry: this.options.registry,
        executor: state.executor,
        previous: state.registered,
        warn: (text) => this.options.warn(state, text),
      });
      state.registered = synced.registered;
      state.wantsContext = synced.wantsContext;
      state.views = synced.views;
    })();
    state.refreshing = run;
    return run.finally(() => {
      if (state.refreshing === run) state.refreshing = null;
      if (state.refreshAgain && state.gen === gen) {
        state.refreshAgain = false;
        this.schedule(state);
      }
    });
  }
}
