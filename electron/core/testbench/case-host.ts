// The host a case runs in, as the test bench drives it: calls through the contract, set-up steps that name what
// failed, and a turn watched to its end (bounded) with the extension's log lines gathered meanwhile.
import { HostFailure, type HostError } from '../../../shared/errors';
import type { HostEvent } from '../../../shared/contract/events';
import type { MethodInput, MethodName, MethodOutput } from '../../../shared/contract';
import type { Host } from '../host';

/** How long a case's turn may take: the replay model answers at once, so a turn still running is stuck. */
const TURN_LIMIT_MS = 60_000;

export async function call<M extends MethodName>(host: Host, method: M, input: MethodInput<M>): Promise<MethodOutput<M>> {
  const result = await host.api.call(method, input, { origin: 'cli' });
  if (!result.ok) throw new HostFailure(result.error);
  return result.value as MethodOutput<M>;
}

/** A failure of the set-up (install, import): the case cannot run; the CLI exits 2 for it. */
export class CaseSetupError extends Error {
  constructor(
    readonly step: string,
    readonly error: HostError,
  ) {
    super(`${step}: ${error.code}: ${error.message}${error.path ? ` (${error.path})` : ''}`);
  }
}

export async function step<T>(name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw new CaseSetupError(name, err instanceof HostFailure ? err.error : { code: 'INTERNAL', message: (err as Error).message });
  }
}

/** How the turn ended (a turn stuck past the limit ends as an error the snapshot shows). */
export type TurnEnd = Pick<Extract<HostEvent, { type: 'chat.finished' }>, 'finishReason' | 'error'> & { messageId: string | null };

/**
 * Watches the host's events from now on: the turn's end, its council run, and the extension's own log lines —
 * from its install on, so what it logs as it loads (a registration refused) is there however fast the load is.
 */
export function watchTurn(host: Host) {
  const lines: Array<{ id: string; line: string }> = [];
  const council = { runId: null as string | null };
  let timer: NodeJS.Timeout | undefined;
  let finish: (end: TurnEnd) => void = () => undefined;
  const done = new Promise<TurnEnd>((resolve) => (finish = resolve));
  const off = host.onEvent((event) => {
    if (event.type === 'extension.log' && event.source !== 'host') lines.push({ id: event.id, line: `${event.source}: ${event.text}` });
    if (event.type === 'chat.finished') finish(event);
    if (event.type === 'chat.council' && event.phase === 'completed') council.runId = event.runId;
  });
  return {
    /** The extension's own lines so far. */
    log: (extensionId: string) => lines.filter((l) => l.id === extensionId).map((l) => l.line),
    council,
    /** Resolves with the turn's end, or an error end after the limit. */
    finished(): Promise<TurnEnd> {
      timer = setTimeout(() => finish({ messageId: null, finishReason: 'error', error: { code: 'LLM_TIMEOUT', message: `The turn did not finish within ${TURN_LIMIT_MS / 1000} s.` } }), TURN_LIMIT_MS);
      return done;
    },
    stop(): void {
      clearTimeout(timer);
      off();
    },
  };
}
