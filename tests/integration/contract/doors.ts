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
import { registerIpc, type IpcEventLike, type IpcMainLike, type WindowLike } from '../../../electron/main/ipc';
import type { SenderFrameLike } from '../../../electron/main/sender-check';
import type { HostError, Result } from '../../../shared/errors';
import type { HostEvent } from '../../../shared/contract/events';
import { IPC_CHANNEL } from '../../../shared/host-api';
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

type IpcListener = Parameters<IpcMainLike['on']>[1];

/** Electron's ipcMain as far as the door uses it: listeners per channel; a message nobody listens to is dropped. */
export class FakeIpcMain implements IpcMainLike {
  readonly listeners = new Map<string, Set<IpcListener>>();
  on(channel: string, listener: IpcListener): void {
    if (!this.listeners.has(channel)) this.listeners.set(channel, new Set());
    this.listeners.get(channel)!.add(listener);
  }
  removeListener(channel: string, listener: IpcListener): void {
    this.listeners.get(channel)?.delete(listener);
    if (this.listeners.get(channel)?.size === 0) this.listeners.delete(channel);
  }
}

/** A BrowserWindow as far as the door reads it; `send` records what reaches the page (structured-cloned, as Electron does). */
export class FakeWindow implements WindowLike {
  destroyed = false;
  url = APP_ENTRY_URL;
  readonly sent: Array<{ channel: string; payload: unknown }> = [];
  onSend: (channel: string, payload: unknown) => void = () => {};
  private readonly onDestroyed: Array<() => void> = [];
  private readonly onNavigation: Array<(details: { isMainFrame: boolean; isSameDocument: boolean }) => void> = [];
  private readonly onCommit: Array<() => void> = [];
  readonly webContents = {
    getURL: () => this.url,
    send: (channel: string, message: unknown) => {
      const payload = structuredClone(message);
      this.sent.push({ channel, payload });
      this.onSend(channel, payload);
    },
    once: (_event: 'destroyed', listener: () => void) => void this.onDestroyed.push(listener),
    on: (event: 'did-start-navigation' | 'did-navigate', listener: (details: { isMainFrame: boolean; isSameDocument: boolean }) => void) =>
      void (event === 'did-start-navigation' ? this.onNavigation.push(listener) : this.onCommit.push(listener as () => void)),
  };
  /** The page reloads (or goes elsewhere): Electron's did-start-navigation for the main frame. */
  navigate(): void {
    for (const listener of this.onNavigation) listener({ isMainFrame: true, isSameDocument: false });
    for (const listener of this.onCommit) listener();
  }
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
  const waiting = new Map<number, (result: Result<unknown>) => void>();
  let nextId = 0;
  // What reaches the page on the channel: a call's result (by id), or an event.
  const delivered = (payload: unknown) => {
    const message = payload as { kind?: string; id?: number; result?: Result<unknown>; event?: HostEvent };
    if (message.kind === 'result') waiting.get(message.id!)?.(message.result!);
    else if (message.kind === 'event') log.push(message.event!);
  };
  window.onSend = (channel, payload) => {
    if (channel === IPC_CHANNEL) delivered(payload);
  };
  const dispose = registerIpc(ipcMain, host, () => [window]);

  // ipcRenderer.send: the message crosses by structured clone; with no listener it is dropped (said here, so a test ends).
  const post = (sender: { frame: SenderFrameLike | null; contents?: unknown }, message: unknown) => {
    const listeners = ipcMain.listeners.get(IPC_CHANNEL);
    if (!listeners) throw new Error(`No listener on '${IPC_CHANNEL}': the message is dropped`);
    const event: IpcEventLike = { sender: sender.contents ?? window.webContents, senderFrame: sender.frame, reply: (_channel, reply) => delivered(structuredClone(reply)) };
    for (const listener of listeners) listener(event, structuredClone(message));
  };
  const invokeFrom: IpcDoor['invokeFrom'] = (sender, method, input) =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      waiting.set(id, (result) => (waiting.delete(id), resolve(result)));
      try {
        post(sender, { kind: 'invoke', id, method, input });
      } catch (err) {
        waiting.delete(id);
        reject(err as Error);
      }
    });
  const invoke = (method: unknown, input: unknown) => invokeFrom({ frame: APP_FRAME }, method, input);
  // The page subscribes to the host's events as it starts.
  post({ frame: APP_FRAME }, { kind: 'subscribe' });

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
