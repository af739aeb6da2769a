// The app socket's wire: newline-delimited JSON frames (shared/protocol/framing.ts), each way. The CLI invokes
// contract methods and may ask for the host's events; the app answers each invoke once, by id.
import type { HostError, Result } from '../../../shared/errors';
import type { HostEvent } from '../../../shared/events';

export type ToApp = { kind: 'invoke'; id: number; method: string; input: unknown } | { kind: 'subscribe' };
export type FromApp = { kind: 'result'; id: number; result: Result<unknown> } | { kind: 'event'; event: HostEvent } | { kind: 'error'; error: HostError };

/** The longest frame either side accepts: a backup import is the largest input (shared/limits.ts), plus its JSON. */
export const MAX_FRAME_CHARS = 300 * 1024 * 1024;
