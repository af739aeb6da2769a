// Small real fakes for registry tests: a clock that also drives timers, executors, a recording logger.
import type { Logger } from '../../../electron/core/ports';
import type { ExecuteRequest, ExecuteResult, ToolExecutor } from '../../../electron/core/registry-port';
import { ToolRegistry, type ToolRegistryDeps } from '../../../electron/core/registry/tool-registry';
import { FakeClock } from '../../helpers/fake-time';

export { FakeClock };

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
