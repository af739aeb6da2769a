// W13: 100 calls to one tool, 1,000 overall. Per-tool and global in-flight limits; calls over them wait (never
// refused), tools take turns for freed slots, and a waiting call still times out or is cancelled like any other.
import { describe, expect, it } from 'vitest';
import type { ExecuteRequest, ExecuteResult, ToolExecutor } from '../../../electron/core/registry-port';
import type { ToolOutcome } from '../../../shared/types/tools';
import { EXT, flush, makeRegistry, searchDto } from './fakes';

/** Answers each call when the test says; records the order calls reached it and how many ran at once. */
class GatedExecutor implements ToolExecutor {
  readonly started: string[] = [];
  readonly open = new Map<string, Array<(result: ExecuteResult) => void>>();
  running = 0;
  mostRunning = 0;
  readonly mostPerTool = new Map<string, number>();

  execute(request: ExecuteRequest): Promise<ExecuteResult> {
    this.started.push(request.toolName);
    this.running++;
    this.mostRunning = Math.max(this.mostRunning, this.running);
    const list = this.open.get(request.toolName) ?? [];
    this.open.set(request.toolName, list);
    return new Promise((resolve) => {
      list.push((result) => {
        this.running--;
        resolve(result);
      });
      this.mostPerTool.set(request.toolName, Math.max(this.mostPerTool.get(request.toolName) ?? 0, list.length));
    });
  }

  /** Answers the oldest running call of `tool`. */
  finish(tool: string): void {
    this.open.get(tool)!.shift()!({ ok: true, value: 'done' });
  }
}

function registryWith(tools: string[], limits: { maxInFlight: number; maxInFlightPerTool: number }) {
  const ctx = makeRegistry({ limits });
  const executor = new GatedExecutor();
  for (const name of tools) {
    const result = ctx.registry.register(EXT, searchDto({ name }), executor);
    if (!result.ok) throw new Error(result.error.message);
  }
  const call = (tool: string, extra: { signal?: AbortSignal; timeoutMs?: number } = {}) => ctx.registry.invoke(`kb:${tool}`, { query: 'x' }, { timeoutMs: extra.timeoutMs ?? 60_000, ...(extra.signal ? { signal: extra.signal } : {}) });
  return { ...ctx, executor, call };
}

describe('W13: how many calls run at once', () => {
  it('100 calls to one tool and 1,000 overall, limits 64 per tool and 256 in all: no more run at once, none is refused, all complete', async () => {
    const tools = Array.from({ length: 10 }, (_, i) => `tool_${i}`);
    const { executor, call } = registryWith(tools, { maxInFlight: 256, maxInFlightPerTool: 64 });
    const outcomes: Array<Promise<ToolOutcome>> = [];
    for (let i = 0; i < 100; i++) outcomes.push(call('tool_0'));
    for (let i = 0; i < 900; i++) outcomes.push(call(tools[1 + (i % 9)]!));
    await flush();
    expect(executor.running).toBe(256);
    // Answer everything, oldest first, as long as anything runs.
    while (executor.running > 0) {
      for (const [tool, list] of executor.open) if (list.length) executor.finish(tool);
      await flush();
    }
    const settled = await Promise.all(outcomes);
    expect(settled.filter((o) => !o.ok)).toEqual([]);
    expect(executor.started).toHaveLength(1000);
    expect(executor.mostRunning).toBe(256);
    expect(Math.max(...executor.mostPerTool.values())).toBe(64);
  });

  it('tools take turns: a call to another tool is not held behind a burst to one', async () => {
    const { executor, call } = registryWith(['a', 'b', 'c'], { maxInFlight: 3, maxInFlightPerTool: 2 });
    for (let i = 0; i < 10; i++) void call('a');
    void call('b');
    await flush();
    expect(executor.started).toEqual(['a', 'a', 'b']); // b did not wait behind the eight queued a's
    void call('c');
    executor.finish('a');
    await flush();
    expect(executor.started.at(-1)).toBe('a'); // a's turn (c waits: the slot went in order)
    executor.finish('b');
    await flush();
    expect(executor.started.at(-1)).toBe('c'); // then c, before the rest of a's burst
  });

  it('a waiting call times out or is cancelled like any other, and never reaches its tool', async () => {
    const { executor, call, clock } = registryWith(['a'], { maxInFlight: 8, maxInFlightPerTool: 1 });
    void call('a');
    const caller = new AbortController();
    const cancelled = call('a', { signal: caller.signal });
    const timedOut = call('a', { timeoutMs: 1000 });
    caller.abort();
    expect(await cancelled).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    clock.advance(1000 + 500);
    expect(await timedOut).toMatchObject({ ok: false, error: { code: 'TOOL_TIMEOUT' } });
    executor.finish('a');
    await flush();
    expect(executor.started).toEqual(['a']);
  });
});
