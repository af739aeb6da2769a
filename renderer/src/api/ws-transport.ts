// Browser-mode transport: the contract over one WebSocket at a time, through the RPC kernel's client (ids, deadlines,
// answers as data), with bounded reconnects and the token's refusal told apart from a network failure.
import type { MethodName } from '../../../shared/contract';
import type { HostEvent, HostEventListener } from '../../../shared/contract/events';
import { createClient, type RpcClient } from '../../../shared/rpc/client';
import { isHostEvent, type ConnectionInfo, type ConnectionListener, type HostConnection } from './connection';
import { connectionLost, describeThrown, notConnected, timedOut, unauthorized } from './errors';
import { callTimeoutFor, type CallTimeouts } from './call-timeouts';
import { socketCarrier, type SocketCarrier, type SocketLike } from './socket-carrier';

export type { SocketLike } from './socket-carrier';

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface WsTransportOptions extends CallTimeouts {
  /** Full ws:// URL (with the token when the page has one), or null when there is no way to connect. */
  url: string | null;
  /** What "reachable but refused" says (default: the token is not accepted). */
  refusedDetail?: string;
  createSocket?: (url: string) => SocketLike;
  timers?: Timers;
  /** In [0, 1); spreads reconnects out. */
  random?: () => number;
  connectTimeoutMs?: number;
  backoff?: { baseMs: number; maxMs: number; maxAttempts: number };
  /**
   * Asked when a socket closes without ever opening: is the host itself reachable (over plain HTTP)?
   * Browsers hide the HTTP status of a refused upgrade, so "reachable but refused" is how a wrong or
   * stale token (the host was restarted) shows up. Without a probe every failure counts as network.
   */
  probe?: () => Promise<boolean>;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_BACKOFF = { baseMs: 500, maxMs: 10_000, maxAttempts: 20 };

/**
 * Close codes the host uses (or may use) to say "your token is not accepted": 1008 policy violation
 * and the 4000-range application codes 4001/4003/4401/4403.
 */
const AUTH_CLOSE_CODES = new Set([1008, 4001, 4003, 4401, 4403]);
const REFUSED_DETAIL =
  'The host is running but refused this window: the access token is missing, wrong, or from an earlier run of the host.';

const defaultTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function createWsTransport(options: WsTransportOptions): HostConnection {
  const timers = options.timers ?? defaultTimers;
  const random = options.random ?? Math.random;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);

  const eventListeners = new Set<HostEventListener>();
  const infoListeners = new Set<ConnectionListener>();
  let socket: SocketLike | null = null;
  /** The current socket's carrier and kernel client; none between sockets. */
  let link: { carrier: SocketCarrier; client: RpcClient<HostEvent> } | null = null;
  let retryTimer: unknown = null;
  let connectTimer: unknown = null;
  let authRejected = false;
  let disposed = false;
  /** Bumped on every open(); a probe answer for an older attempt is ignored. */
  let generation = 0;
  let info: ConnectionInfo = { state: 'connecting', transport: 'websocket', attempt: 0, willRetry: false };

  const setInfo = (next: Partial<ConnectionInfo>) => {
    info = { ...info, ...next };
    if (!('detail' in next)) delete info.detail;
    const snapshot = info;
    for (const listener of infoListeners) {
      try {
        listener(snapshot);
      } catch (err) {
        console.error('connection listener failed', err);
      }
    }
  };

  /** Calls still waiting end: the kernel client answers each (not sent, or lost on the way). */
  const endLink = () => {
    const ended = link;
    link = null;
    ended?.carrier.ended();
  };

  const emit = (event: HostEvent) => {
    if (!isHostEvent(event)) return;
    for (const listener of eventListeners) {
      try {
        listener(event);
      } catch (err) {
        console.error('host event listener failed', err);
      }
    }
  };

  const clearConnectTimer = () => {
    if (connectTimer !== null) timers.clearTimeout(connectTimer);
    connectTimer = null;
  };

  const refuse = (detail: string) => {
    endLink();
    setInfo({ state: 'unauthorized', willRetry: false, detail });
  };

  const scheduleRetry = (detail: string) => {
    endLink();
    const attempt = info.attempt + 1;
    if (attempt > backoff.maxAttempts) {
      setInfo({ state: 'disconnected', attempt, willRetry: false, detail });
      return;
    }
    const exp = Math.min(backoff.maxMs, backoff.baseMs * 2 ** (attempt - 1));
    const delay = Math.round(exp * (0.5 + random() * 0.5));
    setInfo({ state: 'disconnected', attempt, willRetry: true, detail });
    retryTimer = timers.setTimeout(() => {
      retryTimer = null;
      open();
    }, delay);
  };

  const handleClose = (code: number, reason: string, opened: boolean) => {
    clearConnectTimer();
    socket = null;
    endLink();
    if (disposed) return;
    if (authRejected || AUTH_CLOSE_CODES.has(code)) {
      refuse(reason || REFUSED_DETAIL);
      return;
    }
    const detail = reason || (opened ? 'The connection to the host closed.' : 'Could not reach the host.');
    if (!opened && options.probe) {
      const gen = generation;
      options
        .probe()
        .catch(() => false)
        .then((reachable) => {
          if (disposed || gen !== generation || socket) return;
          if (reachable) refuse(options.refusedDetail ?? REFUSED_DETAIL);
          else scheduleRetry(detail);
        });
      return;
    }
    scheduleRetry(detail);
  };

  const open = () => {
    if (disposed || socket) return;
    generation += 1;
    authRejected = false;
    if (options.url === null) {
      setInfo({ state: 'unauthorized', willRetry: false, detail: 'This address has no access token.' });
      return;
    }
    setInfo({ state: 'connecting', willRetry: false });
    let current: SocketLike;
    try {
      current = createSocket(options.url);
    } catch (err) {
      scheduleRetry(describeThrown(err));
      return;
    }
    socket = current;
    let opened = false;
    const carrier = socketCarrier(current, (error) => {
      if (error.code === 'UNAUTHORIZED') authRejected = true;
      else console.warn('host reported a transport error', error);
    });
    const client = createClient<HostEvent>(carrier, {
      lost: (method) => (disposed ? notConnected(method, 'This window is closing.') : opened ? connectionLost(method) : notConnected(method)).error,
      timedOut: (method, ms) => timedOut(method, ms).error,
      subscribe: false,
      timers,
    });
    client.onEvent(emit);
    link = { carrier, client };
    connectTimer = timers.setTimeout(() => {
      connectTimer = null;
      if (socket !== current) return;
      detach(current);
      try {
        current.close();
      } catch {
        // Already closing.
      }
      handleClose(0, 'The host did not accept the connection in time.', false);
    }, connectTimeoutMs);

    current.onopen = () => {
      if (socket !== current) return;
      opened = true;
      clearConnectTimer();
      setInfo({ state: 'connected', attempt: 0, willRetry: false });
      carrier.opened();
    };
    current.onmessage = (event) => {
      if (socket !== current) return;
      carrier.received(event.data);
    };
    current.onclose = (event) => {
      if (socket !== current) return;
      detach(current);
      handleClose(event.code, event.reason, opened);
    };
    // Every error is followed by a close event, which does the work.
    current.onerror = () => undefined;
  };

  const detach = (s: SocketLike) => {
    s.onopen = null;
    s.onmessage = null;
    s.onclose = null;
    s.onerror = null;
  };

  const invoke = ((method: MethodName, input: unknown) => {
    if (disposed) return Promise.resolve(notConnected(method, 'This window is closing.'));
    if (info.state === 'unauthorized') return Promise.resolve(unauthorized(method));
    if (info.state === 'disconnected') return Promise.resolve(notConnected(method));
    if (!link) return Promise.resolve(notConnected(method));
    return link.client.call(method, input, { timeoutMs: callTimeoutFor(method, options) });
  }) as HostConnection['invoke'];

  const connection: HostConnection = {
    transport: 'websocket',
    invoke,
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    getInfo: () => info,
    onInfo(listener) {
      infoListeners.add(listener);
      return () => infoListeners.delete(listener);
    },
    reconnect() {
      if (disposed || socket) return;
      if (retryTimer !== null) timers.clearTimeout(retryTimer);
      retryTimer = null;
      setInfo({ attempt: 0 });
      open();
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      if (retryTimer !== null) timers.clearTimeout(retryTimer);
      clearConnectTimer();
      const current = socket;
      socket = null;
      if (current) {
        detach(current);
        try {
          current.close(1000, 'window closing');
        } catch {
          // Already closed.
        }
      }
      endLink();
      eventListeners.clear();
      infoListeners.clear();
    },
  };

  open();
  return connection;
}

/** ws(s)://<host>/ws?token=… for the page's own origin, or null without a token. */
/** Without a token the socket goes without one, and the host refuses it (the page then says why). */
export function hostSocketUrl(location: Pick<Location, 'protocol' | 'host'>, path: string, param: string, token: string | null): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${path}${token ? `?${param}=${encodeURIComponent(token)}` : ''}`;
}
