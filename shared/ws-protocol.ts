// Messages on the browser-mode WebSocket (`/ws?token=…`), the same contract as the Electron IPC.
import type { Result } from './errors';
import type { HostEvent } from './events';

export type ClientMessage = { kind: 'invoke'; id: number; method: string; input: unknown };

export type ServerMessage =
  | { kind: 'result'; id: number; result: Result<unknown> }
  | { kind: 'event'; event: HostEvent }
  | { kind: 'error'; error: { code: string; message: string } };

export const WS_PATH = '/ws';
/**
 * The token travels in the page URL's fragment (never sent to a server), then in the WebSocket query of every
 * connection. The page keeps it in its origin's localStorage (scoped by port, unlike cookies) for reloads and
 * second tabs; the host sets no cookie.
 */
export const TOKEN_PARAM = 'token';
