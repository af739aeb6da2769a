// Backup: everything the person made, in one file, and back.
import { Type } from '@sinclair/typebox';
import { BackupSchema } from '../types/backup';
import { method } from './define';

export const backupMethods = {
  'backup.export': method(
    'Everything the person made (sessions with their pictures, their packs, the council, settings, connections without keys, MCP servers, which extensions are installed), as one document; what it leaves out is listed in withheld.',
    Type.Object({}, { additionalProperties: false }),
    Type.Object({ fileName: Type.String(), backup: BackupSchema }),
  ),
  'backup.import': method(
    'Restore a backup over what is here (the same sessions and packs by id, the settings, the switches of the extensions installed here); checked whole before anything is written; importing it again changes nothing.',
    Type.Object({ json: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
    Type.Object({
      sessions: Type.Integer(),
      packs: Type.Integer(),
      extensions: Type.Integer(),
      /** In the backup but not installed here: install them again. */
      missingExtensions: Type.Array(Type.String()),
      /** Connections and MCP servers whose key or secret values this folder does not have. */
      keysNeeded: Type.Array(Type.String()),
      /** Extension switches that could not be set (the rest was restored). */
      problems: Type.Array(Type.String()),
    }),
  ),
};
