// One generic dispatcher for the messages of a boundary: a table with one handler per message type, on each end.

/** One handler for each type of the message union `M`. */
export type MessageHandlers<M extends { type: string }> = { [K in M['type']]: (message: Extract<M, { type: K }>) => void };

/** Calls the handler of the message's type; false when the table has none (a type this end does not know). */
export function dispatch<M extends { type: string }>(handlers: MessageHandlers<M>, message: M): boolean {
  if (!Object.hasOwn(handlers, message.type)) return false;
  (handlers[message.type as M['type']] as (message: M) => void)(message);
  return true;
}
