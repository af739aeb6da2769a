// The CLI's side of the app socket: when an app runs on the data folder, each command's calls go to it.
import net from 'node:net';
import type { CallContext } from '../../../shared/contract';
import type { Result } from '../../../shared/errors';
import type { HostEvent } from '../../../shared/events';
import { Emitter } from '../util/emitter';
import { appSocketPath } from './socket-path';
import { encode, lineReader, type FromApp } from './wire';

export interface AppClient {
  api: { call(method: string, input: unknown, ctx: CallContext): Promise<Result<unknown>> };
  onEvent(listener: (event: HostEvent) => void): () => void;
  dispose(): Promise<void>;
}

/** A connection to the app running on `dataDir`, or null when none answers (no app, or one that has stopped). */
export async function connectToApp(dataDir: string, timeoutMs = 1000): Promise<AppClient | null> {
  const socket = await new Promise<net.Socket | null>((resolve) => {
    const attempt = net.connect(appSocketPath(dataDir));
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
  return socket ? new SocketClient(socket) : null;
}

const LOST: Result<unknown> = { ok: false, error: { code: 'HOST_SHUTDOWN', message: 'The app closed while the command was running.', hint: 'Run the command again.' } };

class SocketClient implements AppClient {
  private nextId = 1;
  private readonly pending = new Map<number, (result: Result<unknown>) => void>();
  private readonly events = new Emitter<HostEvent>(() => undefined);
  private subscribed = false;

  readonly api = {
    call: (method: string, input: unknown): Promise<Result<unknown>> => {
      if (this.socket.destroyed) return Promise.resolve(LOST);
      const id = this.nextId++;
      return new Promise((resolve) => {
        this.pending.set(id, resolve);
        this.socket.write(encode({ kind: 'invoke', id, method, input }));
      });
    },
  };

  constructor(private readonly socket: net.Socket) {
    socket.on(
      'data',
      lineReader(
        (line) => this.receive(line),
        () => socket.destroy(),
      ),
    );
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      for (const resolve of this.pending.values()) resolve(LOST);
      this.pending.clear();
    });
  }

  onEvent(listener: (event: HostEvent) => void): () => void {
    if (!this.subscribed) {
      this.subscribed = true;
      this.socket.write(encode({ kind: 'subscribe' }));
    }
    return this.events.on(listener);
  }

  async dispose(): Promise<void> {
    await new Promise<void>((resolve) => this.socket.end(() => resolve()));
    this.socket.destroy();
  }

  private receive(line: string): void {
    let message: FromApp;
    try {
      message = JSON.parse(line) as FromApp;
    } catch {
      return;
    }
    if (message.kind === 'event') this.events.emit(message.event);
    else if (message.kind === 'result') {
      this.pending.get(message.id)?.(message.result);
      this.pending.delete(message.id);
    }
  }
}
