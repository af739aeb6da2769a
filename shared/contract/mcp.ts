// MCP server methods: configs (add, update, remove, import the desktop-host JSON), lifecycle, tools and logs.
import { Type } from '@sinclair/typebox';
import { method } from './define';

/** Registry source ids are `mcp-<id>` (≤ 64 chars), so an id is at most 60. Lowercase keeps provider aliases plain. */
export const MCP_SERVER_ID_PATTERN = '^[a-z0-9][a-z0-9_-]{0,59}$';
const Id = Type.String({ pattern: MCP_SERVER_ID_PATTERN });
const ById = Type.Object({ id: Id }, { additionalProperties: false });
const Transport = Type.Union([Type.Literal('stdio'), Type.Literal('http')]);
const StringMap = Type.Record(Type.String({ maxLength: 256 }), Type.String({ maxLength: 8192 }));

/**
 * One configured server, as stored in settings (`mcpServers`). stdio uses command/args/env/cwd;
 * http uses url/headers. The core checks the combination and names the offending field.
 */
export const McpServerConfigSchema = Type.Object(
  {
    id: Id,
    name: Type.String({ minLength: 1, maxLength: 100 }),
    transport: Transport,
    command: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    args: Type.Optional(Type.Array(Type.String({ maxLength: 8192 }), { maxItems: 256 })),
    /** The ONLY environment the process gets, plus PATH (and SYSTEMROOT on Windows) when not set here. */
    env: Type.Optional(StringMap),
    cwd: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    headers: Type.Optional(StringMap),
    /** The user trusts this server's annotations: `readOnlyHint: true` then makes a tool mode 'read'. */
    trusted: Type.Boolean(),
    /** Started when the host starts. */
    enabled: Type.Boolean(),
  },
  { additionalProperties: false },
);

/** mcp.add input: like the config, with trusted/enabled optional (default false/true) and name defaulting to id. */
const AddInput = Type.Object(
  {
    id: Id,
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    transport: Transport,
    command: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    args: Type.Optional(Type.Array(Type.String({ maxLength: 8192 }), { maxItems: 256 })),
    env: Type.Optional(StringMap),
    cwd: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    headers: Type.Optional(StringMap),
    trusted: Type.Optional(Type.Boolean()),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** mcp.update patch: every field but id; fields set replace (a null removes an optional field). */
const UpdatePatch = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    transport: Type.Optional(Transport),
    command: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 4096 }), Type.Null()])),
    args: Type.Optional(Type.Union([Type.Array(Type.String({ maxLength: 8192 }), { maxItems: 256 }), Type.Null()])),
    env: Type.Optional(Type.Union([StringMap, Type.Null()])),
    cwd: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 4096 }), Type.Null()])),
    url: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 2048 }), Type.Null()])),
    headers: Type.Optional(Type.Union([StringMap, Type.Null()])),
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

const ErrorSchema = Type.Object({ code: Type.String(), message: Type.String(), hint: Type.Optional(Type.String()), path: Type.Optional(Type.String()) });

export const McpServerInfoSchema = Type.Object({
  config: McpServerConfigSchema,
  status: McpStatusSchema,
  /** Registry source id: tools are `mcp-<id>:<tool>`. */
  sourceId: Type.String(),
  /** Tools registered in the registry. */
  toolCount: Type.Integer(),
  /** Tools the server listed that were skipped (invalid schema, name, …); see mcp.tools and mcp.log. */
  skippedToolCount: Type.Integer(),
  lastError: Type.Optional(ErrorSchema),
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
  error: Type.Optional(ErrorSchema),
  /** What the host changed to register it (e.g. a uniqueItems it removed). */
  notes: Type.Optional(Type.Array(Type.String())),
});

const ImportResult = Type.Object({
  added: Type.Array(McpServerInfoSchema),
  /** One per rejected entry; `path` names the field, e.g. `/mcpServers/github/command`. */
  errors: Type.Array(ErrorSchema),
});

export const mcpMethods = {
  'mcp.list': method('Every configured MCP server with its status, tool count and last error.', Type.Object({}, { additionalProperties: false }), Type.Array(McpServerInfoSchema)),
  'mcp.add': method('Add an MCP server config; it connects when enabled.', AddInput, McpServerInfoSchema),
  'mcp.update': method(
    'Change an MCP server config; a running server restarts with the new config.',
    Type.Object({ id: Id, patch: UpdatePatch }, { additionalProperties: false }),
    McpServerInfoSchema,
  ),
  'mcp.remove': method('Disconnect and remove an MCP server; its tools are unregistered.', ById, Type.Object({ removed: Type.Boolean() })),
  'mcp.importJson': method(
    'Import the `{ "mcpServers": { … } }` JSON desktop MCP hosts use; valid entries are added (disabled, untrusted), the rest reported.',
    Type.Object({ json: Type.String({ minLength: 1, maxLength: 1_000_000 }), enable: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    ImportResult,
  ),
  'mcp.connect': method('Connect (start) a server now; clears a failed state. Resolves when connected or failed.', ById, McpServerInfoSchema),
  'mcp.disconnect': method('Disconnect (stop) a server; its tools are unregistered.', ById, McpServerInfoSchema),
  'mcp.restart': method('Disconnect and connect again with a clean crash budget.', ById, McpServerInfoSchema),
  'mcp.tools': method('The tools a server listed, registered or skipped, with title, schemas and annotations.', ById, Type.Array(McpToolViewSchema)),
  'mcp.log': method('The capped log of a server: stderr, log notifications and host messages.', ById, Type.Object({ lines: Type.Array(Type.String()) })),
};
