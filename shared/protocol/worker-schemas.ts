// What a worker may say to the host, declared once as schemas: the host validates every message against these at the
// boundary (electron/core/extensions/workers/read-worker-message.ts) and the types the runtime sends are derived from
// them. The worker imports types only, so the schemas' library never loads in a worker.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { ToolRegistrationDTO } from '../types/spindle';
import { MAX_EVENT_NAME_CHARS, MAX_WANTED_EVENTS, METHOD_PATTERN, REQUEST_ID_PATTERN } from './limits';

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
  request: message('request', { requestId: RequestId, method: Type.String({ pattern: METHOD_PATTERN.source }), params: Type.Optional(Type.Unknown()) }, 'A spindle.* call the host answers with one response.'),
  request_cancel: message('request_cancel', { requestId: RequestId }, 'The extension no longer wants that answer (its AbortSignal fired).'),
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
export type HostRequestMessage = Static<typeof WORKER_TO_HOST.request>;
export type HostRequestCancelMessage = Static<typeof WORKER_TO_HOST.request_cancel>;
