// The CLI's side of the app socket: when an app runs on the data folder, each command's calls go to it.
import net from 'node:net';
import type { CallContext } from '../../../shared/contract';
import type { Result } from '../../../shared/errors';
import type { HostEvent } from '../../../shared/events';
import { encodeFrame, FrameDecoder } from '../../../shared/protocol/framing';
import { Emitter } from '../util/emitter';
import { appSocketPath } from './socket-path';
import { MAX_FRAME_CHARS, type FromApp } from './wire';

export interface AppClient {
  api: { call(method: string, input: unknown, ctx: CallContext): Promise<Result<unknown>> };
  onEvent(listener: (event: HostEvent) => void): () => void;
  dispose(): Promise<void>;
}

/** A connection to the app running on `dataDir`, or null when none answers (no app, or one that has stopped). */
export async function connectToApp(dataDir: string, timeoutMs = 1000): Promise<AppClient | null> {
  const socket = await connectWithin(appSocketPath(dataDir), timeoutMs);
  return socket ? new SocketClient(socket) : null;
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
        this.socket.write(encodeFrame({ kind: 'invoke', id, method, input }));
      });
    },
  };

  constructor(private readonly socket: net.Socket) {
    const decoder = new FrameDecoder(MAX_FRAME_CHARS, (message) => this.receive(message as FromApp), () => socket.destroy());
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => decoder.push(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      for (const resolve of this.pending.values()) resolve(LOST);
      this.pending.clear();
    });
  }

  onEvent(listener: (event: HostEvent) => void): () => void {
    if (!this.subscribed) {
      this.subscribed = true;
      this.socket.write(encodeFrame({ kind: 'subscribe' }));
    }
    return this.events.on(listener);
  }

  async dispose(): Promise<void> {
    await new Promise<void>((resolve) => this.socket.end(() => resolve()));
    this.socket.destroy();
  }

  private receive(message: FromApp): void {
    if (message.kind === 'event') this.events.emit(message.event);
    else if (message.kind === 'result') {
      this.pending.get(message.id)?.(message.result);
      this.pending.delete(message.id);
    }
  }
}
