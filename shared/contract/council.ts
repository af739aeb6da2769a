// Council, runs and Lumia pack methods: members and settings, dice preview, runs with abort and retry, profiles, packs.
import { Type } from '@sinclair/typebox';
import { endpoint } from '../rpc/endpoint';
import {
  Chance,
  CouncilChatSchema,
  CouncilRollSchema,
  CouncilRunSchema,
  CouncilToolsSettingsSchema,
  CouncilViewSchema,
  InlineToolSchema,
  PACK_ID_PATTERN,
  PackSummarySchema,
  ProfileSummarySchema,
  Retention,
  RunSummarySchema,
} from '../types/council';
import { PathPrefixListSchema } from '../types/safety';

const Empty = Type.Object({}, { additionalProperties: false });
const MemberId = Type.String({ minLength: 1, maxLength: 128 });
const RunId = Type.String({ pattern: '^[A-Za-z0-9_-]{1,80}$' });
const PackId = Type.String({ pattern: PACK_ID_PATTERN });
const ItemId = Type.String({ minLength: 1, maxLength: 128 });
const ToolList = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 64 });
const RetentionMap = Type.Record(Type.String({ maxLength: 200 }), Retention);
const ProfileName = Type.String({ minLength: 1, maxLength: 80 });
const Seed = Type.Integer({ minimum: 0, maximum: 4294967295 });
const FileOut = Type.Object({ fileName: Type.String(), content: Type.String() });

export const councilMethods = {
  'council.get': endpoint({ description: 'The council: settings with defaults, members with what they point at resolved and anything missing flagged.', params: Empty, result: CouncilViewSchema }),
  'council.update': endpoint({ description: 'Change council settings: Council Mode, the at-least-one fallback, and tool settings (partial).', params: Type.Object(
      {
        patch: Type.Object(
          {
            councilMode: Type.Optional(Type.Boolean()),
            atLeastOneMember: Type.Optional(Type.Boolean()),
            toolsSettings: Type.Optional(Type.Partial(CouncilToolsSettingsSchema, { additionalProperties: false })),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ), result: CouncilViewSchema }),
  'council.addMember': endpoint({ description: 'Add a member backed by a pack item. chance defaults to 100, role to "", tools to none.', params: Type.Object(
      {
        packId: PackId,
        itemId: ItemId,
        role: Type.Optional(Type.String({ maxLength: 200 })),
        chance: Type.Optional(Chance),
        tools: Type.Optional(ToolList),
        toolHistoryRetention: Type.Optional(RetentionMap),
        allowedReadPaths: Type.Optional(PathPrefixListSchema),
        allowedWritePaths: Type.Optional(PathPrefixListSchema),
      },
      { additionalProperties: false },
    ), result: Type.Object({ memberId: Type.String(), council: CouncilViewSchema }) }),
  'council.setMember': endpoint({ description: "Change a member's role, chance, tools, retention, or backing item.", params: Type.Object(
      {
        memberId: MemberId,
        patch: Type.Object(
          {
            packId: Type.Optional(PackId),
            itemId: Type.Optional(ItemId),
            role: Type.Optional(Type.String({ maxLength: 200 })),
            chance: Type.Optional(Chance),
            tools: Type.Optional(ToolList),
            toolHistoryRetention: Type.Optional(RetentionMap),
            /** Replace the member's path lists (seed 003); [] allows nothing. */
            allowedReadPaths: Type.Optional(PathPrefixListSchema),
            allowedWritePaths: Type.Optional(PathPrefixListSchema),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ), result: CouncilViewSchema }),
  'council.removeMember': endpoint({ description: 'Remove a member.', params: Type.Object({ memberId: MemberId }, { additionalProperties: false }), result: CouncilViewSchema }),
  'council.reorderMembers': endpoint({ description: 'Put the members in this order (every member exactly once).', params: Type.Object({ memberIds: Type.Array(MemberId, { maxItems: 1000 }) }, { additionalProperties: false }), result: CouncilViewSchema }),
  'council.quickAddPack': endpoint({ description: 'Add every item of a pack as a member (items already present are skipped).', params: Type.Object(
      { packId: PackId, chance: Type.Optional(Chance), role: Type.Optional(Type.String({ maxLength: 200 })), tools: Type.Optional(ToolList) },
      { additionalProperties: false },
    ), result: CouncilViewSchema }),
  'council.testRoll': endpoint({ description: 'Preview who would take part with this seed (a random one when absent); nothing runs.', params: Type.Object({ seed: Type.Optional(Seed) }, { additionalProperties: false }), result: Type.Object({ seed: Type.Integer(), rolls: Type.Array(CouncilRollSchema), fallbackUsed: Type.Boolean(), active: Type.Array(Type.String()) }) }),
  'council.run': endpoint({ description: 'Roll the dice and run the active members\' tools on a chat; resolves with the stored run. Progress arrives as council.run.* events; pass runId to be able to abort at once.', params: Type.Object(
      {
        chat: CouncilChatSchema,
        seed: Type.Optional(Seed),
        runId: Type.Optional(RunId),
        regen: Type.Optional(Type.Boolean()),
        /** Simulate write tools (default: settings.safety.dryRun). */
        dryRun: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ), result: CouncilRunSchema }),
  'council.retryFailed': endpoint({ description: 'Re-run only the failed tools of a run with the same rolls (no new dice roll); a new run records it (retryOf).', params: Type.Object({ runId: RunId }, { additionalProperties: false }), result: CouncilRunSchema }),
  'council.abort': endpoint({ description: 'Cancel a run in progress: every tool in flight is cancelled; the run ends as aborted.', params: Type.Object({ runId: RunId }, { additionalProperties: false }), result: Type.Object({ aborted: Type.Boolean() }) }),
  'council.inlineTools': endpoint({ description: 'Inline mode: the function definitions the main model is offered (member × tool with an argument schema).', params: Empty, result: Type.Array(InlineToolSchema) }),
  'council.profiles.list': endpoint({ description: 'Saved council profiles.', params: Empty, result: Type.Array(ProfileSummarySchema) }),
  'council.profiles.save': endpoint({ description: 'Save the current council under a name (replaces a profile of that name).', params: Type.Object({ name: ProfileName }, { additionalProperties: false }), result: ProfileSummarySchema }),
  'council.profiles.load': endpoint({ description: 'Replace the current council with a saved profile.', params: Type.Object({ name: ProfileName }, { additionalProperties: false }), result: CouncilViewSchema }),
  'council.profiles.remove': endpoint({ description: 'Delete a saved profile.', params: Type.Object({ name: ProfileName }, { additionalProperties: false }), result: Type.Object({ removed: Type.Boolean() }) }),
  'council.profiles.export': endpoint({ description: 'A profile as a JSON file to save.', params: Type.Object({ name: ProfileName }, { additionalProperties: false }), result: FileOut }),
  'council.profiles.import': endpoint({ description: 'Import a profile file (validated; fields named by path on error). name renames it.', params: Type.Object({ content: Type.String({ maxLength: 1_000_000 }), name: Type.Optional(ProfileName) }, { additionalProperties: false }), result: ProfileSummarySchema }),
  'runs.list': endpoint({ description: 'Stored council runs, newest first.', params: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })), chatId: Type.Optional(Type.String({ maxLength: 128 })) }, { additionalProperties: false }), result: Type.Array(RunSummarySchema) }),
  'runs.get': endpoint({ description: 'One stored run: seed, rolls, per-tool timing, results, blocks, and the chat it analysed.', params: Type.Object({ runId: RunId }, { additionalProperties: false }), result: CouncilRunSchema }),
  'runs.exportTrace': endpoint({ description: 'A run as a JSON Lines trace (one event per line, timeline order).', params: Type.Object({ runId: RunId }, { additionalProperties: false }), result: FileOut }),
  'packs.list': endpoint({ description: 'Installed Lumia packs (bundled and user), without avatar image data.', params: Empty, result: Type.Array(PackSummarySchema) }),
  'packs.import': endpoint({ description: 'Install a pack from JSON text (content), or — from the CLI only — from a file path. Validated; errors name the field path.', params: Type.Object(
      {
        /** The pack file's text; its size is checked by the pack reader (5 MB), which says so. */
        content: Type.Optional(Type.String({ minLength: 1 })),
        path: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
        /** A pack with the same id is installed: replace it (overwrite), or install this one beside it under a new id (keepBoth). */
        overwrite: Type.Optional(Type.Boolean()),
        keepBoth: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ), result: PackSummarySchema }),
  'packs.export': endpoint({ description: "A self-contained pack file: the Workbench's shape (avatars inlined as data URLs) or LumiHub's (format: 'lumihub').", params: Type.Object({ id: PackId, format: Type.Optional(Type.Union([Type.Literal('workbench'), Type.Literal('lumihub')])) }, { additionalProperties: false }), result: FileOut }),
  'packs.remove': endpoint({ description: 'Remove a user pack (bundled packs cannot be removed).', params: Type.Object({ id: PackId }, { additionalProperties: false }), result: Type.Object({ removed: Type.Boolean() }) }),
  'packs.avatar': endpoint({ description: "An item's avatar as a data: URL (null when it has none).", params: Type.Object({ packId: PackId, itemId: ItemId }, { additionalProperties: false }), result: Type.Object({ dataUrl: Type.Union([Type.String(), Type.Null()]) }) }),
};
