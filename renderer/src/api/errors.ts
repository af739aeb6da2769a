// Errors the renderer's transports produce themselves, in the contract's error shape.
import type { HostError, Result } from '../../../shared/errors';

/**
 * Not (yet) one of shared/errors.ts ERROR_CODES: the host did not answer in time. The call may still
 * have happened on the host; the renderer just stopped waiting.
 */
export const HOST_TIMEOUT = 'HOST_TIMEOUT';

/** A failed answer: a Result of any type, with its error in reach. */
export type Failed = Extract<Result<never>, { ok: false }>;

export function failure(error: HostError): Failed {
  return { ok: false, error };
}

export function notConnected(method: string, detail?: string): Failed {
  return failure({
    code: 'HOST_SHUTDOWN',
    message: `Not connected to the host, so ${method} was not sent.`,
    hint: detail ?? 'The workbench reconnects on its own; try again in a moment.',
  });
}

export function connectionLost(method: string): Failed {
  return failure({
    code: 'HOST_SHUTDOWN',
    message: `The connection to the host closed before ${method} was answered.`,
    hint: 'The call may or may not have run on the host. Check its effect before retrying.',
  });
}

export function unauthorized(method: string): Failed {
  return failure({
    code: 'UNAUTHORIZED',
    message: `The host refused this window's access token, so ${method} was not sent.`,
    hint: 'Open the address the host printed when it started (it ends with #token=…).',
  });
}

export function timedOut(method: string, ms: number): Failed {
  return failure({
    code: HOST_TIMEOUT,
    message: `The host did not answer ${method} within ${Math.round(ms / 1000)} s.`,
    hint: 'The host may be busy or stuck; the status bar shows whether it is still connected.',
  });
}

export function describeThrown(value: unknown): string {
  if (value instanceof Error) return value.message;
  return String(value);
}
