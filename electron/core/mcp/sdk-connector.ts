// The default connector: the MCP SDK (and zod under it) loads when the first server connects, so a start or a
// command with no MCP server does not parse it.
import type { McpServerConfig } from '../../../shared/types/mcp';
import type { ConnectionHandlers, ConnectionOptions, McpConnector, McpSession, OpenedSession } from './mcp-connection';

/** A session that loads the SDK on open() and delegates to the real connection from then on. */
class DeferredSession implements McpSession {
  private inner: McpSession | undefined;
  private closed = false;

  constructor(
    private readonly config: McpServerConfig,
    private readonly handlers: ConnectionHandlers,
    private readonly options: ConnectionOptions,
  ) {}

  get pid(): number | undefined {
    return this.inner?.pid;
  }

  async open(initializeTimeoutMs: number): Promise<OpenedSession> {
    const { McpConnection } = await import('./mcp-connection');
    if (this.closed) throw new Error('The MCP session was closed before it opened.');
    this.inner = new McpConnection(this.config, this.handlers, this.options);
    return this.inner.open(initializeTimeoutMs);
  }

  listTools(timeoutMs: number): Promise<unknown[]> {
    return this.opened().listTools(timeoutMs);
  }

  callTool(name: string, args: Record<string, unknown>, options: { signal: AbortSignal; timeout: number }): Promise<unknown> {
    return this.opened().callTool(name, args, options);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.inner?.close();
  }

  private opened(): McpSession {
    if (!this.inner) throw new Error('The MCP session is not open.');
    return this.inner;
  }
}

export const sdkConnector: McpConnector = (config, handlers, options) => new DeferredSession(config, handlers, options);
