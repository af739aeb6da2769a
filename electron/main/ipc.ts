// The IPC door: the RPC kernel's serve() for each window, on one channel each way. Every message is sender-checked
// before the kernel reads it; a call's input is made plain JSON (as the WebSocket door's is) and measured once; events
// go to a window that subscribed, while it shows our page. Electron types only: the caller passes ipcMain in, so a
// test drives this door in plain Node.
import type { Host } from '../core/host';
import type { HostError, Result } from '../../shared/errors';
import type { HostEvent } from '../../shared/contract/events';
import { IPC_CHANNEL } from '../../shared/host-api';
import { inputLimit } from '../../shared/limits';
import type { ToClient } from '../../shared/rpc/envelope';
import { serve } from '../../shared/rpc/serve';
import { fedTransport } from '../../shared/rpc/fed-transport';
import { isAppUrl } from './app-origin';
import { checkSender, type SenderFrameLike } from './sender-check';

/** The parts of Electron's WebContents the door uses. */
export interface ContentsLike {
  getURL(): string;
  send(channel: string, message: unknown): void;
  once(event: 'destroyed', listener: () => void): void;
  on(event: 'did-start-navigation', listener: (details: { isMainFrame: boolean; isSameDocument: boolean }) => void): void;
  on(event: 'did-navigate', listener: () => void): void;
}

/** The parts of Electron's IpcMainEvent the door reads; `reply` answers the very frame that sent it. */
export interface IpcEventLike {
  readonly sender: unknown;
  readonly senderFrame: SenderFrameLike | null;
  reply(channel: string, message: unknown): void;
}

type IpcListener = (event: IpcEventLike, message: unknown) => void;

/** The parts of Electron's ipcMain the door uses (Electron's own ipcMain is one). */
export interface IpcMainLike {
  on(channel: string, listener: IpcListener): void;
  removeListener(channel: string, listener: IpcListener): void;
}

/** The parts of a BrowserWindow the door reads. */
export interface WindowLike {
  isDestroyed(): boolean;
  readonly webContents: ContentsLike;
}

type JsonInput = { ok: true; input: unknown; bytes: number } | { ok: false; result: Result<unknown> };

/**
 * Structured clone can carry Maps, typed arrays and cycles that the WebSocket door never sees. The door turns the
 * input into the JSON it would be (that text is also its size), so both doors hand the core the same kinds of value.
 */
function toJsonInput(input: unknown, limit: number): JsonInput {
  if (input === undefined) return { ok: true, input: undefined, bytes: 0 };
  let text: string | undefined;
  try {
    text = JSON.stringify(input);
  } catch {
    return { ok: false, result: { ok: false, error: { code: 'INVALID_INPUT', message: 'Input is not JSON data.' } } };
  }
  const bytes = Buffer.byteLength(text ?? '', 'utf8');
  // Oversized input goes to the dispatcher unparsed so it returns its usual INPUT_TOO_LARGE.
  if (bytes > limit || text === undefined) return { ok: true, input: undefined, bytes };
  return { ok: true, input: JSON.parse(text) as unknown, bytes };
}

/** A refused message is answered where it came from: a call by its id, anything else as a link error. */
function refuse(event: IpcEventLike, message: unknown, error: HostError): void {
  const id = (message as { kind?: unknown; id?: unknown } | null)?.id;
  const call = (message as { kind?: unknown } | null)?.kind === 'invoke' && Number.isSafeInteger(id);
  event.reply(IPC_CHANNEL, call ? { kind: 'result', id, result: { ok: false, error } } : { kind: 'error', error });
}

/** Registers the channel; returns the function that removes it again and ends every window's link. */
export function registerIpc(ipcMain: IpcMainLike, host: Host, windows: () => readonly WindowLike[]): () => void {
  const links = new Map<unknown, { receive(message: unknown): void; end(): void }>();
  const windowOf = (contents: unknown) => windows().find((win) => !win.isDestroyed() && win.webContents === contents);

  const linkOf = (win: WindowLike) => {
    const known = links.get(win.webContents);
    if (known) return known;
    const fed = fedTransport<unknown, ToClient<HostEvent>>({
      // Only a window still showing our page hears from the host.
      send(message) {
        if (!win.isDestroyed() && isAppUrl(win.webContents.getURL())) win.webContents.send(IPC_CHANNEL, message);
      },
    });
    const link = {
      receive: (message: unknown) => fed.deliver(message, 0),
      end() {
        if (links.get(win.webContents) === link) links.delete(win.webContents);
        fed.end();
      },
    };
    serve<HostEvent>(fed.transport, {
      async call(method, input) {
        if (typeof method !== 'string') return { ok: false, error: { code: 'UNKNOWN_METHOD', message: 'The method name must be a string.' } };
        const json = toJsonInput(input, inputLimit(method));
        if (!json.ok) return json.result;
        return host.api.call(method, json.input, { origin: 'ipc' }, json.bytes);
      },
      events: (listener) => host.onEvent(listener),
      invalid: 'The IPC message is not a call, a cancel or a subscribe.',
    });
    links.set(win.webContents, link);
    return link;
  };
  // A page that goes (a reload, a navigation) takes its link with it: the next page's client numbers its calls from 1
  // again, and must never get an answer meant for the page before it. Ended when the navigation starts, and again when
  // it commits (whatever the old page sent in between), and when the contents are destroyed. Watched once per contents.
  const watched = new WeakSet<object>();
  const watch = (win: WindowLike) => {
    const contents = win.webContents;
    if (watched.has(contents)) return;
    watched.add(contents);
    const end = () => links.get(contents)?.end();
    contents.on('did-start-navigation', (details) => {
      if (details.isMainFrame && !details.isSameDocument) end();
    });
    contents.on('did-navigate', end);
    contents.once('destroyed', end);
  };

  const onMessage: IpcListener = (event, message) => {
    const rejected = checkSender(event.senderFrame);
    if (rejected) return refuse(event, message, rejected);
    const win = windowOf(event.sender);
    if (!win) return refuse(event, message, { code: 'UNAUTHORIZED', message: 'IPC call rejected: not from an app window.' });
    // Checked above: the kernel reads the message, and the host is called only from there.
    watch(win);
    linkOf(win).receive(message);
  };
  ipcMain.on(IPC_CHANNEL, onMessage);

  return () => {
    ipcMain.removeListener(IPC_CHANNEL, onMessage);
    for (const link of [...links.values()]) link.end();
  };
}
