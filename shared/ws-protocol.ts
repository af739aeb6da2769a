// Messages on the browser-mode WebSocket (`/ws?token=…`), the same contract as the Electron IPC.
import type { Result } from './errors';
import type { HostEvent } from './events';

export type ClientMessage = { kind: 'invoke'; id: number; method: string; input: unknown };

export type ServerMessage =
  | { kind: 'result'; id: number; result: Result<unknown> }
  | { kind: 'event'; event: HostEvent }
  | { kind: 'error'; error: { code: string; message: string } };

export const WS_PATH = '/ws';
/** The token travels in the page URL's fragment (never sent to a server), then in the WebSocket query. */
export const TOKEN_PARAM = 'token';
/**
 * The browser session: once a WebSocket opens with the token, the host sets this cookie (HttpOnly, SameSite=Strict,
 * this host only), so a reload or a second tab of the same address connects without the token in its URL. Named by
 * port, since cookies are not: two hosts on 127.0.0.1 keep their own.
 */
export const sessionCookieName = (port: number): string => `cw_session_${port}`;
