// Desktop transport: the contract over the preload bridge (`window.councilHost`), through the RPC kernel's client
// (ids, deadlines, answers as data). IPC to our own main process has no connect step: it is up for the life of the
// window.
import type { MethodName } from '../../../shared/contract';
import type { HostEvent, HostEventListener } from '../../../shared/contract/events';
import type { PreloadBridge } from '../../../shared/host-api';
import { createClient } from '../../../shared/rpc/client';
import type { ToServer } from '../../../shared/rpc/envelope';
import { fedTransport, type FedTransport } from '../../../shared/rpc/fed-transport';
import type { Transport } from '../../../shared/rpc/transport';
import { isHostEvent, type ConnectionInfo, type HostConnection } from './connection';
import { callTimeoutFor, type CallTimeouts } from './call-timeouts';
import type { Timers } from './ws-transport';
import { notConnected, timedOut } from './errors';

export interface PreloadTransportOptions extends CallTimeouts {
  timers?: Timers;
}

/** The bridge as a kernel transport (a call the bridge cannot clone throws, and the kernel's client answers it). */
function bridgeTransport(bridge: PreloadBridge): Transport<unknown, ToServer> {
  const fed: FedTransport<unknown, ToServer> = fedTransport<unknown, ToServer>({
    send: (message) => bridge.post(message),
    close() {
      off();
      fed.end();
    },
  });
  const off = bridge.onMessage((message) => fed.deliver(message, 0));
  return fed.transport;
}

export function createPreloadTransport(bridge: PreloadBridge, options: PreloadTransportOptions = {}): HostConnection {
  const info: ConnectionInfo = { state: 'connected', transport: 'ipc', attempt: 0, willRetry: false };
  const client = createClient<HostEvent>(bridgeTransport(bridge), {
    lost: (method) => notConnected(method, 'This window is closing.').error,
    timedOut: (method, ms) => timedOut(method, ms).error,
    subscribe: true,
    ...(options.timers ? { timers: options.timers } : {}),
  });

  return {
    transport: 'ipc',
    invoke: ((method: MethodName, input: unknown) => client.call(method, input, { timeoutMs: callTimeoutFor(method, options) })) as HostConnection['invoke'],
    onEvent: (listener: HostEventListener) =>
      client.onEvent((event) => {
        if (isHostEvent(event)) listener(event);
      }),
    getInfo: () => info,
    onInfo: () => () => undefined,
    reconnect: () => undefined,
    dispose: () => client.close(),
  };
}
