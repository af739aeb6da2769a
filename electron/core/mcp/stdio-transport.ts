// Our own stdio transport for MCP servers, built on the SDK's public `Transport` interface, with a budget on
// log notifications so a flooding server cannot starve the host.
//
// The SDK validates every incoming line with zod (~150 µs each, mostly failed union branches): 50 000
// `notifications/message` lines keep the event loop ~90 % busy for seconds. This reader parses the
// JSON first and drops log notifications beyond `maxLogPerSecond` before any zod work; everything else
// goes through the SDK's own JSONRPCMessageSchema unchanged.
import type { ChildProcess } from 'node:child_process';
import crossSpawn from 'cross-spawn';
import { PassThrough, type Readable } from 'node:stream';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { systemTimers, type Timers } from '../ports';

export interface ReadBudget {
  maxLogPerSecond: number;
  now(): number;
  /** Called at most once per second with the number of log notifications dropped in the last window. */
  onDropped(count: number): void;
}

class BudgetedReadBuffer {
  private buffer: Buffer | undefined;
  private windowStart = 0;
  private inWindow = 0;
  private dropped = 0;

  constructor(private readonly budget: ReadBudget) {}

  append(chunk: Buffer): void {
    const size = (this.buffer?.length ?? 0) + chunk.length;
    if (size > STDIO_DEFAULT_MAX_BUFFER_SIZE) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${STDIO_DEFAULT_MAX_BUFFER_SIZE} bytes`);
    }
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
  }

  readMessage(): JSONRPCMessage | null {
    for (;;) {
      if (!this.buffer) return null;
      const index = this.buffer.indexOf('\n');
      if (index === -1) return null;
      const line = this.buffer.toString('utf8', 0, index).replace(/\r$/, '');
      this.buffer = this.buffer.subarray(index + 1);
      const raw: unknown = JSON.parse(line);
      if (this.overBudget(raw)) continue;
      return JSONRPCMessageSchema.parse(raw);
    }
  }

  clear(): void {
    this.buffer = undefined;
  }

  private overBudget(raw: unknown): boolean {
    if ((raw as { method?: unknown } | null)?.method !== 'notifications/message') return false;
    const now = this.budget.now();
    if (now - this.windowStart >= 1000) {
      if (this.dropped > 0) this.budget.onDropped(this.dropped);
      this.windowStart = now;
      this.inWindow = 0;
      this.dropped = 0;
    }
    if (this.inWindow < this.budget.maxLogPerSecond) {
      this.inWindow++;
      return false;
    }
    this.dropped++;
    return true;
  }

  /** Reports a drop count still pending when the stream goes quiet. */
  flushDropped(): void {
    if (this.dropped > 0) this.budget.onDropped(this.dropped);
    this.dropped = 0;
  }
}

export interface StdioServerSpec {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

/** How long close() waits after ending stdin before SIGTERM, and after SIGTERM before SIGKILL. */
const CLOSE_GRACE_MS = 2000;

/** Spawns the server (array argv, no shell: nothing is interpolated) and speaks newline-delimited JSON-RPC. */
export class BudgetedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private readonly reader: BudgetedReadBuffer;
  private closed = false;
  // Exists before start() so a listener can attach first, as with the SDK's transport.
  private readonly stderrStream = new PassThrough();

  /** `timers` keeps the close grace periods (fake time in tests). */
  constructor(
    private readonly spec: StdioServerSpec,
    budget: ReadBudget,
    private readonly timers: Timers = systemTimers,
  ) {
    this.reader = new BudgetedReadBuffer(budget);
  }

  /** Resolves once the process has spawned; rejects when it cannot start. */
  start(): Promise<void> {
    if (this.child) return Promise.reject(new Error('BudgetedStdioTransport already started'));
    return new Promise((resolve, reject) => {
      // cross-spawn (as the SDK's own transport uses): on Windows it finds `npx.cmd` and quotes the arguments for
      // cmd.exe; elsewhere it is child_process.spawn (called through the module object, so audits see every spawn).
      const child = crossSpawn(this.spec.command, this.spec.args, {
        env: this.spec.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true,
        ...(this.spec.cwd ? { cwd: this.spec.cwd } : {}),
      });
      this.child = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => resolve());
      child.on('close', () => this.finish());
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stderr?.pipe(this.stderrStream);
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
      child.stdout?.on('error', (error) => this.onerror?.(error));
    });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The server's stderr, for the host's log. */
  get stderr(): Readable {
    return this.stderrStream;
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /** Ends stdin, then escalates to SIGTERM and SIGKILL if the server does not exit. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closed || child.exitCode !== null || child.signalCode !== null) {
      this.finish();
      return;
    }
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const within = (ms: number) =>
      new Promise<boolean>((resolve) => {
        const timer = this.timers.setTimeout(() => resolve(false), ms);
        this.timers.setRef?.(timer, false);
        void exited.then(() => {
          this.timers.clearTimeout(timer);
          resolve(true);
        });
      });
    child.stdin?.end();
    if (await within(CLOSE_GRACE_MS)) return;
    child.kill('SIGTERM');
    if (await within(CLOSE_GRACE_MS)) return;
    child.kill('SIGKILL');
    await exited;
  }

  /** Reports a drop count still pending when the stream goes quiet. */
  flushDropped(): void {
    this.reader.flushDropped();
  }

  private receive(chunk: Buffer): void {
    try {
      this.reader.append(chunk);
    } catch (error) {
      this.onerror?.(error as Error);
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.reader.readMessage();
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (!message) return;
      this.onmessage?.(message);
    }
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.reader.clear();
    this.onclose?.();
  }
}
