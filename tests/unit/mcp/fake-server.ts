// An McpConnector whose servers the test plays: no process, no socket. Each connect is one FakeMcpSession;
// the test decides how its initialize goes, what tools/list says, and when the server dies or changes its tools.
import type { ConnectionHandlers, ConnectionOptions, McpConnector, McpSession, OpenedSession } from '../../../electron/core/mcp/mcp-connection';
import type { McpServerConfig } from '../../../shared/types/mcp';

export interface FakeTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

export const ECHO_TOOL: FakeTool = { name: 'echo', description: 'Echo text back', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } };

/** What a server does when started; set per server id before (or between) starts. */
export interface FakeServerScript {
  /** initialize fails with this (written to stderr first, as a real server would). */
  failStart?: { error: Error; stderr?: string };
  tools?: FakeTool[];
  /** Answers tools/call; default echoes `text`. Throw to fail the call. */
  call?: (name: string, args: Record<string, unknown>) => unknown;
}

export class FakeMcpSession implements McpSession {
  opened = false;
  closed = false;
  listCalls = 0;
  readonly calls: Array<{ name: string; args: Record<string, unknown> }> = [];

  constructor(
    readonly pid: number,
    readonly config: McpServerConfig,
    private readonly handlers: ConnectionHandlers,
    readonly options: ConnectionOptions,
    private readonly script: FakeServerScript,
  ) {}

  async open(): Promise<OpenedSession> {
    if (this.script.failStart) {
      if (this.script.failStart.stderr) this.handlers.onStderr(this.script.failStart.stderr);
      throw this.script.failStart.error;
    }
    this.opened = true;
    return { name: `fake-${this.config.id}`, version: '1.0.0' };
  }

  async listTools(): Promise<unknown[]> {
    this.listCalls++;
    return structuredClone(this.script.tools ?? [ECHO_TOOL]);
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<unknown> {
    if (this.closed) throw new Error('Not connected');
    this.calls.push({ name, args });
    if (this.script.call) return this.script.call(name, args);
    return { content: [{ type: 'text', text: String(args.text ?? '') }] };
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  // ---- the test plays the server ----

  /** The process exits (or the connection drops) on its own, as McpConnection reports it. */
  die(stderr?: string): void {
    if (this.closed) return;
    if (stderr) this.handlers.onStderr(stderr);
    this.closed = true;
    if (this.opened) this.handlers.onUnexpectedClose();
  }

  /** notifications/tools/list_changed. */
  toolsChanged(): void {
    if (!this.closed) this.handlers.onToolsChanged();
  }
}

export class FakeMcpServers {
  readonly sessions: FakeMcpSession[] = [];
  readonly scripts = new Map<string, FakeServerScript>();

  readonly connector: McpConnector = (config, handlers, options) => {
    const session = new FakeMcpSession(5000 + this.sessions.length, config, handlers, options, this.script(config.id));
    this.sessions.push(session);
    return session;
  };

  /** The server's script (made empty on first use, so a test may change it in place). */
  script(id: string): FakeServerScript {
    let script = this.scripts.get(id);
    if (!script) this.scripts.set(id, (script = {}));
    return script;
  }

  /** Sessions opened for one server, oldest first. */
  of(id: string): FakeMcpSession[] {
    return this.sessions.filter((session) => session.config.id === id);
  }

  last(id: string): FakeMcpSession {
    const session = this.of(id).at(-1);
    if (!session) throw new Error(`no session for ${id}`);
    return session;
  }
}

/** Lets promise callbacks run (a fake open or close settles in a microtask); no time passes. */
export const settle = () => new Promise((resolve) => setImmediate(resolve));
