// spindle.commands, as Lumiverse's command palette entries: register replaces the extension's whole list (the host
// checks it as Lumiverse does and shows it on the extension's card), unregister takes some or all away, and each
// handler from onInvoked hears the command the person ran with a snapshot of where they were.
import type { HostRequests } from '../host-requests';
import type { SpindleLog } from './log';

type Invoked = (commandId: string, context: unknown) => unknown;

export function createCommands(requests: HostRequests, log: SpindleLog) {
  const handlers = new Set<Invoked>();
  // Void, as in Lumiverse: a refusal is a line in its log, never a rejection it must catch.
  const tell = (method: 'commands.register' | 'commands.unregister', args: unknown[]) =>
    void requests.call(method, { args: JSON.parse(JSON.stringify(args)) as unknown[] } as never).catch((err: Error & { code?: string }) => log.warn(`spindle.${method}: ${err.code ?? 'ERROR'}: ${err.message}`));
  return {
    api: Object.freeze({
      register(commands: unknown) {
        // As Lumiverse: anything but a list is a warning, and the commands it had stay.
        if (!Array.isArray(commands)) return log.warn('spindle.commands.register: expected an array; the commands stay as they were.');
        tell('commands.register', [commands]);
      },
      unregister(commandIds?: unknown) {
        tell('commands.unregister', [Array.isArray(commandIds) ? commandIds.filter((id) => typeof id === 'string') : []]);
      },
      onInvoked(handler: unknown) {
        if (typeof handler !== 'function') throw new TypeError('spindle.commands.onInvoked expects a handler function.');
        handlers.add(handler as Invoked);
        return () => void handlers.delete(handler as Invoked);
      },
    }),
    /** The person ran one of its commands: every handler hears it at once; one that fails is logged, the others run on. */
    async invoke(commandId: string, context: unknown): Promise<void> {
      const failed = (err: unknown) => log.error(`Command handler error (${commandId}): ${(err as Error)?.message ?? String(err)}`);
      await Promise.all(
        [...handlers].map(async (handler) => {
          try {
            await handler(commandId, context);
          } catch (err) {
            failed(err);
          }
        }),
      );
    },
  };
}
