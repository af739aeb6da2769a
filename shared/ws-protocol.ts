// The browser-mode WebSocket (`/ws?token=…`): the same contract as the Electron IPC, in the RPC kernel's messages
// (shared/rpc/envelope.ts).
import type { HostEvent } from './contract/events';
import type { Invoke, ToClient } from './rpc/envelope';

export type ClientMessage = Invoke;
export type ServerMessage = ToClient<HostEvent>;

export const WS_PATH = '/ws';
/**
 * The token travels in the page URL's fragment (never sent to a server), then in the WebSocket query of every
 * connection. The page keeps it in its origin's localStorage (scoped by port, unlike cookies) for reloads and
 * second tabs; the host sets no cookie.
 */
export const TOKEN_PARAM = 'token';
