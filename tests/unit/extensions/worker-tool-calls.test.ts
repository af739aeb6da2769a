// The worker side of a tool call: the handler's `{ signal }` and how a host cancel reaches it.
import { describe, expect, it } from 'vitest';
import type { WorkerToHostMessage } from '../../../shared/protocol';
import { EventHandlers, type SpindleHandler } from '../../../electron/worker/spindle/events';
import { ToolCalls } from '../../../electron/worker/spindle/tools';
import { CallSignals } from '../../../electron/worker/spindle/call-signals';

function toolCalls(handler: SpindleHandler) {
  const events = new EventHandlers('local', () => undefined);
  events.on('TOOL_INVOCATION', handler);
  const sent: WorkerToHostMessage[] = [];
  return { calls: new ToolCalls(events, 'local', (m) => sent.push(m)), sent };
}

const payload = (requestId: string) => ({ toolName: 'wait', args: {}, requestId });

describe('ToolCalls: the handler signal', () => {
  it('a handler that reads its signal only after the cancel sees it aborted, with the reason', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let seen: { aborted: boolean; name: string | undefined } | undefined;
    const { calls } = toolCalls(async (_p, _u, context) => {
      await gate;
      seen = { aborted: context.signal.aborted, name: (context.signal.reason as DOMException | undefined)?.name };
      return 'done';
    });
    const pending = calls.invoke('invocation', payload('r1'));
    calls.cancel('r1', 'timeout');
    release();
    expect(await pending).toMatchObject({ requestId: 'r1', ok: true, text: 'done' });
    expect(seen).toEqual({ aborted: true, name: 'TimeoutError' });
  });

  it('a handler listening on its signal hears the cancel; another call is not touched', async () => {
    const heard: string[] = [];
    const signals = new Map<string, AbortSignal>();
    const { calls } = toolCalls((p, _u, { signal }) => {
      const { requestId } = p as { requestId: string };
      signals.set(requestId, signal);
      signal.addEventListener('abort', () => heard.push(`${requestId} ${(signal.reason as DOMException).name}`));
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve('stopped')));
    });
    const first = calls.invoke('invocation', payload('a'));
    void calls.invoke('invocation', payload('b'));
    calls.cancel('a', 'cancelled');
    expect(await first).toMatchObject({ ok: true, text: 'stopped' });
    expect(heard).toEqual(['a AbortError']);
    expect(signals.get('a')).not.toBe(signals.get('b'));
    expect(signals.get('b')!.aborted).toBe(false);
  });

  it('cancelling a call whose handler never reads the signal, or one that has ended, is harmless', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { calls } = toolCalls(async () => {
      await gate;
      return 'ok';
    });
    const pending = calls.invoke('invocation', payload('x'));
    calls.cancel('x', 'shutdown');
    release();
    expect(await pending).toMatchObject({ ok: true, text: 'ok' });
    expect(() => calls.cancel('x', 'cancelled')).not.toThrow();
  });

  it("a cancel that came before its call began (the worker still loading) starts that call aborted; others are not", async () => {
    const seen: string[] = [];
    const { calls } = toolCalls((p, _u, { signal }) => {
      seen.push(`${(p as { requestId: string }).requestId}: ${signal.aborted ? (signal.reason as DOMException).message : 'live'}`);
      return 'done';
    });
    calls.cancel('early', 'cancelled');
    await calls.invoke('invocation', payload('early'));
    await calls.invoke('invocation', payload('later'));
    // Remembered once: the same id again is a new call.
    await calls.invoke('invocation', payload('early'));
    expect(seen).toEqual(['early: The tool call was cancelled.', 'later: live', 'early: live']);
  });
});

describe('CallSignals', () => {
  const reason = (r: string) => new DOMException(`gone: ${r}`, 'AbortError');

  it('aborts a call in flight once, starts an early-cancelled one aborted, and forgets the oldest of too many early cancels', () => {
    const signals = new CallSignals();
    const live = signals.begin('a', reason);
    signals.cancel('a', 'timeout');
    expect(live.aborted && (live.reason as Error).message).toBe('gone: timeout');
    signals.cancel('b', 'shutdown');
    const early = signals.begin('b', reason);
    expect(early.aborted && (early.reason as Error).message).toBe('gone: shutdown');
    for (let i = 0; i < 65; i++) signals.cancel(`x${i}`, 'cancelled');
    expect(signals.begin('x0', reason).aborted).toBe(false);
    expect(signals.begin('x1', reason).aborted).toBe(true);
  });
});
