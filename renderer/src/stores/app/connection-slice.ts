// Connection slice: mirrors the transport's connection state (set from HostConnection.onInfo, never by UI).
import type { ConnectionInfo } from '../../api/connection';
import type { Slice } from './slice';

export interface ConnectionSlice {
  connection: ConnectionInfo;
  connectionChanged(info: ConnectionInfo): void;
}

export const createConnectionSlice: Slice<ConnectionSlice> = (set) => ({
  connection: { state: 'connecting', transport: 'websocket', attempt: 0, willRetry: false },
  connectionChanged: (info) => set({ connection: info }),
});
