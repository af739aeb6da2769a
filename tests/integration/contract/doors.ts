// The two doors into one real core, as the renderer sees them: invoke(method, input) and the events that arrive.
// The IPC door is the real handler of electron/main/ipc.ts behind a fake ipcMain, window and sender (what Electron
// would hand it); the WebSocket door is the real headless server with a real ws client on 127.0.0.1 and the token.
import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import type { Host } from '../../../electron/core/host';
import { silentLogger } from '../../../electron/core/ports';
import { startHeadlessServer } from '../../../electron/headless/server';
import { APP_ENTRY_URL } from '../../../electron/main/app-origin';
import { registerIpc, type InvokeEventLike, type IpcMainLike, type WindowLike } from '../../../electron/main/ipc';
import type { SenderFrameLike } from '../../../electron/main/sender-check';
import type { HostError, Result } from '../../../shared/errors';
import type { HostEvent } from '../../../shared/events';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../../shared/host-api';
import type { ServerMessage } from '../../../shared/ws-protocol';
import { tempDir } from '../../helpers/temp-dir';

export type DoorName = 'ipc' | 'ws';

export interface Door {
  readonly name: DoorName;
  /** One call as the renderer makes it. Resolves with what came back through the door. */
  invoke(method: unknown, input: unknown): Promise<Result<unknown>>;
  /** Every host event delivered through the door, in order. */
  readonly events: HostEvent[];
  /** The first event of this type delivered after this call. */
  nextEvent<T extends HostEvent['type']>(type: T, timeoutMs?: number): Promise<Extract<HostEvent, { type: T }>>;
  /** Sends what this door can carry that is not JSON data (IPC: a cycle; WS: a text frame that does not parse); the error it answers. */
  sendNonJson(): Promise<HostError>;
  close(): Promise<void>;
}

type EventWaiter = { type: string; resolve: (event: HostEvent) => void };

/** Events as a door delivers them, with waiters for the next one of a type. */
class EventLog {
  readonly events: HostEvent[] = [];
  private waiters: EventWaiter[] = [];

  push(event: HostEvent): void {
    this.events.push(event);
    const matched = this.waiters.filter((w) => w.type === event.type);
    this.waiters = this.waiters.filter((w) => w.type !== event.type);
    for (const waiter of matched) waiter.resolve(event);
  }

  next<T extends HostEvent['type']>(door: DoorName, type: T, timeoutMs: number): Promise<Extract<HostEvent, { type: T }>> {
    return new Promise((resolve, reject) => {
      const waiter: EventWaiter = {
        type,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event as Extract<HostEvent, { type: T }>);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`${door}: no ${type} event within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }
}

// ---- IPC ----

type InvokeListener = Parameters<IpcMainLike['handle']>[1];

/** Electron's ipcMain as far as the door uses it: one handler per channel, a second registration throws. */
export class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, InvokeListener>();
  handle(channel: string, listener: InvokeListener): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
}

/** A BrowserWindow as far as the door reads it; `send` records what reaches the page (structured-cloned, as Electron does). */
export class FakeWindow implements WindowLike {
  destroyed = false;
  url = APP_ENTRY_URL;
  readonly sent: Array<{ channel: string; payload: unknown }> = [];
  onSend: (channel: string, payload: unknown) => void = () => {};
  readonly webContents = {
    getURL: () => this.url,
    send: (channel: string, ...args: unknown[]) => {
      const payload = structuredClone(args[0]);
      this.sent.push({ channel, payload });
      this.onSend(channel, payload);
    },
  };
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

/** Our page's top frame. */
export const APP_FRAME: SenderFrameLike = { url: APP_ENTRY_URL, parent: null };

export interface IpcDoor extends Door {
  readonly ipcMain: FakeIpcMain;
  readonly window: FakeWindow;
  /** The call as another sender makes it: its frame, and the webContents it comes from (ours unless given). */
  invokeFrom(sender: { frame: SenderFrameLike | null; contents?: unknown }, method: unknown, input: unknown): Promise<Result<unknown>>;
  /** What ipc.ts returned: removes the handler and stops the events. */
  dispose(): void;
}

export function ipcDoor(host: Host): IpcDoor {
  const ipcMain = new FakeIpcMain();
  const window = new FakeWindow();
  const log = new EventLog();
  window.onSend = (channel, payload) => {
    if (channel === IPC_EVENT_CHANNEL) log.push(payload as HostEvent);
  };
  const dispose = registerIpc(ipcMain, host, () => [window]);

  // ipcRenderer.invoke: the arguments and the answer cross by structured clone; no handler or a throwing one rejects.
  const invokeFrom: IpcDoor['invokeFrom'] = async (sender, method, input) => {
    const listener = ipcMain.handlers.get(IPC_INVOKE_CHANNEL);
    if (!listener) throw new Error(`Error invoking remote method '${IPC_INVOKE_CHANNEL}': No handler registered`);
    const event: InvokeEventLike = { sender: sender.contents ?? window.webContents, senderFrame: sender.frame };
    const args = structuredClone([method, input]);
    return structuredClone(await listener(event, ...args));
  };
  const invoke = (method: unknown, input: unknown) => invokeFrom({ frame: APP_FRAME }, method, input);

  return {
    name: 'ipc',
    ipcMain,
    window,
    events: log.events,
    invoke,
    invokeFrom,
    nextEvent: (type, timeoutMs = 5000) => log.next('ipc', type, timeoutMs),
    async sendNonJson() {
      const cycle: Record<string, unknown> = {};
      cycle.self = cycle;
      const result = await invoke('notices.dismiss', cycle);
      if (result.ok) throw new Error('ipc: a cyclic input was accepted');
      return result.error;
    },
    dispose,
    async close() {
      dispose();
    },
  };
}

// ---- WebSocket ----

export interface WsDoor extends Door {
  readonly url: string;
  /** Sends one raw frame; resolves with the next `{kind:'error'}` message. */
  sendRaw(data: string | Buffer): Promise<HostError>;
}

const ANSWER_MS = 5000;

export async function wsDoor(host: Host): Promise<WsDoor> {
  const rendererDir = tempDir('cw-renderer-');
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
  const server = await startHeadlessServer({ host, rendererDir, log: silentLogger });
  const url = `ws://127.0.0.1:${server.port}/ws?token=${server.token}`;
  const ws = new WebSocket(url, { headers: { Origin: `http://127.0.0.1:${server.port}` } });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  // A socket error after the open fails the calls that wait (by their timeout), not the process.
  ws.on('error', () => {});

  const log = new EventLog();
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const errorWaiters: Array<(error: HostError) => void> = [];
  ws.on('message', (data: WebSocket.RawData) => {
    const message = JSON.parse(data.toString()) as ServerMessage;
    if (message.kind === 'result') {
      pending.get(message.id)?.(message.result);
      pending.delete(message.id);
    } else if (message.kind === 'event') {
      log.push(message.event);
    } else if (message.kind === 'error') {
      errorWaiters.shift()?.(message.error);
    }
  });

  let nextId = 1;
  const sendRaw = (data: string | Buffer) =>
    new Promise<HostError>((resolve) => {
      errorWaiters.push(resolve);
      ws.send(data);
    });

  return {
    name: 'ws',
    url,
    events: log.events,
    invoke(method, input) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        // A door that never answers fails the case by name instead of at the test timeout.
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`ws: no answer to call ${id} (${String(method)}) within ${ANSWER_MS} ms`));
        }, ANSWER_MS);
        pending.set(id, (result) => {
          clearTimeout(timer);
          resolve(result);
        });
        ws.send(JSON.stringify({ kind: 'invoke', id, method, input }));
      });
    },
    nextEvent: (type, timeoutMs = 5000) => log.next('ws', type, timeoutMs),
    sendNonJson: () => sendRaw('{"kind":"invoke","id":1,'),
    sendRaw,
    async close() {
      ws.close();
      await server.close();
    },
  };
}
