// What a managed backend process (spindle.backendProcesses) says to the host, declared as schemas like a worker's
// messages (worker-schemas.ts) and checked at the host's boundary the same way: it runs a stranger's code too.
import { Type, type Static } from '@sinclair/typebox';
import { WORKER_TO_HOST } from './worker-schemas';

const message = <T extends string, P extends Record<string, import('@sinclair/typebox').TSchema>>(type: T, properties: P, description: string) =>
  Type.Object({ type: Type.Literal(type), ...properties }, { description, additionalProperties: false });

export const CHILD_TO_HOST = {
  child_signal: message(
    'child_signal',
    { signal: Type.Union([Type.Literal('ready'), Type.Literal('heartbeat'), Type.Literal('complete'), Type.Literal('stopped')]) },
    'process.ready(), process.heartbeat(), process.complete(), or the end of a stop it had no handler for.',
  ),
  child_fail: message('child_fail', { error: Type.String() }, 'process.fail(error), or its entry threw or exports no function.'),
  child_message: message('child_message', { payload: Type.Unknown() }, 'process.send(payload): for the parent backend.'),
  log: WORKER_TO_HOST.log,
} as const;

export type ChildToHostType = keyof typeof CHILD_TO_HOST;
export type ChildToHostMessage = { [K in ChildToHostType]: Static<(typeof CHILD_TO_HOST)[K]> }[ChildToHostType];
