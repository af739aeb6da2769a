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
        tell('commands.register', [Array.isArray(commands) ? commands : []]);
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
    /** The person ran one of its commands: each handler hears it; one that throws is logged, the rest still run. */
    async invoke(commandId: string, context: unknown): Promise<void> {
      for (const handler of [...handlers]) {
        try {
          await handler(commandId, context);
        } catch (err) {
          log.error(`Command handler error (${commandId}): ${(err as Error)?.message ?? String(err)}`);
        }
      }
    },
  };
}
