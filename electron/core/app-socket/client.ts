// The CLI's side of the app socket: when an app runs on the data folder, each command's calls go to it, through the
// RPC kernel's client (shared/rpc/client.ts) on a newline-framed socket.
import net from 'node:net';
import type { CallContext } from '../../../shared/contract';
import type { Result } from '../../../shared/errors';
import type { HostEvent } from '../../../shared/contract/events';
import { createClient } from '../../../shared/rpc/client';
import type { ToServer } from '../../../shared/rpc/envelope';
import { appSocketPath } from './socket-path';
import { socketTransport } from './socket-transport';

export interface AppClient {
  api: { call(method: string, input: unknown, ctx: CallContext): Promise<Result<unknown>> };
  onEvent(listener: (event: HostEvent) => void): () => void;
  /** What the app told on connecting: its notices (settings recovered, an extension held…), without another call. */
  notices(): Promise<Array<{ level: string; message: string }>>;
  dispose(): Promise<void>;
}

/** A connection to the app running on `dataDir`, or null when none answers (no app, or one that has stopped). */
export async function connectToApp(dataDir: string, timeoutMs = 1000): Promise<AppClient | null> {
  const socket = await connectWithin(appSocketPath(dataDir), timeoutMs);
  return socket ? appClient(socket) : null;
}

/** A socket connected to `socketPath`, or null when nothing accepts it within `timeoutMs`. */
export function connectWithin(socketPath: string, timeoutMs: number): Promise<net.Socket | null> {
  return new Promise((resolve) => {
    const attempt = net.connect(socketPath);
    const timer = setTimeout(() => {
      attempt.destroy();
      resolve(null);
    }, timeoutMs);
    attempt.once('connect', () => {
      clearTimeout(timer);
      resolve(attempt);
    });
    attempt.once('error', () => {
      clearTimeout(timer);
      resolve(null);
    });
  });
}

const LOST = { code: 'HOST_SHUTDOWN', message: 'The app closed while the command was running.', hint: 'Run the command again.' } as const;

function appClient(socket: net.Socket): AppClient {
  const client = createClient<HostEvent>(
    socketTransport<unknown, ToServer>(socket, () => socket.destroy()),
    { lost: { ...LOST }, subscribe: true },
  );
  return {
    api: { call: (method, input) => client.call(method, input) },
    onEvent: (listener) => client.onEvent(listener),
    async notices() {
      const info = (await client.hello) as { notices?: Array<{ level: string; message: string }> } | null;
      return info?.notices ?? [];
    },
    async dispose() {
      await new Promise<void>((resolve) => socket.end(() => resolve()));
      socket.destroy();
    },
  };
}
