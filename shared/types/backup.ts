// One file with everything a person made here: settings (council, connections without keys, sidecar, chat, safety,
// MCP servers), sessions with their pictures, their own Lumia packs, presets and regex scripts, and which extensions
// were installed and how.
import { Type, type Static } from '@sinclair/typebox';

export const BACKUP_FORMAT = 'council-workbench/backup';
export const BACKUP_VERSION = 1;

export const BackupExtensionSchema = Type.Object(
  {
    id: Type.String({ maxLength: 64 }),
    name: Type.String({ maxLength: 200 }),
    version: Type.String({ maxLength: 80 }),
    source: Type.Union([Type.Literal('bundled'), Type.Literal('user')]),
    enabled: Type.Boolean(),
    granted: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 }),
    trusted: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const BackupSchema = Type.Object(
  {
    format: Type.Literal(BACKUP_FORMAT),
    version: Type.Literal(BACKUP_VERSION),
    createdAt: Type.Number(),
    /** The settings document, with every key and secret header value left out (see `withheld`). */
    settings: Type.Record(Type.String(), Type.Unknown()),
    /** Whole session documents (checked one by one on import). */
    sessions: Type.Array(Type.Record(Type.String(), Type.Unknown()), { maxItems: 100_000 }),
    /** Session pictures, base64 PNG by session id. */
    avatars: Type.Record(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }), Type.String()),
    /** The person's own packs (bundled ones come with the app). */
    packs: Type.Array(Type.Record(Type.String(), Type.Unknown()), { maxItems: 1000 }),
    /** Council runs (seed, rolls, results, blocks, the chat), as `runs.get` answers them; absent in older backups. */
    runs: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()), { maxItems: 1000 })),
    /** The person's own regex scripts (extensions' come back with them); absent in older backups. */
    regexScripts: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()), { maxItems: 10_000 })),
    /** Lumiverse presets (imported, or made by extensions), as spindle.presets answers them; absent in older backups. */
    presets: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()), { maxItems: 1000 })),
    /** What was installed; extensions' code is not in a backup. */
    extensions: Type.Array(BackupExtensionSchema, { maxItems: 1000 }),
    /** What a backup never holds, said where it was (keys, secret header and environment values). */
    withheld: Type.Array(Type.String({ maxLength: 300 }), { maxItems: 1000 }),
  },
  { additionalProperties: false },
);

export type Backup = Static<typeof BackupSchema>;
export type BackupExtension = Static<typeof BackupExtensionSchema>;

export const HELD_KINDS = ['mcp', 'connection', 'safety', 'extension'] as const;
export type HeldKind = (typeof HELD_KINDS)[number];

/** An item of a backup that runs a command, reaches a network or loosens safety: held until the person accepts it. */
export const HeldItemSchema = Type.Object({
  /** What accepts it: `mcp:<id>`, `connection:<id>`, `safety:<field>`, `extension:<id>` (or `<kind>:*` for all). */
  key: Type.String(),
  kind: Type.Union(HELD_KINDS.map((k) => Type.Literal(k))),
  id: Type.String(),
  name: Type.String(),
  reason: Type.String(),
});
export type HeldItem = Static<typeof HeldItemSchema>;
