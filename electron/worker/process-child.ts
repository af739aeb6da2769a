// A managed backend process (spindle.backendProcesses) inside the worker runtime: the entry's default or `run` export
// gets Lumiverse's SpindleBackendProcessContext, and nothing of the spindle API. Its messages are checked as the parent's
// are (managed-values.ts); a stop runs its onStop handlers, or ends it at once when it has none.
const { pathToFileURL } = process.getBuiltinModule('node:url');
import type { ChildInitMessage } from '../../shared/protocol/worker-schemas';
import type { ChildToHostMessage } from '../../shared/protocol/child-schemas';
import { managedValueProblem } from '../../shared/spindle/managed-values';

type Handler = (value: never) => void;
type Entry = (context: Record<string, unknown>) => unknown;

export interface ChildProcessRuntime {
  start(message: ChildInitMessage): Promise<void>;
  message(payload: unknown): void;
  stop(reason: string | undefined): void;
}

/**
 * `send` hands a message to the host; `exit` ends the process once the last message is handed over. `warn` says what
 * the child did wrong in its log (a message that cannot cross is dropped, as Lumiverse drops it).
 */
export function childProcessRuntime(send: (message: ChildToHostMessage) => void, exit: (code: number, last: ChildToHostMessage) => void, warn: (text: string) => void): ChildProcessRuntime {
  let ended = false;
  let readySent = false;
  let cleanup: (() => void) | null = null;
  const onMessage = new Set<Handler>();
  const onStop = new Set<Handler>();

  const end = (last: ChildToHostMessage, code: number) => {
    if (ended) return;
    ended = true;
    try {
      cleanup?.();
    } catch (err) {
      warn(`The backend process's cleanup failed: ${(err as Error)?.message ?? String(err)}`);
    }
    onMessage.clear();
    onStop.clear();
    exit(code, last);
  };
  const fail = (error: unknown) => end({ type: 'child_fail', error: String(error ?? '').trim().slice(0, 4096) || 'Backend process failed' }, 1);
  const each = (handlers: Set<Handler>, value: unknown, what: string) => {
    for (const handler of [...handlers]) {
      try {
        handler(value as never);
      } catch (err) {
        warn(`A backend process ${what} handler failed: ${(err as Error)?.message ?? String(err)}`);
      }
    }
  };
  const subscribe = (handlers: Set<Handler>) => (handler: unknown) => {
    if (typeof handler === 'function' && !ended) handlers.add(handler as Handler);
    return () => void handlers.delete(handler as Handler);
  };

  return {
    async start({ process: init, entryPath }) {
      let run: Entry | null;
      try {
        // The host checked that entryPath is a built .js file inside the extension's dist/.
        // eslint-disable-next-line no-unsanitized/method
        const mod = (await import(pathToFileURL(entryPath).href)) as { default?: unknown; run?: unknown };
        run = typeof mod.default === 'function' ? (mod.default as Entry) : typeof mod.run === 'function' ? (mod.run as Entry) : null;
      } catch (err) {
        return fail(err instanceof Error ? err.message : err);
      }
      // Stopped while its entry loaded: it never runs.
      if (ended) return;
      if (!run) return fail(`Backend process entry "${init.entry}" must export a default function or named "run" function`);
      const context = {
        processId: init.processId,
        entry: init.entry,
        kind: init.kind,
        ...(init.key !== undefined ? { key: init.key } : {}),
        // Omitted when the spawn gave none, as Lumiverse's context has it.
        ...(Object.hasOwn(init, 'payload') ? { payload: init.payload } : {}),
        ...(init.metadata !== undefined ? { metadata: init.metadata } : {}),
        ...(init.userId !== undefined ? { userId: init.userId } : {}),
        ready() {
          if (ended || readySent) return;
          readySent = true;
          send({ type: 'child_signal', signal: 'ready' });
        },
        heartbeat() {
          if (!ended) send({ type: 'child_signal', signal: 'heartbeat' });
        },
        send(payload: unknown) {
          if (ended) return;
          const problem = managedValueProblem(payload, 'payload');
          if (problem) warn(`process.send dropped a message: ${problem}`);
          else send({ type: 'child_message', payload });
        },
        onMessage: subscribe(onMessage),
        complete: () => end({ type: 'child_signal', signal: 'complete' }, 0),
        fail: (error: unknown) => fail(error),
        onStop: subscribe(onStop),
      };
      try {
        const returned = await run(context);
        if (typeof returned === 'function' && !ended) cleanup = returned as () => void;
      } catch (err) {
        fail(err instanceof Error ? err.message : err);
      }
    },
    message(payload) {
      if (!ended) each(onMessage, payload, 'onMessage');
    },
    stop(reason) {
      if (ended) return;
      if (onStop.size === 0) return end({ type: 'child_signal', signal: 'stopped' }, 0);
      each(onStop, reason === undefined ? {} : { reason }, 'onStop');
    },
  };
}
