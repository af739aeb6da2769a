// The spindle.backendProcesses requests: managed subprocesses an extension's backend spawns, watches and stops
// (Lumiverse's backend process lifecycle). Part of the one request table (requests.ts); the host's side is
// electron/core/extensions/workers/backend-processes.ts.
import { Type } from '@sinclair/typebox';
import { endpoint } from '../rpc/endpoint';
import { Any, Dto, named, Opt, Options, OrNull } from './request-schema';

/** Lumiverse's caps on the fixed fields, in UTF-8 bytes (the host counts bytes; the schema caps characters). */
export const PROCESS_FIELD_BYTES = { entry: 4096, kind: 128, key: 256, processId: 128, reason: 4096, error: 4096 } as const;

export const PROCESS_STATES = ['starting', 'running', 'stopping', 'stopped', 'completed', 'failed', 'timed_out'] as const;
export type BackendProcessState = (typeof PROCESS_STATES)[number];
export type BackendProcessExitReason = 'completed' | 'failed' | 'stopped' | 'timed_out' | 'backend_unloaded' | 'replaced';

const State = Type.Union(PROCESS_STATES.map((state) => Type.Literal(state)));
/** A process id as an extension passes one back (the host's are 36 characters). */
const AnyId = Type.String({ maxLength: 4096 });
const UserId = Opt(Type.String({ maxLength: 128 }));
/** BackendProcessInfoDTO: the fields every snapshot has are checked. */
const Info = Dto({ processId: Type.String(), entry: Type.String(), kind: Type.String(), state: State, startedAt: Type.String() });

/** BackendProcessSpawnOptionsDTO; `has` says which of the two value roots the extension included (undefined is not JSON). */
const SpawnOptions = Type.Object({
  entry: Type.String({ maxLength: PROCESS_FIELD_BYTES.entry }),
  kind: Opt(Type.String({ maxLength: PROCESS_FIELD_BYTES.kind })),
  key: Opt(Type.String({ maxLength: PROCESS_FIELD_BYTES.key })),
  payload: Opt(Any),
  metadata: Opt(Type.Record(Type.String(), Type.Unknown())),
  userId: UserId,
  startupTimeoutMs: Opt(Type.Number()),
  heartbeatTimeoutMs: Opt(Type.Number()),
  replaceExisting: Opt(Type.Boolean()),
});

export const PROCESS_REQUESTS = {
  // Answers once the child called process.ready(): PROCESS_FAILED when it failed, completed, stopped or exited first,
  // PROCESS_TIMEOUT when it did not in time; QUOTA_EXCEEDED past 16 at once; CONFLICT for a key in use.
  'backendProcesses.spawn': endpoint({
    ...named({ options: SpawnOptions, has: Type.Object({ payload: Type.Boolean(), metadata: Type.Boolean() }) }),
    result: Info,
    errors: ['PATH_NOT_ALLOWED', 'NOT_FOUND', 'CONFLICT', 'QUOTA_EXCEEDED', 'PROCESS_FAILED', 'PROCESS_TIMEOUT', 'TOOL_UNAVAILABLE', 'CANCELLED', 'UNSUPPORTED_HERE'],
  }),
  // A state no process has lists nothing, as Lumiverse's filter does.
  'backendProcesses.list': endpoint({
    ...named({ filter: Options({ userId: UserId, kind: Opt(Type.String()), key: Opt(Type.String()), state: Opt(Type.String({ maxLength: 64 })) }) }),
    result: Type.Array(Info),
    errors: ['UNSUPPORTED_HERE'],
  }),
  // An id no process has (however long) is none: null, and a stop of it does nothing.
  'backendProcesses.get': endpoint({ ...named({ processId: AnyId }), result: OrNull(Info), errors: ['UNSUPPORTED_HERE'] }),
  // Fire and forget, as in Lumiverse: an unknown process or an invalid payload is dropped.
  'backendProcesses.send': endpoint({ ...named({ processId: AnyId, payload: Opt(Any), userId: UserId }), result: Type.Null(), errors: ['UNSUPPORTED_HERE'] }),
  'backendProcesses.stop': endpoint({
    ...named({ processId: AnyId, options: Options({ userId: UserId, reason: Opt(Type.String({ maxLength: PROCESS_FIELD_BYTES.reason })) }) }),
    result: Type.Null(),
    errors: ['UNSUPPORTED_HERE'],
  }),
} as const;
