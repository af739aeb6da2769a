// The renderer's view of the host: one invoke, one event stream, whatever the transport.
import type { MethodInput, MethodName, MethodOutput } from './contract';
import type { Result } from './errors';
import type { HostEventListener } from './contract/events';

export interface HostApi {
  invoke<M extends MethodName>(method: M, input: MethodInput<M>): Promise<Result<MethodOutput<M>>>;
  onEvent(listener: HostEventListener): () => void;
}

/** What the Electron preload exposes on `window.councilHost`: the RPC kernel's messages, one channel each way. */
export interface PreloadBridge {
  /** Throws when the message cannot be cloned. */
  post(message: unknown): void;
  onMessage(listener: (message: unknown) => void): () => void;
}

export const IPC_CHANNEL = 'council:rpc';
