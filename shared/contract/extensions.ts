// Extension methods: list, install from a folder, enable/disable/remove/restart, permissions, logs.
import { Type } from '@sinclair/typebox';
import { EXTENSION_PERMISSIONS } from '../types/spindle';
import { endpoint } from '../rpc/endpoint';
import { FrontendArgsSchema, FrontendCallSchema } from '../frames/host-state';

/** Ours (`knowledge-base`) and Lumiverse identifiers (`lumia_tools`). */
const Id = Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{1,63}$' });
const Permission = Type.Union(EXTENSION_PERMISSIONS.map((name) => Type.Literal(name)));
const ById = Type.Object({ id: Id }, { additionalProperties: false });

/** What a folder or .zip asks for, read before installing it. */
const InspectedSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  version: Type.String(),
  description: Type.String(),
  requested: Type.Array(Permission),
  /** Requested permissions the Workbench has no equivalent for: they install, and grant nothing here. */
  notAvailable: Type.Array(Permission),
  /** Requested permissions whose namespaces answer empty here (regex scripts, databanks…). */
  answeredEmpty: Type.Array(Permission),
});

/** A .zip the window sends (browser mode cannot hand the host a path on its own machine). */
const UploadSchema = Type.Object(
  { fileName: Type.String({ minLength: 1, maxLength: 255 }), data: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);

export const ExtensionInfoSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  version: Type.String(),
  description: Type.String(),
  source: Type.Union([Type.Literal('bundled'), Type.Literal('user')]),
  status: Type.Union([
    Type.Literal('stopped'),
    Type.Literal('starting'),
    Type.Literal('running'),
    Type.Literal('crashed'),
    Type.Literal('failed'),
    Type.Literal('disabled'),
  ]),
  enabled: Type.Boolean(),
  requested: Type.Array(Permission),
  granted: Type.Array(Permission),
  toolCount: Type.Integer(),
  /** Its tools that declare no mode run without asking. */
  trusted: Type.Boolean(),
  error: Type.Optional(Type.String()),
  errorCode: Type.Optional(Type.String()),
  /** The first line of the error its worker last died of (`TypeError: …`). */
  lastCrash: Type.Optional(Type.String()),
  /** Held disabled at this start after failing to start several times in a row. */
  safeMode: Type.Optional(Type.Boolean()),
  /** What confines its worker here (Node's permission model, or why not). */
  containment: Type.String(),
  /** What it asked for without the permission it needs (`generation — spindle.generate.quiet`), until granted. */
  refused: Type.Optional(Type.Array(Type.String())),
  /** Lumiverse members it used that do nothing here (`ui`, `oauth`…). */
  inertTouched: Type.Optional(Type.Array(Type.String())),
  /** The events its spindle.on handlers listen to now (its tool calls aside). */
  events: Type.Optional(Type.Array(Type.String())),
  /** What it registered for the prompt pipeline. */
  registrations: Type.Optional(
    Type.Object({
      macros: Type.Array(Type.String()),
      pipeline: Type.Array(Type.String()),
      /** Providers it registered: sidecar endpoints, embedding, TTS and speech-to-text drivers (Spindle 0.6.20). */
      providers: Type.Optional(Type.Array(Type.String())),
      /** Shared RPC endpoints it owns (spindle.rpcPool). */
      shared: Type.Optional(Type.Array(Type.String())),
    }),
  ),
  /** Its commands (spindle.commands.register), which the person runs from its card. */
  commands: Type.Optional(Type.Array(Type.Object({ id: Type.String(), label: Type.String(), description: Type.String(), scope: Type.Optional(Type.String()) }))),
  /** What the person should know before relying on it (it asks for a newer Lumiverse than the Workbench matches). */
  warnings: Type.Optional(Type.Array(Type.String())),
  /** Its frontend module (served on its own frame origin under /__ext/), when it has one. */
  frontend: Type.Optional(Type.Object({ entry: Type.String(), /** Whether its frames run now (extension-entry.ts frontendRuns). */ runs: Type.Boolean() })),
});

export const extensionMethods = {
  'extensions.list': endpoint({ description: 'Every known extension with its status and permissions.', params: Type.Object({}, { additionalProperties: false }), result: Type.Array(ExtensionInfoSchema) }),
  'extensions.install': endpoint({ description: 'Install an extension from a folder or a .zip; only the permissions listed in grant are granted.', params: Type.Object(
      {
        /** A folder, or a .zip file. */
        folder: Type.String({ minLength: 1, maxLength: 4096 }),
        /** Permissions to grant, or 'requested' for every one it asks for. */
        grant: Type.Optional(Type.Union([Type.Array(Permission, { maxItems: EXTENSION_PERMISSIONS.length }), Type.Literal('requested')])),
        /** Let its tools that declare no mode run without asking. */
        trust: Type.Optional(Type.Boolean()),
        /** Replace the user-installed extension with the same id (an update): its stored data is kept. */
        replace: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ), result: ExtensionInfoSchema }),
  'extensions.inspect': endpoint({ description: "Read a folder's (or a .zip's) spindle.json before installing, so the user sees what it asks for and grants only that.", params: Type.Object({ folder: Type.String({ minLength: 1, maxLength: 4096 }) }, { additionalProperties: false }), result: InspectedSchema }),
  'extensions.inspectUpload': endpoint({ description: "Read an uploaded .zip's spindle.json before installing it (unpacked in a staging folder, removed again).", params: Type.Object({ upload: UploadSchema }, { additionalProperties: false }), result: InspectedSchema }),
  'extensions.installUpload': endpoint({ description: 'Install an extension from an uploaded .zip (base64); only the permissions listed in grant are granted.', params: Type.Object(
      {
        upload: UploadSchema,
        grant: Type.Optional(Type.Union([Type.Array(Permission, { maxItems: EXTENSION_PERMISSIONS.length }), Type.Literal('requested')])),
        trust: Type.Optional(Type.Boolean()),
        replace: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ), result: ExtensionInfoSchema }),
  'extensions.enable': endpoint({ description: 'Enable and start an extension.', params: ById, result: ExtensionInfoSchema }),
  'extensions.disable': endpoint({ description: 'Stop and disable an extension; its tools are unregistered.', params: ById, result: ExtensionInfoSchema }),
  'extensions.restart': endpoint({ description: 'Restart an extension (also clears a failed state).', params: ById, result: ExtensionInfoSchema }),
  'extensions.remove': endpoint({ description: 'Remove a user-installed extension.', params: ById, result: Type.Object({ removed: Type.Boolean() }) }),
  'extensions.grant': endpoint({
    description: "Grant a permission it asks for; with unrequested, one its manifest does not ask for (the person's choice, as Lumiverse's server takes any: a manifest that lags its README).",
    params: Type.Object({ id: Id, permission: Permission, unrequested: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    result: ExtensionInfoSchema,
  }),
  'extensions.revoke': endpoint({ description: 'Revoke a permission.', params: Type.Object({ id: Id, permission: Permission }, { additionalProperties: false }), result: ExtensionInfoSchema }),
  'extensions.trust': endpoint({ description: "Let an extension's tools that declare no mode run without asking (trusted: true), or ask again (false).", params: Type.Object({ id: Id, trusted: Type.Boolean() }, { additionalProperties: false }), result: ExtensionInfoSchema }),
  'extensions.frontend': endpoint({ description: 'What its backend sent its frontend with sendToFrontend (the last 200, oldest first).', params: ById, result: Type.Object({ messages: Type.Array(Type.Object({ at: Type.Number(), payload: Type.Unknown() })) }) }),
  'extensions.runCommand': endpoint({ description: "Run one of its commands (spindle.commands): its onInvoked handlers hear it with the chat the person has open (chatId; else the active one).", params: Type.Object({ id: Id, commandId: Type.String({ minLength: 1, maxLength: 100 }), chatId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }, { additionalProperties: false }), result: Type.Object({ ran: Type.Literal(true) }) }),
  'extensions.sendFrontend': endpoint({ description: "Hand a JSON message to its onFrontendMessage handlers, as its frontend would (4 M characters of JSON at most, as Lumiverse's socket).", params: Type.Object({ id: Id, payload: Type.Unknown() }, { additionalProperties: false }), result: Type.Object({ delivered: Type.Boolean() }) }),
  'extensions.pageRequest': endpoint({ description: "A request its frontend made to Lumiverse's own /api/v1/… (the frames' compatibility layer), answered as Lumiverse would within its permissions.", params: Type.Object(
      {
        id: Id,
        method: Type.String({ pattern: '^[A-Za-z]{1,10}$' }),
        path: Type.String({ minLength: 1, maxLength: 4096 }),
        headers: Type.Record(Type.String({ maxLength: 200 }), Type.String({ maxLength: 8192 }), { maxProperties: 64 }),
        body: Type.Optional(Type.String()),
        bodyEncoding: Type.Optional(Type.Union([Type.Literal('utf8'), Type.Literal('base64')])),
      },
      { additionalProperties: false },
    ), result: Type.Object({ status: Type.Integer(), headers: Type.Record(Type.String(), Type.String()), body: Type.String(), bodyEncoding: Type.Union([Type.Literal('utf8'), Type.Literal('base64')]) }) }),
  'extensions.frontendCall': endpoint({ description: "One of Lumiverse's frontend v2 members its frontend called (world books, tokens, connections, chats, messages, its settings): the spindle method its backend could call, within the same permissions.", params: Type.Object({ id: Id, method: FrontendCallSchema, args: FrontendArgsSchema }, { additionalProperties: false }), result: Type.Object({ value: Type.Unknown() }) }),
  'extensions.image': endpoint({ description: "An image a message shows by its address in Lumiverse (/api/v1/images/<id>): one an extension granted images keeps, or a character's picture (avatar-<session>), as a data URL; null when there is none.", params: Type.Object({ imageId: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }), result: Type.Object({ dataUrl: Type.Union([Type.String(), Type.Null()]) }) }),
  'extensions.dialogs': endpoint({ description: "The dialogs extensions' backends opened that still wait for the person (for a window that opens after they were announced).", params: Type.Object({}, { additionalProperties: false }), result: Type.Object({ dialogs: Type.Array(Type.Object({ dialogId: Type.String(), extensionId: Type.String(), kind: Type.Union([Type.Literal('confirm'), Type.Literal('input'), Type.Literal('textEditor'), Type.Literal('modal')]), params: Type.Record(Type.String(), Type.Unknown()) })) }) }),
  'extensions.dialogAnswer': endpoint({ description: "The person's answer to a dialog an extension's backend opened (extension.dialog): null cancels. Taken once; false when another window answered first.", params: Type.Object({ dialogId: Type.String({ minLength: 1, maxLength: 64 }), answer: Type.Unknown() }, { additionalProperties: false }), result: Type.Object({ taken: Type.Boolean() }) }),
  'extensions.log': endpoint({ description: 'The capped log of an extension, or the lines after afterSeq (for following it).', params: Type.Object({ id: Id, afterSeq: Type.Optional(Type.Integer({ minimum: 0 })) }, { additionalProperties: false }), result: Type.Object({ lines: Type.Array(Type.String()), lastSeq: Type.Integer() }) }),
};
