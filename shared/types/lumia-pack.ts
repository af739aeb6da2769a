// Lumia pack shapes (seed 000 + LumiHub's): the pack file, its items and prompt tools, and what packs.list returns.
import { Type, type Static } from '@sinclair/typebox';

export const PACK_ID_PATTERN = '^[a-z0-9][a-z0-9-]{1,47}$';
export const PACK_ITEM_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$';
/** Same rule as a Spindle bare tool name. */
export const PACK_TOOL_NAME_PATTERN = '^[a-zA-Z][a-zA-Z0-9_]{0,63}$';
/** A relative path inside the pack folder, or an inline image data URL. */
export const AVATAR_PATTERN = '^(?:data:image/(?:png|jpeg|webp|gif|svg\\+xml);base64,[A-Za-z0-9+/=]+|[A-Za-z0-9_][A-Za-z0-9_./-]{0,199})$';

/** Sized for the packs people publish, with margin (avatars inlined as data URLs make the files large). */
export const PACK_LIMITS = {
  /** Bytes of the pack file (avatars inlined). */
  maxFileBytes: 64 * 1024 * 1024,
  maxItems: 2000,
  maxTools: 64,
  /** Characters of one inline avatar data URL. */
  maxAvatarChars: 8 * 1024 * 1024,
  maxTextChars: 200_000,
  maxPromptChars: 100_000,
} as const;

export const GenderIdentitySchema = Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2), Type.Literal(3)]);

export const LumiaItemSchema = Type.Object({
  id: Type.String({ pattern: PACK_ITEM_ID_PATTERN }),
  name: Type.String({ minLength: 1, maxLength: 120 }),
  avatar: Type.Optional(Type.String({ maxLength: PACK_LIMITS.maxAvatarChars, pattern: AVATAR_PATTERN })),
  definition: Type.String({ maxLength: PACK_LIMITS.maxTextChars }),
  personality: Type.String({ maxLength: PACK_LIMITS.maxTextChars }),
  behavior: Type.String({ maxLength: PACK_LIMITS.maxTextChars }),
  genderIdentity: GenderIdentitySchema,
});

export const PackToolSchema = Type.Object({
  name: Type.String({ pattern: PACK_TOOL_NAME_PATTERN }),
  displayName: Type.String({ minLength: 1, maxLength: 120 }),
  description: Type.String({ minLength: 1, maxLength: 2000 }),
  prompt: Type.String({ minLength: 1, maxLength: PACK_LIMITS.maxPromptChars }),
});

export const LumiaPackSchema = Type.Object({
  id: Type.String({ pattern: PACK_ID_PATTERN }),
  name: Type.String({ minLength: 1, maxLength: 120 }),
  version: Type.String({ minLength: 1, maxLength: 40 }),
  author: Type.Optional(Type.String({ maxLength: 120 })),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  /** A pack of only loom items (LumiHub) has no personas: it adds no members. */
  items: Type.Array(LumiaItemSchema, { maxItems: PACK_LIMITS.maxItems }),
  tools: Type.Optional(Type.Array(PackToolSchema, { maxItems: PACK_LIMITS.maxTools })),
  /** What a LumiHub pack had that the Workbench keeps but does not use (avatar links, loom items, extras), for export. */
  lumihub: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

export type LumiaItem = Static<typeof LumiaItemSchema>;
export type PackTool = Static<typeof PackToolSchema>;
export type LumiaPack = Static<typeof LumiaPackSchema>;

/** What packs.list returns: no inline avatar data (ask packs.avatar for that). */
export const PackSummarySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  version: Type.String(),
  author: Type.Union([Type.String(), Type.Null()]),
  description: Type.Union([Type.String(), Type.Null()]),
  source: Type.Union([Type.Literal('bundled'), Type.Literal('user')]),
  items: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      definition: Type.String(),
      personality: Type.String(),
      behavior: Type.String(),
      genderIdentity: GenderIdentitySchema,
      /** Relative URL naming the avatar, or null; fetch the image with packs.avatar. */
      avatarUrl: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  tools: Type.Array(
    Type.Object({ name: Type.String(), displayName: Type.String(), description: Type.String(), qualifiedName: Type.String() }),
  ),
  /** Names of the loom items a LumiHub pack brought (kept for export; the Workbench does not use them). */
  loomItems: Type.Optional(Type.Array(Type.String())),
});
export type PackSummary = Static<typeof PackSummarySchema>;
