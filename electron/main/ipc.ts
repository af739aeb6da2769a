// The IPC door: one invoke channel (sender-checked, size-measured, JSON-only) and one event channel.
// Electron types only: the caller passes ipcMain in, so a test can drive this handler in plain Node.
import type { WebContents } from 'electron';
import type { Host } from '../core/host';
import type { Result } from '../../shared/errors';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../shared/host-api';
import { inputLimit } from '../../shared/limits';
import { isAppUrl } from './app-origin';
import { checkSender, type SenderFrameLike } from './sender-check';

/** The parts of Electron's IpcMainInvokeEvent the handler reads. */
export interface InvokeEventLike {
  readonly sender: unknown;
  readonly senderFrame: SenderFrameLike | null;
}

/** The parts of Electron's ipcMain the door uses (Electron's own ipcMain is one). */
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<Result<unknown>>): void;
  removeHandler(channel: string): void;
}

/** The parts of a BrowserWindow the door reads. */
export interface WindowLike {
  isDestroyed(): boolean;
  readonly webContents: Pick<WebContents, 'getURL' | 'send'>;
}

type JsonInput = { ok: true; input: unknown; bytes: number } | { ok: false; result: Result<unknown> };

/**
 * Structured clone can carry Maps, typed arrays and cycles that the WebSocket door never sees.
 * Measure the JSON size and pass the core plain JSON, so both doors hand it the same kinds of value.
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

/** Registers the channels; returns the function that removes them again. */
export function registerIpc(ipcMain: IpcMainLike, host: Host, windows: () => readonly WindowLike[]): () => void {
  const isOurContents = (event: InvokeEventLike) =>
    windows().some((win) => !win.isDestroyed() && win.webContents === event.sender);

  ipcMain.handle(IPC_INVOKE_CHANNEL, async (event, method: unknown, input: unknown): Promise<Result<unknown>> => {
    const rejected = checkSender(event.senderFrame);
    if (rejected) return { ok: false, error: rejected };
    if (!isOurContents(event)) {
      return { ok: false, error: { code: 'UNAUTHORIZED', message: 'IPC call rejected: not from an app window.' } };
    }
    if (typeof method !== 'string') {
      return { ok: false, error: { code: 'UNKNOWN_METHOD', message: 'The method name must be a string.' } };
    }
    const json = toJsonInput(input, inputLimit(method));
    if (!json.ok) return json.result;
    try {
      return await host.api.call(method, json.input, { origin: 'ipc' }, json.bytes);
    } catch {
      return { ok: false, error: { code: 'INTERNAL', message: 'The host failed while handling the call.' } };
    }
  });

  const unsubscribe = host.onEvent((hostEvent) => {
    for (const win of windows()) {
      // Only a window still showing our page receives host events.
      if (win.isDestroyed() || !isAppUrl(win.webContents.getURL())) continue;
      win.webContents.send(IPC_EVENT_CHANNEL, hostEvent);
    }
  });

  return () => {
    unsubscribe();
    ipcMain.removeHandler(IPC_INVOKE_CHANNEL);
  };
}
