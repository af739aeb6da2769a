// Small real fakes for registry tests: a clock that also drives timers, executors, a recording logger.
import type { Clock, Logger } from '../../../electron/core/ports';
import type { ExecuteRequest, ExecuteResult, ToolExecutor } from '../../../electron/core/registry-port';
import type { Timers } from '../../../electron/core/registry/timers';
import { ToolRegistry, type ToolRegistryDeps } from '../../../electron/core/registry/tool-registry';

export class FakeClock implements Clock, Timers {
  private time = 1_000_000;
  private nextId = 1;
  private readonly due = new Map<number, { at: number; callback: () => void }>();
  private readonly unreferenced = new Set<number>();

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, delayMs: number): unknown {
    const id = this.nextId++;
    this.due.set(id, { at: this.time + delayMs, callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.due.delete(handle as number);
    this.unreferenced.delete(handle as number);
  }

  setRef(handle: unknown, ref: boolean): void {
    if (!this.due.has(handle as number)) return;
    if (ref) this.unreferenced.delete(handle as number);
    else this.unreferenced.add(handle as number);
  }

  /** Timers ever set. */
  get timersSet(): number {
    return this.nextId - 1;
  }

  get pendingTimers(): number {
    return this.due.size;
  }

  /** Pending timers that would keep a real process alive. */
  get referencedTimers(): number {
    let count = 0;
    for (const id of this.due.keys()) if (!this.unreferenced.has(id)) count++;
    return count;
  }

  /** Moves time forward, firing every timer that falls due, in order. */
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      let next: [number, { at: number; callback: () => void }] | undefined;
      for (const entry of this.due) if (entry[1].at <= target && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      this.due.delete(next[0]);
      this.unreferenced.delete(next[0]);
      this.time = next[1].at;
      next[1].callback();
    }
    this.time = target;
  }
}

/** Answers every call with `answer(request)` and keeps every request it saw. */
export class RecordingExecutor implements ToolExecutor {
  readonly requests: ExecuteRequest[] = [];
  constructor(private readonly answer: (request: ExecuteRequest) => ExecuteResult | Promise<ExecuteResult> = () => ({ ok: true, value: 'done' })) {}

  execute(request: ExecuteRequest): Promise<ExecuteResult> {
    this.requests.push(request);
    return Promise.resolve(this.answer(request));
  }
}

/** Never settles unless the test calls finish(); records the signal it was given. */
export class HangingExecutor implements ToolExecutor {
  readonly requests: ExecuteRequest[] = [];
  private resolvers: Array<(result: ExecuteResult) => void> = [];

  execute(request: ExecuteRequest): Promise<ExecuteResult> {
    this.requests.push(request);
    return new Promise((resolve) => this.resolvers.push(resolve));
  }

  finish(result: ExecuteResult): void {
    for (const resolve of this.resolvers) resolve(result);
  }
}

export class RecordingLogger implements Logger {
  readonly lines: Array<{ level: string; message: string; details: unknown[] }> = [];
  info(message: string, ...details: unknown[]): void {
    this.lines.push({ level: 'info', message, details });
  }
  warn(message: string, ...details: unknown[]): void {
    this.lines.push({ level: 'warn', message, details });
  }
  error(message: string, ...details: unknown[]): void {
    this.lines.push({ level: 'error', message, details });
  }
}

export const EXT = { kind: 'extension', id: 'kb' } as const;

export function searchDto(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'search_knowledge_base',
    display_name: 'Search Knowledge Base',
    description: 'Searches the extension knowledge base for relevant information',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Search query' },
        limit: { type: 'number', description: 'Max results', default: 5 },
      },
      required: ['query'],
    },
    council_eligible: true,
    ...overrides,
  };
}

export function makeRegistry(deps: ToolRegistryDeps = {}) {
  const clock = new FakeClock();
  const log = new RecordingLogger();
  const registry = new ToolRegistry({ clock, timers: clock, log, ...deps });
  return { registry, clock, log };
}

/** Lets already-settled promise callbacks run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}
