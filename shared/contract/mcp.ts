// MCP server methods: configs (add, update, remove, import the desktop-host JSON), lifecycle, tools and logs.
import { Type } from '@sinclair/typebox';
import { HostErrorSchema } from './common';
import { endpoint } from '../rpc/endpoint';

/** Registry source ids are `mcp-<id>` (≤ 64 chars), so an id is at most 60. Lowercase keeps provider aliases plain. */
export const MCP_SERVER_ID_PATTERN = '^[a-z0-9][a-z0-9_-]{0,59}$';
const Id = Type.String({ pattern: MCP_SERVER_ID_PATTERN });
const ById = Type.Object({ id: Id }, { additionalProperties: false });
const Transport = Type.Union([Type.Literal('stdio'), Type.Literal('http')]);
const StringMap = Type.Record(Type.String({ maxLength: 256 }), Type.String({ maxLength: 8192 }));

const Name = Type.String({ minLength: 1, maxLength: 100 });
/** The fields a server config may leave out; stdio uses command/args/env/cwd, http uses url/headers. */
const optionalFields = {
  command: Type.String({ minLength: 1, maxLength: 4096 }),
  args: Type.Array(Type.String({ maxLength: 8192 }), { maxItems: 256 }),
  /** The ONLY environment the process gets, plus PATH (and SYSTEMROOT on Windows) when not set here. */
  env: StringMap,
  cwd: Type.String({ minLength: 1, maxLength: 4096 }),
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  headers: StringMap,
};
type OptionalField = keyof typeof optionalFields;
const optional = <T>(wrap: (schema: (typeof optionalFields)[OptionalField]) => T) =>
  Object.fromEntries(Object.entries(optionalFields).map(([key, schema]) => [key, wrap(schema)])) as { [K in OptionalField]: T };

/**
 * One configured server, as stored in settings (`mcpServers`). The shapes are checked here; the rules
 * across fields (which transport takes which, URLs, names) live in shared/mcp-config.ts.
 */
export const McpServerConfigSchema = Type.Object(
  {
    id: Id,
    name: Name,
    transport: Transport,
    command: Type.Optional(optionalFields.command),
    args: Type.Optional(optionalFields.args),
    env: Type.Optional(optionalFields.env),
    cwd: Type.Optional(optionalFields.cwd),
    url: Type.Optional(optionalFields.url),
    headers: Type.Optional(optionalFields.headers),
    /** The user trusts this server's annotations: `readOnlyHint: true` then makes a tool mode 'read'. */
    trusted: Type.Boolean(),
    /** Started when the host starts. */
    enabled: Type.Boolean(),
  },
  { additionalProperties: false },
);

/** mcp.add input: the config with trusted/enabled optional (default false/true) and name defaulting to id. */
const AddInput = Type.Composite([Type.Omit(McpServerConfigSchema, ['name', 'trusted', 'enabled']), Type.Object({ name: Type.Optional(Name), trusted: Type.Optional(Type.Boolean()), enabled: Type.Optional(Type.Boolean()) })], {
  additionalProperties: false,
});

/** mcp.update patch: every field but id; fields set replace (a null removes an optional field). */
const UpdatePatch = Type.Object(
  {
    name: Type.Optional(Name),
    transport: Type.Optional(Transport),
    ...optional((schema) => Type.Optional(Type.Union([schema, Type.Null()]))),
    trusted: Type.Optional(Type.Boolean()),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const McpStatusSchema = Type.Union([
  /** Not enabled and not running. */
  Type.Literal('stopped'),
  Type.Literal('connecting'),
  Type.Literal('connected'),
  /** Died or failed to start; a restart is scheduled (`restartAt`). */
  Type.Literal('crashed'),
  /** 3 crashes in 5 minutes: stays down until mcp.restart / mcp.connect. */
  Type.Literal('failed'),
]);


export const McpServerInfoSchema = Type.Object({
  config: McpServerConfigSchema,
  status: McpStatusSchema,
  /** Registry source id: tools are `mcp-<id>:<tool>`. */
  sourceId: Type.String(),
  /** Tools registered in the registry. */
  toolCount: Type.Integer(),
  /** Tools the server listed that were skipped (invalid schema, name, …); see mcp.tools and mcp.log. */
  skippedToolCount: Type.Integer(),
  lastError: Type.Optional(HostErrorSchema),
  /** serverInfo and instructions from initialize; server-supplied text, shown as text only. */
  server: Type.Optional(Type.Object({ name: Type.String(), version: Type.String(), instructions: Type.Optional(Type.String()) })),
  recentCrashes: Type.Integer(),
  /** Epoch ms of the scheduled restart while status is 'crashed'. */
  restartAt: Type.Optional(Type.Number()),
  pid: Type.Optional(Type.Integer()),
});

/** MCP ToolAnnotations, as the server sent them: hints only. */
export const McpAnnotationsSchema = Type.Object({
  title: Type.Optional(Type.String()),
  readOnlyHint: Type.Optional(Type.Boolean()),
  destructiveHint: Type.Optional(Type.Boolean()),
  idempotentHint: Type.Optional(Type.Boolean()),
  openWorldHint: Type.Optional(Type.Boolean()),
});

export const McpToolViewSchema = Type.Object({
  /** The MCP tool name as the server sent it (may be up to 128 chars, with dots). */
  name: Type.String(),
  /** `mcp-<id>:<name>` when registered. */
  qualifiedName: Type.String(),
  /** Provider-safe alias when registered (the registry derives it; hashed for dotted or long names). */
  alias: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  description: Type.String(),
  inputSchema: Type.Unknown(),
  outputSchema: Type.Optional(Type.Unknown()),
  annotations: Type.Optional(McpAnnotationsSchema),
  /** What the host decided: 'read' only for readOnlyHint on a trusted server. */
  mode: Type.Union([Type.Literal('read'), Type.Literal('write')]),
  registered: Type.Boolean(),
  /** Why the tool was skipped, when it was. */
  error: Type.Optional(HostErrorSchema),
  /** What the host changed to register it (e.g. a uniqueItems it removed). */
  notes: Type.Optional(Type.Array(Type.String())),
});

const ImportResult = Type.Object({
  added: Type.Array(McpServerInfoSchema),
  /** One per rejected entry; `path` names the field, e.g. `/mcpServers/github/command`. */
  errors: Type.Array(HostErrorSchema),
});

export const mcpMethods = {
  'mcp.list': endpoint({ description: 'Every configured MCP server with its status, tool count and last error.', params: Type.Object({}, { additionalProperties: false }), result: Type.Array(McpServerInfoSchema) }),
  'mcp.add': endpoint({ description: 'Add an MCP server config; it connects when enabled.', params: AddInput, result: McpServerInfoSchema }),
  'mcp.update': endpoint({ description: 'Change an MCP server config; a running server restarts with the new config.', params: Type.Object({ id: Id, patch: UpdatePatch }, { additionalProperties: false }), result: McpServerInfoSchema }),
  'mcp.remove': endpoint({ description: 'Disconnect and remove an MCP server; its tools are unregistered.', params: ById, result: Type.Object({ removed: Type.Boolean() }) }),
  'mcp.importJson': endpoint({ description: 'Import the `{ "mcpServers": { … } }` JSON desktop MCP hosts use; valid entries are added (disabled, untrusted), the rest reported.', params: Type.Object({ json: Type.String({ minLength: 1, maxLength: 1_000_000 }), enable: Type.Optional(Type.Boolean()) }, { additionalProperties: false }), result: ImportResult }),
  'mcp.connect': endpoint({ description: 'Connect (start) a server now; clears a failed state. Resolves when connected or failed.', params: ById, result: McpServerInfoSchema }),
  'mcp.disconnect': endpoint({ description: 'Disconnect (stop) a server; its tools are unregistered.', params: ById, result: McpServerInfoSchema }),
  'mcp.restart': endpoint({ description: 'Disconnect and connect again with a clean crash budget.', params: ById, result: McpServerInfoSchema }),
  'mcp.tools': endpoint({ description: 'The tools a server listed, registered or skipped, with title, schemas and annotations.', params: ById, result: Type.Array(McpToolViewSchema) }),
  'mcp.log': endpoint({ description: 'The capped log of a server: stderr, log notifications and host messages.', params: ById, result: Type.Object({ lines: Type.Array(Type.String()) }) }),
};
