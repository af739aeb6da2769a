// The renderer's view of the host: one invoke, one event stream, whatever the transport.
import type { MethodInput, MethodName, MethodOutput } from './contract';
import type { Result } from './errors';
import type { HostEventListener } from './events';

export interface HostApi {
  invoke<M extends MethodName>(method: M, input: MethodInput<M>): Promise<Result<MethodOutput<M>>>;
  onEvent(listener: HostEventListener): () => void;
}

/** What the Electron preload exposes on `window.councilHost`. */
export interface PreloadBridge {
  invoke(method: string, input: unknown): Promise<Result<unknown>>;
  onEvent(listener: (event: unknown) => void): () => void;
}

export const IPC_INVOKE_CHANNEL = 'council:invoke';
export const IPC_EVENT_CHANNEL = 'council:event';
