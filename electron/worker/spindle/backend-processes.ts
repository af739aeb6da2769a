// spindle.backendProcesses in the worker: managed subprocesses the host starts, watches and stops for this backend
// (electron/core/extensions/workers/backend-processes.ts). Values are checked here as the extension made them
// (Lumiverse's managed-value grammar refuses a Date rather than sending its string); lifecycle and message news
// arrive from the host for the onLifecycle and onMessage handlers.
import { managedValueProblem, spawnValuesProblem } from '../../../shared/spindle/managed-values';
import type { HostRequests } from '../host-requests';
import type { SpindleLog } from './log';

type Info = { processId: string; entry: string; kind: string; key?: string } & Record<string, unknown>;
type Listener = (event: never) => void;

const invalid = (what: string) => Object.assign(new Error(`spindle.backendProcesses.spawn: ${what}`), { code: 'INVALID_INPUT' });

export function createBackendProcesses(requests: HostRequests, log: SpindleLog) {
  const lifecycle = new Set<Listener>();
  const messages = new Set<Listener>();
  const listen = (set: Set<Listener>) => (handler: unknown) => {
    if (typeof handler !== 'function') throw new TypeError('spindle.backendProcesses: a handler is a function.');
    set.add(handler as Listener);
    return () => void set.delete(handler as Listener);
  };
  const send = (processId: unknown, payload: unknown, userId?: unknown): void => {
    const problem = managedValueProblem(payload, 'payload');
    if (problem) return log.warn(`spindle.backendProcesses.send dropped a message: ${problem}`);
    const params = { processId: String(processId ?? ''), payload, ...(typeof userId === 'string' ? { userId } : {}) };
    requests.call('backendProcesses.send', params).catch((err: Error & { code?: string }) => log.warn(`spindle.backendProcesses.send: ${err.code ?? 'ERROR'}: ${err.message}`));
  };
  const stop = async (processId: unknown, options?: unknown): Promise<void> => {
    const o = (options ?? {}) as { userId?: unknown; reason?: unknown };
    await requests.call('backendProcesses.stop', {
      processId: String(processId ?? ''),
      options: { ...(typeof o.userId === 'string' ? { userId: o.userId } : {}), ...(typeof o.reason === 'string' ? { reason: o.reason } : {}) },
    });
  };
  const get = async (processId: unknown) => (await requests.call('backendProcesses.get', { processId: String(processId ?? '') })) as Info | null;

  /** BackendProcessHandle: its snapshot at spawn, refreshed on request. */
  const handleOf = (info: Info) => {
    const handle = {
      processId: info.processId,
      entry: info.entry,
      kind: info.kind,
      ...(info.key !== undefined ? { key: info.key } : {}),
      info,
      send: (payload: unknown) => send(info.processId, payload),
      stop: (options?: unknown) => stop(info.processId, options),
      async refresh() {
        const latest = await get(info.processId);
        if (latest) handle.info = latest;
        return latest;
      },
    };
    return handle;
  };

  return {
    api: {
      async spawn(options: unknown) {
        if (typeof options !== 'object' || options === null) throw invalid('options must be an object.');
        const o = options as Record<string, unknown>;
        const has = { payload: Object.hasOwn(o, 'payload'), metadata: Object.hasOwn(o, 'metadata') };
        const problem = spawnValuesProblem(o, has);
        if (problem) throw invalid(problem);
        const { signal: _signal, ...rest } = o;
        return handleOf((await requests.call('backendProcesses.spawn', { options: rest, has } as never)) as Info);
      },
      list: async (filter?: unknown) => (await requests.call('backendProcesses.list', { ...(filter && typeof filter === 'object' ? { filter } : {}) } as never)) as Info[],
      get,
      send,
      stop,
      onLifecycle: listen(lifecycle),
      onMessage: listen(messages),
    },
    /** The host's news of a process: its lifecycle event, or what it sent. */
    deliver(kind: 'lifecycle' | 'message', event: unknown): void {
      for (const handler of [...(kind === 'lifecycle' ? lifecycle : messages)]) {
        try {
          handler(event as never);
        } catch (err) {
          log.warn(`A backendProcesses.on${kind === 'lifecycle' ? 'Lifecycle' : 'Message'} handler failed:`, err);
        }
      }
    },
  };
}
