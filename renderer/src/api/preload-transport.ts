// Desktop transport: wraps the preload bridge (`window.councilHost`) as a HostConnection.
import type { MethodName } from '../../../shared/contract';
import { isHostError, type Result } from '../../../shared/errors';
import type { HostEvent, HostEventListener } from '../../../shared/events';
import type { PreloadBridge } from '../../../shared/host-api';
import type { ConnectionInfo, HostConnection } from './connection';
import { callTimeoutFor, type CallTimeouts } from './call-timeouts';
import type { Timers } from './ws-transport';
import { describeThrown, failure, notConnected, timedOut } from './errors';

function isResult(value: unknown): value is Result<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { ok?: unknown; error?: unknown };
  return v.ok === true || (v.ok === false && isHostError(v.error));
}

function isHostEvent(value: unknown): value is HostEvent {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

export interface PreloadTransportOptions extends CallTimeouts {
  timers?: Timers;
}

export function createPreloadTransport(bridge: PreloadBridge, options: PreloadTransportOptions = {}): HostConnection {
  const timers = options.timers ?? {
    setTimeout: (fn: () => void, ms: number) => globalThis.setTimeout(fn, ms),
    clearTimeout: (h: unknown) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  };
  // IPC to our own main process has no connect step; it is up for the life of the window.
  const info: ConnectionInfo = { state: 'connected', transport: 'ipc', attempt: 0, willRetry: false };
  const unsubscribers = new Set<() => void>();
  let disposed = false;

  const invoke = ((method: MethodName, input: unknown) => {
    if (disposed) return Promise.resolve(notConnected(method, 'This window is closing.'));
    return new Promise<Result<unknown>>((resolve) => {
      let done = false;
      const finish = (result: Result<unknown>) => {
        if (done) return;
        done = true;
        timers.clearTimeout(timer);
        resolve(result);
      };
      const timeoutMs = callTimeoutFor(method, options);
      const timer = timers.setTimeout(() => finish(timedOut(method, timeoutMs)), timeoutMs);
      bridge.invoke(method, input).then(
        (value) =>
          finish(isResult(value) ? value : failure({ code: 'INTERNAL', message: `The host sent a malformed answer to ${method}.` })),
        (err: unknown) => finish(notConnected(method, describeThrown(err))),
      );
    });
  }) as HostConnection['invoke'];

  return {
    transport: 'ipc',
    invoke,
    onEvent(listener: HostEventListener) {
      const off = bridge.onEvent((event) => {
        if (isHostEvent(event)) listener(event);
      });
      unsubscribers.add(off);
      return () => {
        unsubscribers.delete(off);
        off();
      };
    },
    getInfo: () => info,
    onInfo: () => () => undefined,
    reconnect: () => undefined,
    dispose() {
      disposed = true;
      for (const off of unsubscribers) off();
      unsubscribers.clear();
    },
  };
}
