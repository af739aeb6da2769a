// The running app (desktop or browser mode) answers the CLI of its data folder here, so there is one writer and
// what the CLI changes shows in the open window at once (as `docker` talks to its daemon). The socket sits in a
// folder only this user can enter; a stale one left by a crash is replaced, a live one (another app) is left alone.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { HostEvent } from '../../../shared/contract/events';
import type { ToClient } from '../../../shared/rpc/envelope';
import { serve } from '../../../shared/rpc/serve';
import type { Dispatcher } from '../contract/dispatcher';
import { privateRuntimeDir } from '../extensions/workers/runtime-script';
import type { Logger } from '../ports';
import { connectWithin } from './client';
import { appSocketPath } from './socket-path';
import { socketTransport } from './socket-transport';

export interface AppSocketHost {
  api: Dispatcher;
  onEvent(listener: (event: HostEvent) => void): () => void;
  /** What a command tells on stderr before it runs (host.status's notices). */
  notices(): Array<{ level: string; message: string }>;
}

export interface AppSocket {
  readonly path: string;
  close(): Promise<void>;
}

/**
 * Listens for CLI commands on the data folder's socket; null when another app already answers there, or when the
 * socket cannot be made (the app runs on without it, and the CLI then opens the folder itself).
 */
export async function listenForCli(host: AppSocketHost, dataDir: string, log: Logger): Promise<AppSocket | null> {
  try {
    return await listen(host, dataDir, log);
  } catch (err) {
    log.warn(`The CLI cannot reach this app (${(err as Error).message}); it will open the data folder itself.`);
    return null;
  }
}

async function listen(host: AppSocketHost, dataDir: string, log: Logger): Promise<AppSocket | null> {
  const socketPath = appSocketPath(dataDir);
  if (process.platform !== 'win32') {
    privateRuntimeDir(path.dirname(socketPath));
    if (fs.existsSync(socketPath)) {
      if (await answers(socketPath)) {
        log.warn(`Another Council Workbench answers the CLI for ${dataDir}; this one does not.`);
        return null;
      }
      fs.rmSync(socketPath, { force: true });
    }
  }
  const clients = new Set<net.Socket>();
  const server = net.createServer((socket) => serveSocket(socket, host, clients));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    path: socketPath,
    async close() {
      for (const socket of clients) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (process.platform !== 'win32') fs.rmSync(socketPath, { force: true });
    },
  };
}

function serveSocket(socket: net.Socket, host: AppSocketHost, clients: Set<net.Socket>): void {
  clients.add(socket);
  socket.on('close', () => clients.delete(socket));
  const transport = socketTransport<unknown, ToClient<HostEvent>>(socket, (error) => {
    // A line that is not JSON, or too long: the stream cannot be trusted further; the app says why and closes it.
    transport.send({ kind: 'error', error: error.reason === 'too-large' ? { code: 'INPUT_TOO_LARGE', message: 'A message to the app was larger than it accepts.' } : { code: 'INVALID_INPUT', message: `A line to the app was not JSON (${error.detail}).` } });
    socket.end();
  });
  serve(transport, {
    call: (method, input, bytes) => host.api.call(method, input, { origin: 'cli' }, bytes),
    events: (listener) => host.onEvent(listener),
    // The notices a command prints on stderr come with the connection: no extra round trip per command.
    hello: () => ({ notices: host.notices() }),
    invalid: 'Expected {kind:"invoke", id, method, input}, {kind:"cancel", id} or {kind:"subscribe"}.',
  });
}

/** Whether something answers on `socketPath` (a live app), within a short wait. */
async function answers(socketPath: string): Promise<boolean> {
  const probe = await connectWithin(socketPath, 500);
  probe?.destroy();
  return probe !== null;
}
