// What the renderer knows about its link to the host: the HostApi plus connection state and control.
import type { HostEvent } from '../../../shared/contract/events';
import type { HostApi } from '../../../shared/host-api';

export type ConnectionState = 'connecting' | 'connected' | 'disconnected' | 'unauthorized';

export type TransportKind = 'ipc' | 'websocket';

export interface ConnectionInfo {
  state: ConnectionState;
  transport: TransportKind;
  /** Consecutive failed attempts since the last successful connection. */
  attempt: number;
  /** True while a reconnect is scheduled; false once the client has given up (or never retries). */
  willRetry: boolean;
  /** A short human-readable reason for the last failure, when there is one. */
  detail?: string;
}

export type ConnectionListener = (info: ConnectionInfo) => void;

/** HostApi plus what the shell needs to show and steer the connection. */
export interface HostConnection extends HostApi {
  readonly transport: TransportKind;
  getInfo(): ConnectionInfo;
  onInfo(listener: ConnectionListener): () => void;
  /** Try again now (after giving up, or to skip the backoff wait). No-op while connected. */
  reconnect(): void;
  dispose(): void;
}

/** What a client hands its listeners: an object with a type (anything else from the carrier is dropped). */
export function isHostEvent(value: unknown): value is HostEvent {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}
