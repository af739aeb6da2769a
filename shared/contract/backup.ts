// Backup: everything the person made, in one file, and back.
import { Type } from '@sinclair/typebox';
import { BackupSchema, HeldItemSchema } from '../types/backup';
import { endpoint } from '../rpc/endpoint';

export const backupMethods = {
  'backup.export': endpoint({ description: 'Everything the person made (sessions with their pictures, their packs, the council and its runs, settings, connections without keys, MCP servers, which extensions are installed), as one document; what it leaves out is listed in withheld.', params: Type.Object({}, { additionalProperties: false }), result: Type.Object({ fileName: Type.String(), backup: BackupSchema }) }),
  'backup.import': endpoint({ description: 'Restore a backup over what is here (the same sessions and packs by id, the settings, the switches of the extensions installed here); checked whole before anything is written, and put back as it was if a write fails (RESTORE_FAILED names the item); importing it again changes nothing. What runs a command, reaches a network or loosens safety is held unless accepted by its key.', params: Type.Object(
      {
        json: Type.String({ minLength: 1 }),
        /** Held items the person accepts, by key (`mcp:<id>`, `connection:<id>`, `safety:<field>`, `extension:<id>`, `<kind>:*`). */
        accept: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 1000 })),
      },
      { additionalProperties: false },
    ), result: Type.Object({
      sessions: Type.Integer(),
      packs: Type.Integer(),
      runs: Type.Integer(),
      presets: Type.Integer(),
      regexScripts: Type.Integer(),
      extensions: Type.Integer(),
      /** In the backup but not installed here: install them again. */
      missingExtensions: Type.Array(Type.String()),
      /** Connections and MCP servers whose key or secret values this folder does not have. */
      keysNeeded: Type.Array(Type.String()),
      /** Extension switches that could not be set (the rest was restored). */
      problems: Type.Array(Type.String()),
      /** Items that would run a command, reach a network or loosen safety, and were held: off, keyless, stricter. */
      held: Type.Array(HeldItemSchema),
      /** Such items the person accepted, restored as the backup has them. */
      accepted: Type.Array(HeldItemSchema),
    }) }),
};
