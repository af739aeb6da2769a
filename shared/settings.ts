// The settings document: its schema, current version and defaults. Later domains add sections here.
import { Type, type Static } from '@sinclair/typebox';

export const SETTINGS_VERSION = 1;

export const ThemeSchema = Type.Union([Type.Literal('system'), Type.Literal('light'), Type.Literal('dark')]);

export const ExtensionStateSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    granted: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 16 }),
  },
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
  },
  { additionalProperties: true },
);

export const SettingsSchema = Type.Object(
  {
    version: Type.Integer({ minimum: 1 }),
    ui: Type.Object({ theme: ThemeSchema }, { additionalProperties: false }),
    extensions: Type.Record(Type.String({ pattern: '^[a-z0-9][a-z0-9-]{1,63}$' }), ExtensionStateSchema),
    council: Type.Object(
      {
        councilMode: Type.Boolean(),
        members: Type.Array(CouncilMemberSettingsSchema, { maxItems: 1000 }),
      },
      { additionalProperties: true },
    ),
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
  };
}
