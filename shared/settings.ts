// The settings document: its schema, current version and defaults. Later domains add sections here.
import { Type, type Static } from '@sinclair/typebox';
import { KeyRefSchema, ProviderSchema } from './contract/connections';
import { SidecarConfigSchema } from './contract/sidecar';
import { ChatSettingsSchema, defaultChatSettings } from './types/chat';
import { SIDECAR_DEFAULTS } from './types/llm';
import { CouncilToolsSettingsSchema } from './types/council';
import { defaultSafetySettings, PathPrefixListSchema, SafetySettingsSchema } from './types/safety';
import { McpServerConfigSchema } from './contract/mcp';

export const SETTINGS_VERSION = 1;

export const ThemeSchema = Type.Union([Type.Literal('system'), Type.Literal('light'), Type.Literal('dark')]);

export const ExtensionStateSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    granted: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 }),
    /** Of those, the ones the person granted though its manifest did not ask for them (kept across a new version). */
    unrequested: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 })),
    /** Its tools that declare no mode run without asking (trusted once by the person). */
    trusted: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** Resident memory a worker may use before it is killed with WORKER_MEMORY, in MB. */
export const DEFAULT_WORKER_MEMORY_MB = 1024;

export const ExtensionWorkersSettingsSchema = Type.Object(
  { memoryMb: Type.Integer({ minimum: 64, maximum: 65536 }) },
  { additionalProperties: false },
);

export const CouncilMemberSettingsSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 128 }),
    packId: Type.String({ maxLength: 128 }),
    itemId: Type.String({ maxLength: 128 }),
    role: Type.String({ maxLength: 200 }),
    chance: Type.Integer({ minimum: 0, maximum: 100 }),
    tools: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 256 }),
    toolHistoryRetention: Type.Optional(Type.Record(Type.String({ maxLength: 200 }), Type.Integer({ minimum: 0, maximum: 10 }))),
    /** Path prefixes this member's tool calls may read / write (seed 003); absent = unrestricted. */
    allowedReadPaths: Type.Optional(PathPrefixListSchema),
    allowedWritePaths: Type.Optional(PathPrefixListSchema),
  },
  { additionalProperties: true },
);

/** A saved connection profile: never a key (keys live in the secret store or the environment). */
export const ConnectionProfileSettingsSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }),
    name: Type.String({ maxLength: 100 }),
    provider: ProviderSchema,
    baseUrl: Type.String({ maxLength: 2048 }),
    defaultModel: Type.String({ maxLength: 200 }),
    /** The model it makes images with (OpenAI's Images API; openai and openai-compatible only): absent, it makes none. */
    imageModel: Type.Optional(Type.String({ maxLength: 200 })),
    headers: Type.Record(Type.String(), Type.String()),
    keyRef: Type.Optional(KeyRefSchema),
    /** Why a backup restore held it (new, or its address changed): unused, without a key, until confirmed. */
    held: Type.Optional(Type.String({ maxLength: 300 })),
  },
  { additionalProperties: false },
);

export const SettingsSchema = Type.Object(
  {
    version: Type.Integer({ minimum: 1 }),
    ui: Type.Object({ theme: ThemeSchema }, { additionalProperties: false }),
    extensions: Type.Record(Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{1,63}$' }), ExtensionStateSchema),
    /** Limits every extension worker runs under; absent means the defaults. */
    extensionWorkers: Type.Optional(ExtensionWorkersSettingsSchema),
    council: Type.Object(
      {
        councilMode: Type.Boolean(),
        members: Type.Array(CouncilMemberSettingsSchema, { maxItems: 1000 }),
        /** Optional: files written before the council settings existed load with COUNCIL_TOOLS_DEFAULTS. */
        toolsSettings: Type.Optional(CouncilToolsSettingsSchema),
        atLeastOneMember: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: true },
    ),
    /** Optional: files written before these sections existed load with the defaults. */
    connections: Type.Optional(Type.Array(ConnectionProfileSettingsSchema, { maxItems: 100 })),
    sidecarSettings: Type.Optional(SidecarConfigSchema),
    chat: Type.Optional(ChatSettingsSchema),
    /** Approvals, dry run, always-allowed tools, Workbench path lists (shared/types/safety.ts). */
    safety: Type.Optional(SafetySettingsSchema),
    /** MCP servers as tool sources (electron/core/mcp); absent means none. */
    mcpServers: Type.Optional(Type.Array(McpServerConfigSchema, { maxItems: 100 })),
  },
  { additionalProperties: true },
);

export type Settings = Static<typeof SettingsSchema>;

export function defaultSettings(): Settings {
  return {
    version: SETTINGS_VERSION,
    ui: { theme: 'system' },
    extensions: {},
    council: { councilMode: false, members: [] },
    connections: [],
    sidecarSettings: { connectionProfileId: '', model: '', ...SIDECAR_DEFAULTS },
    chat: defaultChatSettings(),
    safety: defaultSafetySettings(),
  };
}
