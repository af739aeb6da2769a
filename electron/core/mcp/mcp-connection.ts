// One session with one MCP server on the SDK: spawn (no shell) or HTTP, initialize with a timeout, list and call tools.
import { StringDecoder } from 'node:string_decoder';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { McpServerConfig } from '../../../shared/types/mcp';
import { LineSplitter } from '../extensions/extension-log';
import { serverEnvironment } from './environment';
import { BudgetedStdioTransport } from './stdio-transport';
import { systemTimers, type Timers } from '../ports';

export interface ConnectionHandlers {
  onStderr(line: string): void;
  onLogMessage(level: string, text: string): void;
  onToolsChanged(): void;
  /** The session ended without close() being called (process exit, transport failure). */
  onUnexpectedClose(): void;
  onTransportError(error: Error): void;
  /** Log notifications dropped over the per-second budget (stdio). */
  onLogDropped(count: number): void;
}

export interface ConnectionOptions {
  /** notifications/message lines per second passed on; the rest are counted and dropped before parsing. */
  maxLogPerSecond: number;
  timers?: Timers;
}

export interface OpenedSession {
  name: string;
  version: string;
  instructions?: string;
}

/** tools/list parsed leniently: one malformed tool must not throw away the valid ones (the registry judges each). */
const LenientToolList = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
const MAX_PAGES = 20;
const MAX_LISTED = 2000;
const MAX_INSTRUCTIONS_CHARS = 8192;

export const CLIENT_INFO = { name: 'council-workbench', version: '0.1.0' };

/** One session as the manager uses it: an McpConnection in the app, a fake server in tests. */
export interface McpSession {
  readonly pid: number | undefined;
  open(initializeTimeoutMs: number): Promise<OpenedSession>;
  listTools(timeoutMs: number): Promise<unknown[]>;
  callTool(name: string, args: Record<string, unknown>, options: { signal: AbortSignal; timeout: number }): Promise<unknown>;
  close(): Promise<void>;
}

/** Opens sessions: the SDK's (spawn or HTTP) by default; the handlers hear what the server does unasked. */
export type McpConnector = (config: McpServerConfig, handlers: ConnectionHandlers, options: ConnectionOptions) => McpSession;

export class McpConnection implements McpSession {
  private readonly client: Client;
  private readonly transport: Transport;
  private closing = false;
  private opened = false;
  private stderrDone: (() => void) | null = null;
  private dropTimer: unknown = null;
  private readonly timers: Timers;

  constructor(
    config: McpServerConfig,
    private readonly handlers: ConnectionHandlers,
    private readonly options: ConnectionOptions = { maxLogPerSecond: 200 },
  ) {
    this.timers = options.timers ?? systemTimers;
    this.transport = config.transport === 'stdio' ? this.stdio(config) : this.http(config);
    this.client = new Client(CLIENT_INFO, { capabilities: {} });
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => handlers.onToolsChanged());
    this.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      const { level, data, logger } = notification.params;
      const text = typeof data === 'string' ? data : JSON.stringify(data);
      handlers.onLogMessage(level, typeof logger === 'string' ? `${logger}: ${text}` : text);
    });
    this.client.onclose = () => {
      this.stderrDone?.();
      if (this.dropTimer) this.timers.clearInterval(this.dropTimer);
      if (!this.closing && this.opened) handlers.onUnexpectedClose();
    };
    this.client.onerror = (error) => {
      if (!this.closing) handlers.onTransportError(error);
    };
  }

  /** The command and args go to spawn as an array with shell: false (cross-spawn); nothing is ever interpolated. */
  private stdio(config: McpServerConfig): Transport {
    const transport = new BudgetedStdioTransport(
      {
        command: config.command ?? '',
        args: config.args ?? [],
        // Undefined values remove defaults (see environment.ts); spawn skips them.
        env: serverEnvironment(config.env),
        ...(config.cwd ? { cwd: config.cwd } : {}),
      },
      {
        maxLogPerSecond: this.options.maxLogPerSecond,
        now: () => Date.now(),
        onDropped: (count) => this.handlers.onLogDropped(count),
      },
      this.timers,
    );
    this.dropTimer = this.timers.setInterval(() => transport.flushDropped(), 1000);
    this.timers.setRef?.(this.dropTimer, false);
    const stderr = transport.stderr;
    if (stderr) {
      const decoder = new StringDecoder('utf8');
      const splitter = new LineSplitter((line) => this.handlers.onStderr(line));
      stderr.on('data', (chunk: Buffer) => splitter.push(decoder.write(chunk)));
      this.stderrDone = () => {
        splitter.push(decoder.end());
        splitter.flush();
      };
    }
    return transport;
  }

  /** No authProvider: the host never follows an OAuth flow or opens a URL a server supplies. */
  private http(config: McpServerConfig): Transport {
    return new StreamableHTTPClientTransport(new URL(config.url ?? ''), {
      requestInit: { headers: { ...config.headers } },
      reconnectionOptions: { maxRetries: 2, initialReconnectionDelay: 1000, maxReconnectionDelay: 5000, reconnectionDelayGrowFactor: 2 },
    });
  }

  get pid(): number | undefined {
    return this.transport instanceof BudgetedStdioTransport ? (this.transport.pid ?? undefined) : undefined;
  }

  /** Starts the transport and runs initialize; rejects on spawn failure, early exit or timeout (McpError RequestTimeout). */
  async open(initializeTimeoutMs: number): Promise<OpenedSession> {
    await this.client.connect(this.transport, { timeout: initializeTimeoutMs, maxTotalTimeout: initializeTimeoutMs });
    this.opened = true;
    const info = this.client.getServerVersion();
    const instructions = this.client.getInstructions();
    const session: OpenedSession = {
      name: typeof info?.name === 'string' ? info.name.slice(0, 200) : '',
      version: typeof info?.version === 'string' ? info.version.slice(0, 100) : '',
    };
    if (typeof instructions === 'string' && instructions !== '') session.instructions = instructions.slice(0, MAX_INSTRUCTIONS_CHARS);
    return session;
  }

  /** Every page of tools/list (bounded), each tool still unvalidated. */
  async listTools(timeoutMs: number): Promise<unknown[]> {
    const tools: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await this.client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, LenientToolList, { timeout: timeoutMs });
      tools.push(...result.tools.slice(0, MAX_LISTED - tools.length));
      if (!result.nextCursor || tools.length >= MAX_LISTED) break;
      cursor = result.nextCursor;
    }
    return tools;
  }

  /** The signal aborts the request: the SDK sends notifications/cancelled and stops waiting. */
  callTool(name: string, args: Record<string, unknown>, options: { signal: AbortSignal; timeout: number }): Promise<unknown> {
    return this.client.callTool({ name, arguments: args }, undefined, { signal: options.signal, timeout: options.timeout });
  }

  /** Intentional close: ends stdin, then SIGTERM, then SIGKILL (the SDK's sequence, at most ~4 s). */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.dropTimer) this.timers.clearInterval(this.dropTimer);
    try {
      await this.client.close();
    } catch {
      // Already gone.
    }
  }
}
