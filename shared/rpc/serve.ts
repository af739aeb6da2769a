// The answering end of a contract link: each call handed to the host with the size it had on the carrier, answered
// once by id (never after the link ended); a cancel aborts its call's signal; events go out once subscribed (or
// always, where the server pushes them); the hello goes first.
import type { HostError, Result } from '../errors';
import { readToServer, type ToClient } from './envelope';
import type { Transport } from './transport';

export interface ServeOptions<E> {
  /**
   * Runs one call; `bytes` is its size on the carrier; `emit` sends a streaming call's chunks (none after its answer).
   * Never rejects (a rejection answers INTERNAL).
   */
  call(method: string, input: unknown, bytes: number, signal: AbortSignal, emit: (chunk: unknown) => void): Promise<Result<unknown>>;
  /** The host's events, for a client that subscribed (or every client, with `pushEvents`). */
  events?(listener: (event: E) => void): () => void;
  pushEvents?: boolean;
  /** Sent first on every connection. */
  hello?(): unknown;
  /** What a message that is none of the kinds is told; without it (a link to a stranger's frame) it is dropped unanswered. */
  invalid?: string;
}

const INTERNAL: HostError = { code: 'INTERNAL', message: 'The host failed while handling the call.' };

export function serve<E>(transport: Transport<unknown, ToClient<E>>, options: ServeOptions<E>): void {
  const inFlight = new Map<number, AbortController>();
  let unsubscribe: (() => void) | undefined;
  const send = (message: ToClient<E>) => {
    if (transport.closed) return;
    try {
      transport.send(message);
    } catch {
      // The carrier is going (a window being destroyed): what it could not take is lost with it.
    }
  };
  const subscribe = () => {
    unsubscribe ??= options.events?.((event) => send({ kind: 'event', event }));
  };
  if (options.hello) send({ kind: 'hello', info: options.hello() });
  if (options.pushEvents) subscribe();
  transport.onMessage((value, bytes) => {
    const message = readToServer(value);
    if (!message) return options.invalid === undefined ? undefined : send({ kind: 'error', error: { code: 'INVALID_INPUT', message: options.invalid } });
    if (message.kind === 'subscribe') return subscribe();
    if (message.kind === 'cancel') return void inFlight.get(message.id)?.abort();
    const controller = new AbortController();
    const id = message.id;
    let answered = false;
    const emit = (chunk: unknown) => {
      if (!answered) send({ kind: 'chunk', id, chunk });
    };
    inFlight.set(id, controller);
    void options
      .call(message.method, message.input, bytes, controller.signal, emit)
      .catch((): Result<unknown> => ({ ok: false, error: INTERNAL }))
      .then((result) => {
        answered = true;
        if (inFlight.get(id) === controller) inFlight.delete(id);
        send({ kind: 'result', id, result });
      });
  });
  transport.onClose(() => {
    unsubscribe?.();
    for (const controller of inFlight.values()) controller.abort();
    inFlight.clear();
  });
}
