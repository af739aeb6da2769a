// Every message between the host and an extension worker, declared once as schemas; the types both ends use are
// derived from them. What a worker says is validated against these at the host's boundary
// (electron/core/extensions/workers/read-worker-message.ts); what the host says, the worker trusts. The worker imports
// types only, so the schemas' library never loads in a worker.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { HostError } from '../errors';
import type { ExtensionManifest, ExtensionPermission, ToolInvocationPayloadDTO, ToolRegistrationDTO } from '../types/spindle';
import { MAX_EVENT_NAME_CHARS, MAX_WANTED_EVENTS, REQUEST_ID_PATTERN } from './limits';

const RequestId = Type.String({ pattern: REQUEST_ID_PATTERN.source });
const LogLevel = Type.Union([Type.Literal('debug'), Type.Literal('info'), Type.Literal('warn'), Type.Literal('error')]);
/** The structured error a tool handler can throw (orchestrator seed: `Object.assign(new Error(m), { code, hint })`). */
const WorkerToolErrorSchema = Type.Object({ code: Type.String(), message: Type.String(), hint: Type.Optional(Type.String()) });

/** A message: its type and fields, nothing else (the runtime sends no others; a stranger's extras are refused). */
const message = <T extends string, P extends Record<string, TSchema>>(type: T, properties: P, description: string) =>
  Type.Object({ type: Type.Literal(type), ...properties }, { description, additionalProperties: false });

/** Every message a worker sends, by its type. */
export const WORKER_TO_HOST = {
  ready: message('ready', { contained: Type.Optional(Type.Boolean()), networkIsolated: Type.Optional(Type.Boolean()) }, 'Loaded; whether it runs contained (permission model) and without a network.'),
  events_wanted: message(
    'events_wanted',
    { events: Type.Array(Type.String({ minLength: 1, maxLength: MAX_EVENT_NAME_CHARS }), { maxItems: MAX_WANTED_EVENTS }) },
    'The notification events it has spindle.on handlers for, all of them; the host sends it only those.',
  ),
  register_tool: message('register_tool', { tool: Type.Unsafe<ToolRegistrationDTO>(Type.Object({})) }, "A tool as the extension passed it; the registry checks the rest and names the field."),
  unregister_tool: message('unregister_tool', { name: Type.String({ maxLength: 256 }) }, 'A tool it registered goes.'),
  tool_invocation_result: Type.Union(
    [
      message('tool_invocation_result', { requestId: RequestId, ok: Type.Literal(true), text: Type.String() }, "A call's answer: the model's text (tool) or the value's JSON (pipeline)."),
      message('tool_invocation_result', { requestId: RequestId, ok: Type.Literal(false), error: WorkerToolErrorSchema }, "A call's failure."),
    ],
    { description: "A call's answer." },
  ),
  log: message('log', { level: LogLevel, message: Type.String() }, 'A line for its log (console.* and spindle.log).'),
  heartbeat: message('heartbeat', { seq: Type.Optional(Type.Number()) }, 'The answer to ping; a blocked event loop cannot send it.'),
  rpc: message('rpc', { message: Type.Unknown() }, "A spindle.* call, or its cancel, in the RPC kernel's envelope (shared/rpc/envelope.ts), which the kernel reads."),
} as const;

export type WorkerToHostType = keyof typeof WORKER_TO_HOST;
export type WorkerToHostMessage = { [K in WorkerToHostType]: Static<(typeof WORKER_TO_HOST)[K]> }[WorkerToHostType];
export type WorkerToolError = Static<typeof WorkerToolErrorSchema>;
export type LogLevel = Static<typeof LogLevel>;
export type ReadyMessage = Static<typeof WORKER_TO_HOST.ready>;
export type EventsWantedMessage = Static<typeof WORKER_TO_HOST.events_wanted>;
export type RegisterToolMessage = Static<typeof WORKER_TO_HOST.register_tool>;
export type UnregisterToolMessage = Static<typeof WORKER_TO_HOST.unregister_tool>;
export type ToolInvocationResultMessage = Static<typeof WORKER_TO_HOST.tool_invocation_result>;
export type LogMessage = Static<typeof WORKER_TO_HOST.log>;
export type HeartbeatMessage = Static<typeof WORKER_TO_HOST.heartbeat>;
export type WorkerRpcMessage = Static<typeof WORKER_TO_HOST.rpc>;

// ---- host → worker ----

const Permission = Type.Unsafe<ExtensionPermission>(Type.String());
const HostErrorSchema = Type.Unsafe<HostError>(Type.Object({ code: Type.String(), message: Type.String() }));
const Payload = Type.Unsafe<ToolInvocationPayloadDTO>(Type.Object({}));
const CancelReasonSchema = Type.Union([Type.Literal('timeout'), Type.Literal('cancelled'), Type.Literal('permission_revoked'), Type.Literal('shutdown')]);
/**
 * A council cycle gives every member's tool the same chat context (`contextMessages` and the flattened
 * `args.context`). A call numbers its context: the first call with a context carries it and the worker keeps it (one
 * at a time); a later call with the same number leaves it out (`contextMessages` absent, `args.context` null) and the
 * worker fills in a fresh copy of each before extension code sees the payload. A new context replaces the kept one.
 */
const CallContextRefSchema = Type.Number();

/** Every message the host sends a worker, by its type. */
export const HOST_TO_WORKER = {
  init: message(
    'init',
    { manifest: Type.Unsafe<ExtensionManifest>(Type.Object({})), granted: Type.Array(Permission), extensionPath: Type.String() },
    'Load the extension: its manifest, what it was granted, and its folder (manifest.main is relative to it).',
  ),
  tool_invocation: message('tool_invocation', { payload: Payload, context: Type.Optional(CallContextRefSchema) }, 'Run a tool; answered with tool_invocation_result.'),
  tool_simulation: message('tool_simulation', { payload: Payload, context: Type.Optional(CallContextRefSchema) }, "Dry run of a write tool (the orchestrator seed's simulate); answered with tool_invocation_result."),
  cancel: message('cancel', { requestId: RequestId, reason: CancelReasonSchema }, 'Stop working on a call (its AbortSignal fires).'),
  permission_denied: message('permission_denied', { permission: Permission, operation: Type.String() }, 'Something it tried needs a permission it lacks.'),
  permissions_changed: message('permissions_changed', { granted: Type.Array(Permission) }, 'What it is granted now.'),
  error: message('error', { operation: Type.String(), error: HostErrorSchema }, 'A host-side failure of something it asked for, e.g. a registration the registry refused.'),
  rpc: message('rpc', { message: Type.Unknown() }, "The answer to a spindle.* call, or one chunk of a streamed one, in the RPC kernel's envelope."),
  frontend_message: message('frontend_message', { payload: Type.Unknown() }, "For the extension's onFrontendMessage handlers (from its frames or the Workbench's console)."),
  command_invoked: message('command_invoked', { commandId: Type.String(), context: Type.Unknown() }, 'The person ran one of its commands (spindle.commands.onInvoked), with where they were.'),
  pipeline_call: message(
    'pipeline_call',
    { requestId: RequestId, kind: Type.String(), id: Type.String(), args: Type.Array(Type.Unknown()) },
    "Run one prompt-pipeline handler it registered (an interceptor, a context handler, a macro's handler) with args; answered with tool_invocation_result under a tool call's deadline, cancel and size rules.",
  ),
  event: message('event', { event: Type.String(), payload: Type.Unknown() }, "A notification event (GENERATION_STARTED, MESSAGE_SENT…) for its spindle.on handlers."),
  ping: message('ping', { seq: Type.Number() }, 'Answered with heartbeat; a blocked event loop cannot.'),
  shutdown: message('shutdown', {}, 'Finish SHUTDOWN handlers and exit.'),
  process_lifecycle: message('process_lifecycle', { event: Type.Unknown() }, "A managed backend process changed state (spindle.backendProcesses.onLifecycle's BackendProcessLifecycleEventDTO)."),
  process_message: message('process_message', { processId: Type.String(), payload: Type.Unknown(), userId: Type.String() }, 'A managed backend process sent its parent a message (spindle.backendProcesses.onMessage).'),
  // To a managed backend process (the same runtime script, started as a child): see child-schemas.ts for its answers.
  child_init: message(
    'child_init',
    { process: Type.Unsafe<ChildProcessInit>(Type.Object({})), entryPath: Type.String(), extensionPath: Type.String() },
    'Run as a managed backend process: import entryPath (checked by the host) and call its default or run export with the context.',
  ),
  child_message: message('child_message', { payload: Type.Unknown() }, "The parent backend's message, for the child's onMessage handlers."),
  child_stop: message('child_stop', { reason: Type.Optional(Type.String()) }, "Stop gracefully: the child's onStop handlers, or it ends now when it has none."),
} as const;

/** What a managed backend process's entry is told about itself (SpindleBackendProcessContext's fields). */
export interface ChildProcessInit {
  processId: string;
  entry: string;
  kind: string;
  key?: string;
  payload?: unknown;
  metadata?: Record<string, unknown>;
  userId?: string;
}

export type HostToWorkerType = keyof typeof HOST_TO_WORKER;
export type HostToWorkerMessage = { [K in HostToWorkerType]: Static<(typeof HOST_TO_WORKER)[K]> }[HostToWorkerType];
export type CancelReason = Static<typeof CancelReasonSchema>;
export type CallContextRef = Static<typeof CallContextRefSchema>;
export type InitMessage = Static<typeof HOST_TO_WORKER.init>;
export type ToolInvocationMessage = Static<typeof HOST_TO_WORKER.tool_invocation>;
export type ToolSimulationMessage = Static<typeof HOST_TO_WORKER.tool_simulation>;
export type CancelMessage = Static<typeof HOST_TO_WORKER.cancel>;
export type PermissionDeniedMessage = Static<typeof HOST_TO_WORKER.permission_denied>;
export type PermissionsChangedMessage = Static<typeof HOST_TO_WORKER.permissions_changed>;
export type HostErrorMessage = Static<typeof HOST_TO_WORKER.error>;
export type HostRpcMessage = Static<typeof HOST_TO_WORKER.rpc>;
export type FrontendMessage = Static<typeof HOST_TO_WORKER.frontend_message>;
export type PipelineCallMessage = Static<typeof HOST_TO_WORKER.pipeline_call>;
export type EventMessage = Static<typeof HOST_TO_WORKER.event>;
export type PingMessage = Static<typeof HOST_TO_WORKER.ping>;
export type ShutdownMessage = Static<typeof HOST_TO_WORKER.shutdown>;
export type ChildInitMessage = Static<typeof HOST_TO_WORKER.child_init>;
